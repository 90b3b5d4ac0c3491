import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import type { AuthenticatedKey } from "@/lib/domain/keys/api-keys";
import { createPayment, createPaymentLoad, CreatePaymentLoaded } from "@/lib/domain/payments/create";
import type { CreatePayment } from "@/lib/contract/schemas/api/payments";

// docs/architecture.md "Hot paths": POST /v1/payments decides on the columns it read with the key. They are named once
// (CreatePaymentLoaded's members name the SELECT's columns), and the row is parsed, so a renamed column is an error
// here, never a check that silently reads false.

const body: CreatePayment = { reference: "ref-load", amount: "10.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT", customer: { email: "a@b.co" } };
const apiKey = {
  id: "k",
  scopes: ["payments:write"],
  ownerId: "o",
  merchant: { id: "m", enabledCurrencies: ["USD"], requiredCustomerFields: [], clockOffsetMs: 0n },
} as unknown as AuthenticatedKey;

/** A row as the statement gives it for a payment nothing refuses. */
const row = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  settings: null,
  blocked: false,
  velocityRules: [],
  referenceTaken: false,
  pricingVersion: null,
  rates: {},
  bankAccounts: null,
  scenarioRule: null,
  ...over,
});

const refusal = (loaded: CreatePaymentLoaded) =>
  createPayment({ apiKey, body, now: new Date(), loaded, commit: () => Promise.reject(new Error("not reached")) }).then(
    () => null,
    (error: { code?: string }) => error.code,
  );

describe("POST /v1/payments reads (createPaymentLoad)", () => {
  it("the SELECT names a column after every member of the row schema", () => {
    const text = createPaymentLoad.sql({ body, now: new Date() })!.text;
    for (const column of Object.keys(CreatePaymentLoaded.shape)) expect(text).toContain(`AS "${column}"`);
  });

  it("a row without a member (a renamed column) is refused, naming the member", () => {
    for (const column of ["blocked", "referenceTaken", "scenarioRule"]) {
      const { [column]: _gone, ...renamed } = row();
      expect(() => createPaymentLoad.parse({ ...renamed, [`${column}Renamed`]: true })).toThrow(ZodError);
      expect(() => createPaymentLoad.parse(renamed)).toThrow(new RegExp(column));
    }
  });

  it("the block-list match and a taken reference refuse the payment (RISK_REJECTED, DUPLICATE_REFERENCE)", async () => {
    expect(await refusal(createPaymentLoad.parse(row({ blocked: true })))).toBe("RISK_REJECTED");
    expect(await refusal(createPaymentLoad.parse(row({ referenceTaken: true })))).toBe("DUPLICATE_REFERENCE");
  });
});
