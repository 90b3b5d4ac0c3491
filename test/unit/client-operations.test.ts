import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/application/openapi/document";
import { CUSTOMER_OPERATION_LIST } from "@/lib/application/openapi/customer-operations";
import { merchantDocument } from "../../clients/typescript/scripts/generate.mjs";
import { createClient, OPERATIONS, SandpiperError, type ListPath, type OperationId } from "../../clients/typescript/src/index";
import { present } from "../../scripts/harness/present";

// The TypeScript client against the OpenAPI document itself (docs/client.md "Requests", "Lists"): a method for every
// operationId under the document's paths, sending that operation's method and path; list() over every GET answering
// the page envelope; numbers in the query sent as their text; a non-2xx of PATCH and DELETE thrown as the typed
// error. The client talks real HTTP to a small local server that records each request. The type side is
// test/unit/client-types.test-d.ts.

type Schema = { $ref?: string; properties?: Record<string, unknown> };
// The customer pages' actions (no API key) are not the client's: it is generated from the merchant part.
const doc = merchantDocument(JSON.parse(JSON.stringify(openApiDocument()))) as {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
  components: { schemas: Record<string, Schema> };
};
const resolve = (s: Schema | undefined): Schema | undefined => (s?.$ref ? resolve(doc.components.schemas[s.$ref.split("/").pop()!]) : s);
const documentOperations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, op]) => typeof op?.operationId === "string")
    .map(([method, op]) => ({
      operationId: op.operationId!,
      method: method.toUpperCase(),
      path,
      answer: resolve(op.responses?.["200"]?.content?.["application/json"]?.schema),
    })),
);
const PAGE = ["items", "total", "page", "limit", "pages"];

const seen: { method: string; url: string }[] = [];
let server: http.Server;
let baseUrl = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url! });
    req.resume().on("end", () => {
      if (req.url!.startsWith("/v1/sandbox/scenario-rules/refused")) {
        res.writeHead(400, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { code: "VALIDATION_ERROR", message: "no", requestId: "00000000-0000-4000-8000-000000000001" } }));
      }
      const page = Number(new URL(req.url!, "http://x").searchParams.get("page") ?? "1");
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ items: [{ id: `item-${page}` }], total: 2, page, limit: 1, pages: 2 }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => server.close());

describe("the client and the OpenAPI document", () => {
  it("has a method for every operationId, sending the operation's method and path", async () => {
    expect(documentOperations.length).toBeGreaterThan(20);
    const client = createClient({ baseUrl, apiKey: "sk_sandbox_x", maxAttempts: 1 }) as unknown as Record<string, (init?: unknown) => Promise<unknown>>;
    for (const op of documentOperations) {
      expect(typeof client[op.operationId], `client.${op.operationId}`).toBe("function");
      expect(OPERATIONS[op.operationId as OperationId], op.operationId).toMatchObject({ method: op.method, path: op.path });
      seen.length = 0;
      await present(
        client[op.operationId],
        `client.${op.operationId}`,
      )({
        params: { path: { id: "abc" } },
        ...(op.method === "GET" || op.method === "DELETE" ? {} : { body: {} }),
        parseAs: "text",
      });
      expect(
        seen.map((s) => `${s.method} ${s.url}`),
        op.operationId,
      ).toEqual([`${op.method} ${op.path.replace("{id}", "abc")}`]);
    }
    expect(Object.keys(OPERATIONS).sort()).toEqual(documentOperations.map((o) => o.operationId).sort());
    for (const op of CUSTOMER_OPERATION_LIST) expect(Object.keys(OPERATIONS), op.operationId).not.toContain(op.operationId);
  });

  it("lists every GET that answers the page envelope, page after page; numbers in the query go as text", async () => {
    const paginated = documentOperations.filter((o) => o.method === "GET" && PAGE.every((m) => o.answer?.properties?.[m] !== undefined)).map((o) => o.path);
    expect(paginated).toEqual(expect.arrayContaining(["/v1/payments", "/v1/events", "/v1/requests", "/v1/sandbox/scenario-rules"]));
    expect(
      Object.values(OPERATIONS)
        .filter((o) => o.paginated)
        .map((o) => o.path)
        .sort(),
    ).toEqual([...paginated].sort());
    const client = createClient({ baseUrl, apiKey: "sk_sandbox_x", maxAttempts: 1 });
    for (const path of paginated as ListPath[]) {
      seen.length = 0;
      const items: unknown[] = [];
      for await (const item of client.list(path)) items.push(item);
      const paged = (
        OPERATIONS[documentOperations.find((o) => o.path === path && o.method === "GET")!.operationId as OperationId].numericQuery as readonly string[]
      ).includes("page");
      // A list with page and limit is read page after page; one without (every item on one page) once.
      expect(
        seen.map((s) => s.url),
        path,
      ).toEqual(paged ? [`${path}?limit=100&page=1`, `${path}?limit=100&page=2`] : [path]);
      expect(items).toHaveLength(paged ? 2 : 1);
    }
    seen.length = 0;
    await client.listPayments({ params: { query: { limit: 5, page: 3 } } });
    await client.GET("/v1/requests", { params: { query: { limit: 7 } } });
    expect(seen.map((s) => s.url)).toEqual(["/v1/payments?limit=5&page=3", "/v1/requests?limit=7"]);
  });

  it("throws the typed error for a refused PATCH or DELETE, by name and by path", async () => {
    const client = createClient({ baseUrl, apiKey: "sk_sandbox_x", maxAttempts: 1 });
    const id = "refused";
    for (const call of [
      () => client.updateScenarioRule({ params: { path: { id } }, body: { enabled: false } }),
      () => client.PATCH("/v1/sandbox/scenario-rules/{id}", { params: { path: { id } }, body: { enabled: false } }),
      () => client.deleteScenarioRule({ params: { path: { id } } }),
      () => client.DELETE("/v1/sandbox/scenario-rules/{id}", { params: { path: { id } } }),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandpiperError);
      expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR", requestId: "00000000-0000-4000-8000-000000000001" });
    }
  });
});
