// /docs - readable API reference, server-rendered from the same OpenAPI document as /v1/openapi.json
import type { Metadata } from "next";
import { describeType, memberRows } from "@/lib/application/openapi/describe";
import { CALLBACK_RULES, openApiDocument, type JsonSchema, type OperationObject, type ParameterObject } from "@/lib/application/openapi/document";
import { GUIDES } from "./guides";

export const dynamic = "force-static";
export const metadata: Metadata = { title: "Sandpiper API reference" };

const doc = openApiDocument();
const METHOD_STYLE: Record<string, string> = { get: "bg-emerald-100 text-emerald-900", post: "bg-blue-100 text-blue-900" };

type Entry = { method: string; path: string; op: OperationObject };
const entries: Entry[] = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ method, path, op })));

/**
 * A parameter of the document, its `$ref` (`#/components/parameters/<name>`) followed.
 * @throws Error when the reference names no parameter of the document's components (a document that contradicts itself)
 */
function resolveParameter(p: ParameterObject | { $ref: string }): ParameterObject {
  if (!("$ref" in p)) return p;
  const resolved = doc.components.parameters[p.$ref.split("/").pop() ?? ""];
  if (!resolved) throw new Error(`the OpenAPI document refers to ${p.$ref}, which it does not define`);
  return resolved;
}

function schemaLink(schema: JsonSchema | undefined) {
  if (!schema) return null;
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.split("/").pop()!;
    return (
      <a className="text-blue-800 underline" href={`#schema-${name}`}>
        {name}
      </a>
    );
  }
  if (Array.isArray(schema.allOf))
    return (
      <a className="text-blue-800 underline" href="#schema-Error">
        Error
      </a>
    );
  return <code>{describeType(schema)}</code>;
}

function Table({ head, rows }: { head: string[]; rows: React.ReactNode[][] }) {
  return (
    <div className="mt-3 overflow-x-auto">
      <table className="w-full border-collapse text-left text-sm">
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="border-b border-slate-300 px-2 py-1 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((cells, i) => (
            <tr key={i} className="align-top odd:bg-white even:bg-slate-50">
              {cells.map((c, j) => (
                <td key={j} className="border-b border-slate-200 px-2 py-1">
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Operation({ method, path, op }: Entry) {
  const parameters = (op.parameters ?? []).map(resolveParameter);
  const body = op.requestBody?.content["application/json"];
  const scope = op["x-scope"] as string | undefined;
  return (
    <section id={op.operationId} aria-labelledby={`${op.operationId}-title`} className="mt-8 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h3 id={`${op.operationId}-title`} className="flex flex-wrap items-center gap-2 text-lg font-semibold">
        <span className={`rounded px-2 py-0.5 font-mono text-sm uppercase ${METHOD_STYLE[method] ?? "bg-slate-100"}`}>{method}</span>
        <code className="break-all">{path}</code>
      </h3>
      <p className="mt-1 font-medium">{op.summary}</p>
      <p className="mt-2 text-slate-700">{op.description}</p>
      <ul className="mt-2 flex flex-wrap gap-2 text-xs">
        {scope ? (
          <li className="rounded bg-slate-100 px-2 py-0.5">scope {scope}</li>
        ) : op["x-bearer-link"] ? (
          <li className="rounded bg-slate-100 px-2 py-0.5">no API key: the link&apos;s token in the path is the credential</li>
        ) : (
          <li className="rounded bg-slate-100 px-2 py-0.5">public: no API key</li>
        )}
        {op["x-idempotent"] ? <li className="rounded bg-amber-100 px-2 py-0.5">Idempotency-Key required</li> : null}
        {op["x-ip-allow-list"] ? <li className="rounded bg-rose-100 px-2 py-0.5">source IP must be allow-listed</li> : null}
      </ul>
      {parameters.length > 0 ? (
        <>
          <h4 className="mt-4 font-semibold">Parameters</h4>
          <Table
            head={["name", "in", "type", "required", "notes"]}
            rows={parameters.map((p) => [
              <code key="n">{p.name}</code>,
              p.in,
              <code key="t">{describeType(p.schema)}</code>,
              p.required ? "yes" : "no",
              p.description ?? "",
            ])}
          />
        </>
      ) : null}
      {body ? (
        <>
          <h4 className="mt-4 font-semibold">Request body</h4>
          <p className="mt-1 text-sm">application/json: {schemaLink(body.schema)}</p>
          {body.example ? (
            <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-50">{JSON.stringify(body.example, null, 2)}</pre>
          ) : null}
        </>
      ) : null}
      <h4 className="mt-4 font-semibold">Responses</h4>
      <Table
        head={["status", "body", "meaning"]}
        rows={Object.entries(op.responses).map(([status, r]) => [
          <strong key="s">{status}</strong>,
          schemaLink(r.content?.["application/json"]?.schema),
          <ul key="d" className="space-y-0.5">
            {r.description.split("\n").map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>,
        ])}
      />
    </section>
  );
}

export default function ApiReference() {
  const headers = doc.components.headers;
  return (
    <main className="mx-auto max-w-5xl p-4 sm:p-8">
      <header>
        <h1 className="text-2xl font-semibold">{doc.info.title}</h1>
        <p className="mt-1 text-sm text-slate-600">
          Contract version {doc.info.version}. Machine-readable:{" "}
          <a className="text-blue-800 underline" href="/v1/openapi.json">
            /v1/openapi.json
          </a>{" "}
          (OpenAPI {doc.openapi}).
        </p>
        {doc.info.description.split("\n\n").map((para) => (
          <p key={para} className="mt-3 text-slate-800">
            {para}
          </p>
        ))}
      </header>

      <nav aria-label="Guides" className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="font-semibold">Guides</h2>
        <p className="mt-1 text-sm text-slate-600">Task guides, in the repository beside the code (start with its README):</p>
        <ul className="mt-2 space-y-1 text-sm">
          {GUIDES.map((g) => (
            <li key={g.file}>
              <span className="font-medium">{g.title.replace(/`/g, "")}</span> (<code className="break-all">{g.file}</code>): {g.purpose}
            </li>
          ))}
        </ul>
      </nav>

      <nav aria-label="Endpoints" className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="font-semibold">Endpoints</h2>
        <ul className="mt-2 space-y-1 text-sm">
          {entries.map(({ method, path, op }) => (
            <li key={op.operationId}>
              <a className="text-blue-800 underline" href={`#${op.operationId}`}>
                <span className="font-mono uppercase">{method}</span> <code>{path}</code>
              </a>{" "}
              {op.summary}
            </li>
          ))}
        </ul>
      </nav>

      {doc.tags.map((tag) => (
        <section key={tag.name} aria-labelledby={`tag-${tag.name}`} className="mt-10">
          <h2 id={`tag-${tag.name}`} className="text-xl font-semibold">
            {tag.name}
          </h2>
          <p className="text-slate-600">{tag.description}</p>
          {entries
            .filter((e) => e.op.tags.includes(tag.name))
            .map((e) => (
              <Operation key={e.op.operationId} {...e} />
            ))}
        </section>
      ))}

      <section aria-labelledby="callbacks" className="mt-10">
        <h2 id="callbacks" className="text-xl font-semibold">
          Callbacks
        </h2>
        <p className="mt-2 text-slate-800">
          The service POSTs a signed JSON event (
          <a className="text-blue-800 underline" href="#schema-EventEnvelope">
            EventEnvelope
          </a>
          : id, type, createdAt, and the Payment without customer as data) to the merchant&apos;s callback address. The document lists them under{" "}
          <code>webhooks</code>.
        </p>
        <Table
          head={["event type", "sent when", "headers"]}
          rows={Object.entries(doc.webhooks).map(([type, w]) => [
            <code key="t">{type}</code>,
            w.post.summary.replace(/^[^:]+: sent when /, ""),
            <ul key="h">
              {(w.post.parameters as ParameterObject[]).map((p) => (
                <li key={p.name}>
                  <code>{p.name}</code>: {p.description}
                </li>
              ))}
            </ul>,
          ])}
        />
        <h3 className="mt-4 font-semibold">Signing rule</h3>
        <p className="mt-1 text-slate-800">{CALLBACK_RULES.signing}</p>
        <h3 className="mt-4 font-semibold">Receiver rules</h3>
        <ol className="mt-1 list-decimal space-y-1 pl-6 text-slate-800">
          {CALLBACK_RULES.receiver.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ol>
        <h3 className="mt-4 font-semibold">Delivery</h3>
        <p className="mt-1 text-slate-800">{CALLBACK_RULES.delivery}</p>
      </section>

      <section aria-labelledby="headers" className="mt-10">
        <h2 id="headers" className="text-xl font-semibold">
          Headers
        </h2>
        <Table
          head={["header", "direction", "meaning"]}
          rows={[
            [<code key="a">Authorization</code>, "request", "Bearer <API_KEY> (server-side sandbox key)"],
            [<code key="i">Idempotency-Key</code>, "request", doc.components.parameters["Idempotency-Key"]?.description ?? ""],
            ...Object.entries(headers).map(([name, h]) => [<code key={name}>{name}</code>, "response", h.description]),
          ]}
        />
      </section>

      <section aria-labelledby="errors" className="mt-10">
        <h2 id="errors" className="text-xl font-semibold">
          Error codes
        </h2>
        <p className="text-slate-600">Every error answers {'{ "error": { "code", "message", "requestId" } }'}.</p>
        <Table head={["status", "code", "meaning"]} rows={doc["x-error-codes"].map((e) => [e.status, <code key="c">{e.code}</code>, e.meaning])} />
      </section>

      <section aria-labelledby="schemas" className="mt-10">
        <h2 id="schemas" className="text-xl font-semibold">
          Schemas
        </h2>
        {Object.entries(doc.components.schemas).map(([name, schema]) => (
          <section key={name} id={`schema-${name}`} className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
            <h3 className="font-mono text-lg font-semibold">{name}</h3>
            {typeof schema.description === "string" ? <p className="mt-1 text-slate-700">{schema.description}</p> : null}
            {schema.properties ? (
              <Table
                head={["member", "type", "required", "notes"]}
                rows={memberRows(schema).map((m) => [
                  <code key="n">{m.name}</code>,
                  <code key="t" className="break-all">
                    {m.type}
                  </code>,
                  m.required ? "yes" : "no",
                  m.description,
                ])}
              />
            ) : (
              <p className="mt-2 text-sm">
                <code className="break-all">{describeType(schema)}</code>
              </p>
            )}
            {schema.additionalProperties === false ? <p className="mt-2 text-xs text-slate-500">No other members are allowed.</p> : null}
          </section>
        ))}
      </section>
    </main>
  );
}
