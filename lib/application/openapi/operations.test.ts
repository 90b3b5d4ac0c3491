// One source for what an endpoint validates and what GET /v1/openapi.json publishes (lib/application/openapi/operations.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/application/openapi/document";
import { requestSchemas } from "@/lib/application/http/endpoint";
import { OPERATION_LIST, OPERATIONS } from "@/lib/application/openapi/operations";
import { FORBIDDEN_SESSION_MEMBERS, SESSION_REQUIRED_CUSTOMER } from "@/lib/contract/schemas/api/checkout-sessions";
import { present } from "../../../scripts/harness/present";

const root = path.resolve(import.meta.dirname, "../../..");

describe("operations registry", () => {
  it("every route file runs its own operation entry through the pipeline", () => {
    for (const op of OPERATION_LIST) {
      const source = readFileSync(path.join(root, op.route), "utf8");
      expect(source, `${op.route} uses merchantApi(OPERATIONS.${op.operationId}, ...)`).toMatch(
        new RegExp(`merchantApi\\(\\s*OPERATIONS\\.${op.operationId}\\s*,`),
      );
    }
  });

  it("the pipeline validates with the published body unless a validator is declared", () => {
    for (const op of OPERATION_LIST) expect(requestSchemas(op).body, op.operationId).toBe(op.bodyValidator ?? op.body);
    expect(requestSchemas(OPERATIONS.createPayment).body).toBe(OPERATIONS.createPayment.body);
    expect(requestSchemas(OPERATIONS.createStorePayment).body).toBe(OPERATIONS.createStorePayment.body);
  });

  it("publishes idempotent exactly for the entries with an idempotency mode", () => {
    for (const op of OPERATION_LIST) expect(op.idempotent, op.operationId).toBe(op.idempotency !== "none");
    expect(OPERATIONS.createPayment.idempotency).toBe("statement");
    expect(present(openApiDocument().paths["/v1/payments"], 'openApiDocument().paths["/v1/payments"]').post?.["x-idempotent"]).toBe(true);
  });
});

describe("createCheckoutSession: published schema and validator cannot drift", () => {
  const op = OPERATIONS.createCheckoutSession;
  const published = op.body;
  const validator = op.bodyValidator;
  const example = op.example as { reference: string; customer: Record<string, string> };

  it("the document publishes the contract's CreateCheckoutSession: customer required with id, firstName, lastName, email and phone; each forbidden member listed as forbidden", () => {
    const schema = openApiDocument().components.schemas.CreateCheckoutSession as any;
    expect(schema.required).toEqual(["reference", "customer"]);
    expect(schema.additionalProperties).toBe(false);
    expect([...schema.properties.customer.required].sort()).toEqual([...SESSION_REQUIRED_CUSTOMER].sort());
    // The phone pattern, or blank (a blank member is a missing one: CUSTOMER_PROFILE_REQUIRED).
    expect(schema.properties.customer.properties.phone.anyOf.map((s: { pattern?: string }) => s.pattern)).toEqual(["^\\+[1-9][0-9]{7,14}$", "^\\s*$"]);
    for (const [member, reason] of Object.entries(FORBIDDEN_SESSION_MEMBERS)) {
      expect(schema.properties[member], member).toEqual({ not: {}, description: `Forbidden: ${reason}.` });
    }
    // Besides the contract's members, the optional return addresses (docs/api.md "Returning to your site").
    expect(Object.keys(schema.properties).sort()).toEqual(
      ["cancelUrl", "customer", "reference", "returnUrl", ...Object.keys(FORBIDDEN_SESSION_MEMBERS)].sort(),
    );
    expect(schema.required).not.toContain("returnUrl");
  });

  it("the validator differs only in leaving customer members to the domain check (CUSTOMER_PROFILE_REQUIRED)", () => {
    expect(published.safeParse(example).success).toBe(true);
    expect(validator.safeParse(example).success).toBe(true);
    const { customer: _c, ...noCustomer } = example;
    expect(published.safeParse(noCustomer).success).toBe(false);
    expect(validator.safeParse(noCustomer).success).toBe(true);
    for (const member of SESSION_REQUIRED_CUSTOMER) {
      const { [member]: _m, ...rest } = example.customer;
      expect(published.safeParse({ ...example, customer: rest }).success, member).toBe(false);
      expect(validator.safeParse({ ...example, customer: rest }).success, member).toBe(true);
    }
    for (const [member, reason] of Object.entries(FORBIDDEN_SESSION_MEMBERS)) {
      for (const schema of [published, validator]) {
        const result = schema.safeParse({ ...example, [member]: "1" });
        expect(result.error?.issues[0], member).toMatchObject({ path: [member], message: reason });
      }
    }
    for (const schema of [published, validator]) {
      expect(schema.safeParse({ ...example, merchantId: "m" }).error?.issues[0]?.code).toBe("unrecognized_keys");
      expect(schema.safeParse({ ...example, customer: { ...example.customer, phone: "0501234567" } }).success).toBe(false);
    }
  });

  it("whatever the published schema accepts, the validator accepts; a forbidden or unknown member fails both (property)", () => {
    const text = (good: string, ...bad: string[]) => fc.constantFrom(good, ...bad);
    const customer = fc.record(
      {
        id: text("cust-1", "", "x".repeat(121)),
        firstName: text("Omar", ""),
        lastName: text("Nasser"),
        email: text("omar@example.com", "not-an-email"),
        phone: text("+971501234567", "0501234567", "+0123"),
        country: text("AE", "ae"),
        username: text("omar"),
        ip: text("203.0.113.7", "999.1.1.1"),
      },
      { requiredKeys: [] },
    );
    const extra = fc.option(fc.constantFrom(...Object.keys(FORBIDDEN_SESSION_MEMBERS), "merchantId", "metadata"), { nil: undefined });
    const body = fc.record({ reference: text("ref-1", "", "r".repeat(121)), customer: fc.option(customer, { nil: undefined }), extra });
    fc.assert(
      fc.property(body, ({ reference, customer: c, extra: member }) => {
        const candidate: Record<string, unknown> = { reference, ...(c === undefined ? {} : { customer: c }), ...(member ? { [member]: "1" } : {}) };
        const byPublished = published.safeParse(candidate).success;
        const byValidator = validator.safeParse(candidate).success;
        if (byPublished) expect(byValidator).toBe(true);
        if (member) expect([byPublished, byValidator]).toEqual([false, false]);
      }),
      { numRuns: 500, seed: 1506 },
    );
  });
});

describe("every published property is described", () => {
  type Schema = Record<string, unknown>;
  /** Every property of every component schema (nested objects, arrays and unions included), as [path, schema]. */
  function properties(name: string, schema: Schema, into: [string, Schema][] = []): [string, Schema][] {
    for (const [member, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      into.push([`${name}.${member}`, sub]);
      properties(`${name}.${member}`, sub, into);
    }
    for (const key of ["items", "anyOf", "oneOf", "allOf"]) {
      const inner = schema[key];
      if (Array.isArray(inner)) inner.forEach((s) => properties(name, s as Schema, into));
      else if (inner && typeof inner === "object") properties(name, inner as Schema, into);
    }
    return into;
  }
  const all = Object.entries(openApiDocument().components.schemas as Record<string, Schema>).flatMap(([name, s]) => properties(name, s));

  it("has a description on every property of every component schema", () => {
    expect(all.length).toBeGreaterThan(200);
    expect(all.filter(([, s]) => typeof s.description !== "string" || s.description.length === 0).map(([p]) => p)).toEqual([]);
  });

  it("says the unit of every money property: minor units, or decimal text in a named currency", () => {
    const money = all.filter(
      ([p, s]) =>
        !String(s.description).startsWith("Forbidden:") &&
        /\.(amount|fee|reserve|merchantNet|settlementNet|gateway|atBase|markupIncome|bufferIncome|fxIncome|amountMinor|chargeAmount|subtotal|discount)$/.test(
          p,
        ),
    );
    expect(money.length).toBeGreaterThan(15);
    for (const [p, s] of money) expect(String(s.description), p).toMatch(/minor units|decimal text in \w+/i);
  });
});
