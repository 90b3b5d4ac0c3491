import type { Payment as PaymentModel, StoreCheckout } from "@/lib/generated/prisma/client";
import { Customer } from "@/lib/schemas/common";
import type { Payment } from "@/lib/schemas/payment-resource";
import type { PaymentScenario } from "@/lib/schemas/scenario-rules";
import { formatOffset } from "@/lib/clock";
import { fromMinor } from "@/lib/money/currency";
import { storedSnapshot } from "@/lib/pricing/snapshot";
import { parseStored } from "@/lib/schemas/stored";
import { serializeCheckout } from "@/lib/payments/checkout-object";

/** docs/api.md "Payments": the type of the contract's zod schema (lib/schemas/payment-resource.ts). */
export type PaymentResource = Payment;

/** A payments row, with its store checkout and (detail reads) the scenario rule that matched it at creation. */
export type PaymentRow = PaymentModel & { storeCheckout?: StoreCheckout | null; scenario?: PaymentScenario | null };

/**
 * Shapes a payment row as the contract's Payment. `detail` (single read and creation responses) adds
 * `checkout` for store payments, `customer`, and `scenario` when a scenario rule matched the payment (absent
 * otherwise, so a payment without one serialises as before); lists and callback payloads never carry them. The stored
 * JSON columns (pricing, customer) are parsed by their schemas.
 * @throws StoredDataError (lib/schemas/stored.ts) when a stored snapshot or customer does not match its schema
 */
export function serializePayment(row: PaymentRow, opts: { detail: boolean }): PaymentResource {
  const resource: PaymentResource = {
    id: row.id,
    merchantId: row.merchantId,
    reference: row.reference,
    amount: fromMinor(row.amountMinor),
    fee: fromMinor(row.feeMinor),
    currency: row.currency,
    method: row.method,
    direction: row.direction,
    environment: "sandbox",
    status: row.status,
    pricing: storedSnapshot(row.pricing),
    bankAccountId: row.bankAccountId,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    approvedAt: row.approvedAt?.toISOString() ?? null,
    finalizedAt: row.finalizedAt?.toISOString() ?? null,
  };
  if (row.clockOffsetMs !== null) resource.sandboxClock = { offsetMs: Number(row.clockOffsetMs), offset: formatOffset(row.clockOffsetMs) };
  if (opts.detail) {
    if (row.storeCheckout) resource.checkout = serializeCheckout(row.storeCheckout);
    resource.customer = parseStored(Customer.nullable(), row.customer, "payments.customer");
    if (row.scenario) resource.scenario = row.scenario;
  }
  return resource;
}
