import { GUIDES } from "@/app/docs/guides";
import { describe, expect, it } from "vitest";
import { API_ERROR_CODES, ERROR_STATUS } from "@/lib/contract/errors";
import { OPERATION_LIST, OPERATIONS, operationErrors } from "@/lib/application/openapi/operations";
import { FORBIDDEN_SESSION_MEMBERS, SESSION_REQUIRED_CUSTOMER } from "@/lib/contract/schemas/api/checkout-sessions";
import { assertMatchesContract, ContractViolation, contractDocument, validatorAt } from "../support/contract";
import { amountEntryMerchant } from "../support/checkout-sessions";
import { baseUrl, depositBody, newMerchant } from "../support/fixtures";
import { assertPresent, present } from "../../scripts/harness/present";

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe("published contract (/v1/openapi.json, /docs)", () => {
  it("serves the OpenAPI 3.1 document publicly, with every endpoint, the bearer scheme, the headers and every error code", async () => {
    const res = await fetch(`${baseUrl()}/v1/openapi.json`); // no Authorization: public
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const served = await res.json();
    expect(served).toEqual(contractDocument);
    expect(served.openapi).toBe("3.1.0");
    expect(served.info.version).toBe("1.5.0");
    expect(served.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(served.security).toEqual([{ bearerAuth: [] }]);
    expect(served.components.parameters["Idempotency-Key"]).toMatchObject({ in: "header", required: true, schema: { minLength: 8, maxLength: 128 } });
    expect(Object.keys(served.components.headers)).toEqual(expect.arrayContaining(["X-Request-Id", "Idempotency-Replayed", "Retry-After"]));

    for (const op of OPERATION_LIST) {
      const documented = served.paths[op.path]?.[op.method.toLowerCase()];
      expect(documented, `${op.method} ${op.path}`).toBeDefined();
      expect(documented["x-scope"]).toBe(op.scope);
      expect(Object.keys(documented.responses)).toContain(String(op.success.status));
      for (const code of operationErrors(op)) {
        expect(documented.responses[ERROR_STATUS[code]]?.description, `${op.operationId} ${code}`).toContain(code);
      }
      const refs = JSON.stringify(documented.parameters ?? []);
      expect(refs.includes("Idempotency-Key"), `${op.operationId} Idempotency-Key`).toBe(op.idempotent);
      if (op.idempotent) expect(documented.responses[op.success.status].headers).toHaveProperty("Idempotency-Replayed");
      expect(documented.responses[op.success.status].headers).toHaveProperty("X-Request-Id");
      if (documented.responses[429]) expect(documented.responses[429].headers).toHaveProperty("Retry-After");
    }
    // Every code of lib/contract/errors.ts with its status, in the table and in the Error schema's code enum.
    expect(served["x-error-codes"].map((e: { code: string; status: number }) => [e.code, e.status])).toEqual(API_ERROR_CODES.map((c) => [c, ERROR_STATUS[c]]));
    expect(served.components.schemas.ErrorCode.enum).toEqual(API_ERROR_CODES);
    const statuses = new Set(Object.values(served.paths).flatMap((m: any) => Object.values(m).flatMap((o: any) => Object.keys(o.responses))));
    for (const status of new Set(API_ERROR_CODES.map((c) => ERROR_STATUS[c]))) {
      if (status !== 405) expect(statuses, `status ${status}`).toContain(String(status)); // 405 is answered for unserved methods only
    }
  });

  it("every documented schema compiles under JSON Schema 2020-12 and every $ref resolves; each example is valid for its operation", () => {
    for (const name of Object.keys(contractDocument.components.schemas)) expect(() => validatorAt("components", "schemas", name)).not.toThrow();
    for (const op of OPERATION_LIST) {
      const documented = present(contractDocument.paths[op.path], "contractDocument.paths[op.path]")[op.method.toLowerCase()];
      assertPresent(documented, "documented");
      for (const status of Object.keys(documented.responses)) {
        expect(() => validatorAt("paths", op.path, op.method.toLowerCase(), "responses", status, "content", "application/json", "schema")).not.toThrow();
      }
      if (op.body) {
        expect(op.example, `${op.operationId} has an example`).toBeDefined();
        expect(op.body.safeParse(op.example).success, `${op.operationId} example passes zod`).toBe(true);
        const validate = validatorAt("paths", op.path, op.method.toLowerCase(), "requestBody", "content", "application/json", "schema");
        expect(validate(op.example), `${op.operationId} example passes the document: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });

  it("the document's CreateCheckoutSession is the contract's: it rejects every forbidden member and requires customer with id, firstName, lastName, email and phone; the service refuses what it rejects", async () => {
    const op = OPERATIONS.createCheckoutSession;
    const validate = validatorAt("paths", op.path, "post", "requestBody", "content", "application/json", "schema");
    const example = op.example as { reference: string; customer: Record<string, string> };
    const m = await amountEntryMerchant();
    const refusedBy = async (body: Record<string, unknown>) => {
      const res = await m.api(op.path, { body: { ...body, reference: `contract-${crypto.randomUUID()}` } });
      return [res.status, res.body?.error?.code];
    };
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    expect((await refusedBy(example))[0]).toBe(201);

    for (const member of Object.keys(FORBIDDEN_SESSION_MEMBERS)) {
      const body = { ...example, [member]: member === "amount" ? "10.00" : "1" };
      expect(validate(body), `document rejects ${member}`).toBe(false);
      expect(await refusedBy(body), member).toEqual([400, "VALIDATION_ERROR"]);
    }
    const { customer: _customer, ...noCustomer } = example;
    expect(validate(noCustomer), "document requires customer").toBe(false);
    expect(validate.errors?.some((e) => e.keyword === "required" && (e.params as { missingProperty: string }).missingProperty === "customer")).toBe(true);
    expect(await refusedBy(noCustomer)).toEqual([400, "CUSTOMER_PROFILE_REQUIRED"]);
    for (const member of SESSION_REQUIRED_CUSTOMER) {
      const { [member]: _m, ...customer } = example.customer;
      expect(validate({ ...example, customer }), `document requires customer.${member}`).toBe(false);
      expect(await refusedBy({ ...example, customer }), member).toEqual([400, "CUSTOMER_PROFILE_REQUIRED"]);
    }
    const badPhone = { ...example, customer: { ...example.customer, phone: "0501234567" } };
    expect(validate(badPhone)).toBe(false);
    expect(await refusedBy(badPhone)).toEqual([400, "VALIDATION_ERROR"]);
    const unknown = { ...example, merchantId: "m-1" };
    expect(validate(unknown)).toBe(false);
    expect(await refusedBy(unknown)).toEqual([400, "VALIDATION_ERROR"]);
  });

  it("the response check fails on a wrong member type, an extra or missing member, an undocumented status or a bad envelope", async () => {
    const m = await newMerchant();
    const created = await m.api("/v1/payments", { body: depositBody({ customer: { id: "c-1", email: "a@example.com" } }) });
    expect(created.status).toBe(201);
    const list = await m.api("/v1/payments");
    const ok = { method: "POST", path: "/v1/payments", status: 201, headers: created.headers, body: created.body };
    expect(() => assertMatchesContract(ok)).not.toThrow();
    expect(() => assertMatchesContract({ method: "GET", path: "/v1/payments?limit=5", status: 200, headers: list.headers, body: list.body })).not.toThrow();

    const broken: [string, (p: any) => void][] = [
      ["amount as a JSON number", (p) => (p.amount = 100)],
      ["an extra member", (p) => (p.description = "not in the contract's Payment")],
      ["a missing member", (p) => delete p.fee],
      ["an unknown status", (p) => (p.status = "DONE")],
      ["environment other than sandbox", (p) => (p.environment = "live")],
      ["a bps field as a string", (p) => (p.pricing.commissionBps = "250")],
      ["an extra pricing member (internal cost)", (p) => (p.pricing.providerCost = "1.00")],
      ["a malformed timestamp", (p) => (p.createdAt = "yesterday")],
      ["a customer with an unknown member", (p) => (p.customer.cardNumber = "4111111111111111")],
    ];
    for (const [label, mutate] of broken) {
      const body = clone(created.body);
      mutate(body);
      expect(() => assertMatchesContract({ ...ok, body }), label).toThrow(ContractViolation);
      expect(() => assertMatchesContract({ ...ok, body }), label).toThrow(/POST \/v1\/payments -> 201/);
    }
    const item = clone(list.body);
    item.items[0].customer = null; // lists never carry customer
    expect(() => assertMatchesContract({ method: "GET", path: "/v1/payments", status: 200, headers: list.headers, body: item })).toThrow(ContractViolation);
    const total = clone(list.body);
    total.total = "1";
    expect(() => assertMatchesContract({ method: "GET", path: "/v1/payments", status: 200, headers: list.headers, body: total })).toThrow(ContractViolation);

    const missing = await m.api(`/v1/payments/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    const notFound = { method: "GET", path: "/v1/payments/x", status: 404, headers: missing.headers, body: missing.body };
    expect(() => assertMatchesContract(notFound)).not.toThrow();
    expect(() => assertMatchesContract({ ...notFound, status: 409 }), "undocumented status").toThrow(/status 409 is not documented/);
    expect(() => assertMatchesContract({ ...notFound, body: { error: { ...missing.body.error, code: "INVALID_STATE" } } }), "code of another status").toThrow(
      ContractViolation,
    );
    expect(() => assertMatchesContract({ ...notFound, body: { error: { ...missing.body.error, stack: "at x.js:1" } } }), "extra envelope member").toThrow(
      ContractViolation,
    );
    expect(
      () => assertMatchesContract({ ...notFound, body: { error: { ...missing.body.error, requestId: crypto.randomUUID() } } }),
      "requestId mismatch",
    ).toThrow(ContractViolation);
    expect(() => assertMatchesContract({ ...notFound, status: 500, body: "<html>Internal Server Error</html>" }), "non-JSON").toThrow(ContractViolation);
  });

  it("/docs is a readable reference rendered from the same document, with no third-party assets", async () => {
    const res = await fetch(`${baseUrl()}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toMatch(/<h1[^>]*>Sandpiper merchant API<\/h1>/);
    expect(html).toContain('href="/v1/openapi.json"');
    for (const guide of GUIDES) expect(html, guide.file).toContain(guide.file);
    for (const op of OPERATION_LIST) expect(html, op.operationId).toContain(`id="${op.operationId}"`);
    for (const code of API_ERROR_CODES) expect(html, code).toContain(code);
    for (const name of Object.keys(contractDocument.components.schemas)) expect(html, name).toContain(`id="schema-${name}"`);
    const external = [...html.matchAll(/(?:src|href)="(https?:)?\/\/([^"/]+)/g)].map((m) => m[2]);
    expect(external).toEqual([]);
    expect(html).toMatch(/<meta name="viewport" content="width=device-width, initial-scale=1"/);
  });

  it("publishes the callbacks: OpenAPI webhooks for the three event types with the envelope, the three headers and the signing rule; a Callbacks section on /docs", async () => {
    const served = await (await fetch(`${baseUrl()}/v1/openapi.json`)).json();
    expect(Object.keys(served.webhooks).sort()).toEqual(["payment.expired", "payment.failed", "payment.succeeded"]);
    for (const [type, hook] of Object.entries<any>(served.webhooks)) {
      expect(hook.post.parameters.map((p: { name: string; in: string }) => [p.name, p.in])).toEqual([
        ["X-Service-Event-Id", "header"],
        ["X-Service-Timestamp", "header"],
        ["X-Service-Signature", "header"],
      ]);
      expect(hook.post.requestBody.content["application/json"].schema.allOf).toEqual([
        { $ref: "#/components/schemas/EventEnvelope" },
        { type: "object", properties: { type: { const: type } } },
      ]);
      expect(hook.post.description).toMatch(/whole callback secret string, 'whsec_' included, as UTF-8 bytes: it is not base64-decoded/);
      expect(Object.keys(hook.post.responses)).toEqual(["2XX", "default"]);
      expect(() => validatorAt("webhooks", type, "post", "requestBody", "content", "application/json", "schema")).not.toThrow();
    }
    const envelope = validatorAt("components", "schemas", "EventEnvelope");
    const m = await newMerchant();
    const created = await m.api("/v1/payments", { body: depositBody() });
    await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "SUCCEEDED" } });
    const [event] = (await m.api(`/v1/events?paymentId=${created.body.id}`)).body.items;
    const { delivery: _delivery, ...delivered } = event;
    expect(envelope(delivered), JSON.stringify(envelope.errors)).toBe(true);
    const html = await (await fetch(`${baseUrl()}/docs`)).text();
    expect(html).toContain('id="callbacks"');
    for (const type of ["payment.succeeded", "payment.failed", "payment.expired"]) expect(html).toContain(type);
    expect(html).toMatch(/not base64-decoded/);
  });
});
