import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/contract/errors";
import { assertTransition, effectiveState, isDue, SESSION_TRANSITIONS } from "@/lib/domain/checkout-sessions/transitions";
import { CreateCheckoutSession, CustomerAmount, FORBIDDEN_SESSION_MEMBERS } from "@/lib/contract/schemas/api/checkout-sessions";
import { present } from "../../../scripts/harness/present";

const at = (iso: string) => new Date(iso);
const session = (state: "AWAITING_AMOUNT" | "QUOTED" | "AWAITING_VERIFICATION" | "EXPIRED", expiresAt = "2026-01-01T12:00:00Z") => ({
  state,
  expiresAt: at(expiresAt),
});
const refusal = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    return error instanceof ApiError ? [error.status, error.code, error.message] : ["not an ApiError"];
  }
  return null;
};

describe("checkout-session transition table (docs/api.md 'Checkout sessions')", () => {
  it("is exactly AWAITING_AMOUNT/QUOTED -> QUOTED, QUOTED -> AWAITING_VERIFICATION, any non-expired -> EXPIRED", () => {
    expect(SESSION_TRANSITIONS).toEqual({
      quote: { from: ["AWAITING_AMOUNT", "QUOTED"], to: "QUOTED" },
      confirm: { from: ["QUOTED"], to: "AWAITING_VERIFICATION" },
      expire: { from: ["AWAITING_AMOUNT", "QUOTED", "AWAITING_VERIFICATION"], to: "EXPIRED" },
    });
  });

  it("a session is due from expiresAt on (inclusive) and then reads as EXPIRED", () => {
    const s = session("QUOTED");
    expect(isDue(s, at("2026-01-01T11:59:59.999Z"))).toBe(false);
    expect(effectiveState(s, at("2026-01-01T11:59:59.999Z"))).toBe("QUOTED");
    expect(isDue(s, at("2026-01-01T12:00:00Z"))).toBe(true);
    expect(effectiveState(s, at("2026-01-01T12:00:00Z"))).toBe("EXPIRED");
    expect(isDue(session("EXPIRED"), at("2027-01-01T00:00:00Z"))).toBe(false);
  });

  it("customer actions are judged on the effective state, with messages for the customer", () => {
    const before = at("2026-01-01T11:00:00Z");
    const after = at("2026-01-01T13:00:00Z");
    expect(refusal(() => assertTransition(session("AWAITING_AMOUNT"), "quote", before))).toBeNull();
    expect(refusal(() => assertTransition(session("QUOTED"), "quote", before))).toBeNull();
    expect(refusal(() => assertTransition(session("QUOTED"), "confirm", before))).toBeNull();
    expect(refusal(() => assertTransition(session("AWAITING_AMOUNT"), "confirm", before))).toEqual([
      409,
      "INVALID_STATE",
      "choose an amount and currency first",
    ]);
    expect(refusal(() => assertTransition(session("AWAITING_VERIFICATION"), "quote", before))?.[2]).toContain("already confirmed");
    for (const state of ["AWAITING_AMOUNT", "QUOTED", "AWAITING_VERIFICATION"] as const) {
      expect(refusal(() => assertTransition(session(state), "quote", after))?.[2]).toContain("expired");
      expect(refusal(() => assertTransition(session(state), "confirm", after))?.[2]).toContain("expired");
    }
  });
});

describe("CreateCheckoutSession schema", () => {
  const body = { reference: "r-1", customer: { id: "c", firstName: "A", lastName: "B", email: "a@b.co", phone: "+971501234567" } };

  it("accepts reference and customer; refuses each forbidden member with its reason and any unknown member", () => {
    expect(CreateCheckoutSession.safeParse(body).success).toBe(true);
    for (const [member, reason] of Object.entries(FORBIDDEN_SESSION_MEMBERS)) {
      const result = CreateCheckoutSession.safeParse({ ...body, [member]: "1" });
      expect(result.success, member).toBe(false);
      expect(result.error?.issues[0]).toMatchObject({ path: [member], message: reason });
    }
    expect(FORBIDDEN_SESSION_MEMBERS.amount).toContain("the customer chooses the amount");
    expect(
      present(CreateCheckoutSession.safeParse({ ...body, extra: 1 }).error?.issues[0], "CreateCheckoutSession?.safeParse({ ...body, extra: 1 }).e...").code,
    ).toBe("unrecognized_keys");
  });

  it("customer amount: API amount pattern and a supported currency, nothing else", () => {
    expect(CustomerAmount.safeParse({ amount: "0.5", currency: "AED" }).success).toBe(true);
    expect(CustomerAmount.safeParse({ amount: "12345678901", currency: "AED" }).success).toBe(false);
    expect(CustomerAmount.safeParse({ amount: "1.00", currency: "AED", rate: "1" }).success).toBe(false);
  });
});
