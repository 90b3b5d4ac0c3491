import Link from "next/link";
import { Badge, Card, EmptyState, FilterButtons, MerchantFilter, PageHeader, Pager, type Tone } from "@/components/console/ui";
import { requireActor } from "@/lib/application/console/session";
import { pageParam, param } from "@/lib/application/console/format";
import { ConsoleTime } from "@/components/console/time";
import { getDb } from "@/lib/platform/db";
import { merchantOptions } from "@/lib/domain/merchants/manage-merchants";
import { consoleRequestPage } from "@/lib/application/request-log/read";
import { isUuid } from "@/lib/contract/schemas/api/common";
import { ListRequestsQuery } from "@/lib/contract/schemas/api/requests";

export const dynamic = "force-dynamic";

const input = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";

/** A filter's value when the API would accept it, else undefined (the form shows what was typed). */
function valid<K extends keyof typeof ListRequestsQuery.shape>(key: K, value: string | undefined): string | undefined {
  if (!value) return undefined;
  return ListRequestsQuery.shape[key].safeParse(value).success ? value : undefined;
}

const statusTone = (status: number): Tone => (status >= 500 ? "red" : status >= 400 ? "amber" : "green");

/** Where a logged request's record lives in the console, when it has a page. */
function resourceLink(resource: { type: string; id: string } | null) {
  if (!resource) return null;
  if (resource.type === "payment")
    return (
      <Link className="text-indigo-700 hover:underline" href={`/console/payments/${resource.id}`}>
        payment {resource.id.slice(0, 8)}
      </Link>
    );
  return (
    <span className="text-slate-500">
      {resource.type.replace("_", " ")} {resource.id.slice(0, 8)}
    </span>
  );
}

/** A body as the log keeps it (redacted, cut at 8 KiB), indented when it is JSON. */
function Body({ label, text }: { label: string; text: string | null }) {
  let shown = text ?? "(none)";
  try {
    if (text) shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // cut or not JSON: as kept
  }
  return (
    <div>
      <p className="text-xs font-medium text-slate-500">{label}</p>
      <pre role="region" aria-label={label} tabIndex={0} className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 font-mono text-xs text-slate-800">
        {shown}
      </pre>
    </div>
  );
}

export default async function RequestsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requireActor();
  const sp = await searchParams;
  const typed = {
    requestId: param(sp.requestId)?.trim(),
    status: param(sp.status),
    path: param(sp.path)?.trim(),
    keyPrefix: param(sp.keyPrefix)?.trim(),
    errorCode: param(sp.errorCode)?.trim(),
    idempotencyKey: param(sp.idempotencyKey)?.trim(),
    merchant: param(sp.merchant),
  };
  const filters = {
    requestId: typed.requestId && isUuid(typed.requestId) ? typed.requestId.toLowerCase() : undefined,
    status: valid("status", typed.status),
    path: valid("path", typed.path),
    keyPrefix: valid("keyPrefix", typed.keyPrefix),
    errorCode: valid("errorCode", typed.errorCode),
    idempotencyKey: valid("idempotencyKey", typed.idempotencyKey),
    merchant: typed.merchant && isUuid(typed.merchant) ? typed.merchant : undefined,
  };
  const ignored = (Object.keys(filters) as (keyof typeof filters)[]).filter((k) => typed[k] && !filters[k]);
  const db = getDb();
  const [requests, merchants] = await Promise.all([
    consoleRequestPage(db, actor, { ...filters, page: pageParam(sp.page) }),
    actor.role === "OPERATOR" ? merchantOptions(db) : Promise.resolve([]),
  ]);
  const names = new Map(merchants.map((m) => [m.id, m.name]));
  return (
    <>
      <PageHeader
        title="Requests"
        description="Every API request of the merchant's keys, newest first, with its answer: kept 14 days. Secrets and checkout links in the bodies are redacted. Search by the requestId of an answer (every error carries one)."
      />
      <Card className="mb-4">
        <form method="get" className="grid grid-cols-1 gap-3 sm:grid-cols-4" aria-label="Filter the requests">
          <label className="block text-xs font-medium text-slate-600 sm:col-span-2">
            requestId
            <input name="requestId" defaultValue={typed.requestId} placeholder="6f1c2d3e-..." className={`${input} font-mono`} />
          </label>
          <label className="block text-xs font-medium text-slate-600">
            Status
            <select name="status" defaultValue={typed.status ?? ""} className={input}>
              <option value="">Any</option>
              <option value="2xx">2xx success</option>
              <option value="4xx">4xx refused</option>
              <option value="5xx">5xx failed</option>
            </select>
          </label>
          <label className="block text-xs font-medium text-slate-600">
            Path starts with
            <input name="path" defaultValue={typed.path} placeholder="/v1/payments" className={input} />
          </label>
          <label className="block text-xs font-medium text-slate-600">
            Error code
            <input name="errorCode" defaultValue={typed.errorCode} placeholder="VALIDATION_ERROR" className={input} />
          </label>
          <label className="block text-xs font-medium text-slate-600">
            Idempotency-Key
            <input name="idempotencyKey" defaultValue={typed.idempotencyKey} className={input} />
          </label>
          <label className="block text-xs font-medium text-slate-600">
            API key prefix
            <input name="keyPrefix" defaultValue={typed.keyPrefix} placeholder="sk_sandbox_a1B2c3" className={input} />
          </label>
          {actor.role === "OPERATOR" ? <MerchantFilter merchants={merchants} selected={filters.merchant} /> : null}
          <FilterButtons clearHref="/console/requests" />
        </form>
        {ignored.length > 0 ? (
          <p role="status" className="mt-2 text-sm text-amber-800">
            Not a valid filter, left out: {ignored.join(", ")}.
          </p>
        ) : null}
      </Card>
      <Card>
        {requests.items.length === 0 ? (
          <EmptyState title="No requests match">Requests appear here as your server calls the API with one of your keys.</EmptyState>
        ) : (
          <ol aria-label="Requests" className="divide-y divide-slate-100">
            {requests.items.map((r) => (
              <li key={r.requestId} className="py-2" data-testid="request-row">
                <details open={filters.requestId === r.requestId}>
                  <summary className="flex cursor-pointer flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
                    <span className="w-48 text-slate-500">
                      <ConsoleTime at={r.createdAt} seconds />
                    </span>
                    <span className="font-mono text-xs font-semibold text-slate-800">{r.method}</span>
                    <span className="font-mono text-xs text-slate-800">
                      {r.path}
                      {r.query ? `?${r.query}` : ""}
                    </span>
                    <Badge tone={statusTone(r.status)}>{r.status}</Badge>
                    {r.errorCode ? <code className="text-xs text-red-800">{r.errorCode}</code> : null}
                    <span className="text-xs text-slate-500">{r.latencyMs} ms</span>
                    {r.replayed ? <Badge tone="violet">replayed</Badge> : null}
                    {actor.role === "OPERATOR" ? <span className="text-xs text-slate-500">{names.get(r.merchantId) ?? r.merchantId.slice(0, 8)}</span> : null}
                    <span className="text-xs">{resourceLink(r.resource)}</span>
                  </summary>
                  <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-xs sm:grid-cols-3">
                    <div>
                      <dt className="inline text-slate-500">requestId </dt>
                      <dd className="inline font-mono">{r.requestId}</dd>
                    </div>
                    <div>
                      <dt className="inline text-slate-500">key </dt>
                      <dd className="inline font-mono">{r.keyPrefix}…</dd>
                    </div>
                    <div>
                      <dt className="inline text-slate-500">Idempotency-Key </dt>
                      <dd className="inline font-mono">{r.idempotencyKey ?? "—"}</dd>
                    </div>
                  </dl>
                  <div className="mt-2 grid grid-cols-1 gap-3 lg:grid-cols-2">
                    <Body label="Request body" text={r.requestBody} />
                    <Body label="Response body" text={r.responseBody} />
                  </div>
                </details>
              </li>
            ))}
          </ol>
        )}
        <Pager page={requests.page} pages={requests.pages} total={requests.total} basePath="/console/requests" params={{ ...typed }} />
      </Card>
    </>
  );
}
