import { describe, expect, it } from "vitest";
import type { StoreCheckout } from "@/lib/generated/prisma/client";
import { serializePayment, serializeStorePayment, type PaymentRow } from "@/lib/payments/serialize";
import { StorePayment } from "@/lib/schemas/store-payment-resource";

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
  approvedAt: null,
  finalizedAt: null,
  updatedAt: at,
};
const checkout: StoreCheckout = {
  paymentId: payment.id,
  state: "QUEUED",
  chargeMinor: 25000n,
  token: null,
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
