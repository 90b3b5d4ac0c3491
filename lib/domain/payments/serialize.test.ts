import { describe, expect, it } from "vitest";
import type { StoreCheckout } from "@/lib/platform/generated/prisma/client";
import { serializePayment, serializeStorePayment, type PaymentRow } from "@/lib/domain/payments/serialize";
import { StorePayment } from "@/lib/contract/schemas/api/store-payment-resource";
import { Payment, PaymentSummary } from "@/lib/contract/schemas/api/payment-resource";
import { StoredDataError } from "@/lib/contract/schemas/stored/parse";

// The store endpoints answer a StorePayment (docs/api.md "Store checkout"): a Payment whose checkout and customer are
// always there. serializeStorePayment gives that type to serializePayment's detail answer, member for member.

const at = new Date("2026-11-25T10:00:00.000Z");
const payment: PaymentRow = {
  id: "6f1c2d3e-0000-4000-8000-000000000001",
  merchantId: "6f1c2d3e-0000-4000-8000-000000000002",
  reference: "store-order-1",
  kind: "STORE",
  amountMinor: 25000n,
  feeMinor: 500n,
  currency: "AED",
  method: "GATEWAY",
  direction: "DEPOSIT",
  status: "PENDING",
  pricing: null,
  limitProfileId: null,
  businessDay: "2026-11-25",
  bankAccountId: null,
  description: null,
  customer: { username: "buyer42" },
  createdById: null,
  apiKeyId: null,
  approvedById: null,
  createdAt: at,
  expiresAt: at,
  clockOffsetMs: null,
  recordedAt: null,
  approvedAt: null,
  finalizedAt: null,
  updatedAt: at,
  failureCode: null,
};
const checkout: StoreCheckout = {
  paymentId: payment.id,
  state: "QUEUED",
  chargeMinor: 25000n,
  token: null,
  returnUrl: null,
  cancelUrl: null,
  subtotalMinor: null,
  discountMinor: null,
  matchType: null,
  lines: null,
  error: null,
  expiresAt: at,
  handoffAttempts: 0,
  nextHandoffAt: at,
  createdAt: at,
  updatedAt: at,
};

describe("serializeStorePayment", () => {
  it("is serializePayment's detail answer, members in the same order, and the StorePayment schema accepts it", () => {
    const row = { ...payment, storeCheckout: checkout };
    const answer = serializeStorePayment(row);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(serializePayment(row, { detail: true })));
    expect(StorePayment.safeParse(answer).success).toBe(true);
  });

  it("refuses a payment without its store checkout, which the StorePayment schema refuses too", () => {
    for (const storeCheckout of [null, undefined]) {
      const row = { ...payment, storeCheckout };
      expect(() => serializeStorePayment(row)).toThrow(`payment ${payment.id} has no store checkout`);
      expect(StorePayment.safeParse(serializePayment(row, { detail: true })).success).toBe(false);
    }
  });
});

describe('serializePayment: failure (docs/api.md "Failure codes")', () => {
  const standard: PaymentRow = { ...payment, kind: "STANDARD", status: "FAILED", finalizedAt: at, storeCheckout: null };

  it("shows {code, message} from the table on detail and list shapes alike, and nothing without a code", () => {
    const failed = { ...standard, failureCode: "insufficient_funds" };
    const expected = { code: "insufficient_funds", message: "The customer's account does not hold enough funds for this amount." };
    expect(serializePayment(failed, { detail: true }).failure).toEqual(expected);
    expect(serializePayment(failed, { detail: false }).failure).toEqual(expected);
    expect(Payment.safeParse(serializePayment(failed, { detail: true })).success).toBe(true);
    expect(PaymentSummary.safeParse(serializePayment(failed, { detail: false })).success).toBe(true);
    for (const detail of [true, false]) expect(serializePayment(standard, { detail })).not.toHaveProperty("failure");
  });

  it("refuses a stored code that is not in the table", () => {
    expect(() => serializePayment({ ...standard, failureCode: "card_stolen" }, { detail: false })).toThrow(StoredDataError);
  });
});
