import { describe, expect, it } from "vitest";
import { parseOrThrow } from "@/lib/application/http/validation";
import { CreateCheckoutSessionRequest } from "@/lib/contract/schemas/api/checkout-sessions";
import { MISLEADING_TEXT } from "@/lib/contract/schemas/api/common";
import { CreatePayment } from "@/lib/contract/schemas/api/payments";
import { CreateScenarioRule, UpdateScenarioRule } from "@/lib/contract/schemas/api/scenario-rules";
import { CreateStorePayment } from "@/lib/contract/schemas/api/store-payments";

// docs/api.md "Conventions": references, names and descriptions without bidirectional controls or line separators
// (docs/decisions/0206-merchant-text-without-direction-controls.md).

const REFUSED = ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069", "\u2028", "\u2029"];
const payment = { reference: "INV-1", amount: "10.00", currency: "AED", method: "GATEWAY", direction: "DEPOSIT" };
const customer = { id: "c-1", username: "layla.h", firstName: "Layla", lastName: "Haddad", email: "layla@example.com", phone: "+971501234567" };

function refusal(schema: Parameters<typeof parseOrThrow>[0], body: unknown): { code: string; message: string } {
  try {
    parseOrThrow(schema, body, "body");
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error("accepted");
}

describe("merchant free text", () => {
  it("the pattern holds every refused character and nothing next to them", () => {
    for (const c of REFUSED) expect(MISLEADING_TEXT.test(`a${c}b`), c.codePointAt(0)!.toString(16)).toBe(true);
    for (const c of ["\u2027", "\u202F", "\u2065", "\u206A", "\u200E", "\u200F", "\u061C", "ع", "\n"]) {
      expect(MISLEADING_TEXT.test(`a${c}b`), c.codePointAt(0)!.toString(16)).toBe(false);
    }
  });

  it("a reference with U+202E is refused naming reference, on every create", () => {
    const reference = "INV-\u202E0001-DNUFER\u202C-80847";
    for (const [schema, body] of [
      [CreatePayment, { ...payment, reference }],
      [CreateStorePayment, { reference, amount: "10.00", currency: "AED", customer }],
      [CreateCheckoutSessionRequest, { reference, customer }],
    ] as const) {
      const error = refusal(schema, body);
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(error.message).toMatch(/^reference: must not contain bidirectional control characters/);
    }
  });

  it("every character is refused in descriptions, customer names and identifiers, and scenario rule names and prefixes", () => {
    for (const c of REFUSED) {
      expect(refusal(CreatePayment, { ...payment, description: `Order${c}` }).message).toMatch(/^description: must not contain/);
      for (const member of ["id", "username", "firstName", "lastName"] as const) {
        expect(refusal(CreateStorePayment, { reference: "r", amount: "1.00", currency: "AED", customer: { ...customer, [member]: `x${c}y` } }).message).toMatch(
          new RegExp(`^customer\\.${member}: must not contain`),
        );
      }
      expect(refusal(CreateScenarioRule, { name: `rule${c}x`, match: { amount: "1.00" }, outcome: "FAILED" }).message).toMatch(/^name: must not contain/);
      expect(refusal(UpdateScenarioRule, { match: { referencePrefix: `fail${c}` } }).message).toMatch(/^match\.referencePrefix: must not contain/);
    }
  });

  it("Arabic, other scripts and ordinary punctuation stay accepted", () => {
    expect(parseOrThrow(CreatePayment, { ...payment, reference: "فاتورة-٠٠١", description: "Заказ · 注文 — ok" }, "body")).toMatchObject({
      reference: "فاتورة-٠٠١",
    });
    expect(
      parseOrThrow(CreateStorePayment, { reference: "r", amount: "1.00", currency: "AED", customer: { ...customer, firstName: "ليلى" } }, "body"),
    ).toBeTruthy();
  });
});
