import type { Payment as PaymentModel, StoreCheckout } from "@/lib/platform/generated/prisma/client";
import { Customer } from "@/lib/contract/schemas/api/common";
import type { Payment } from "@/lib/contract/schemas/api/payment-resource";
import type { StorePayment } from "@/lib/contract/schemas/api/store-payment-resource";
import type { PaymentScenario } from "@/lib/contract/schemas/api/scenario-rules";
import { formatOffset } from "@/lib/platform/clock";
import { fromMinor } from "@/lib/contract/money/currency";
import { storedSnapshot } from "@/lib/domain/pricing/snapshot";
import { parseStored } from "@/lib/contract/schemas/stored/parse";
import { serializeCheckout } from "@/lib/domain/payments/checkout-object";
import { FailureCode, paymentFailure } from "@/lib/contract/schemas/api/failure-codes";

/** docs/api.md "Payments": the type of the contract's zod schema (lib/contract/schemas/api/payment-resource.ts). */
export type PaymentResource = Payment;

/**
 * docs/api.md "Store checkout": a Payment whose `checkout` and `customer` are always present (its zod schema:
 * lib/contract/schemas/api/store-payment-resource.ts).
 */
export type StorePaymentResource = StorePayment;

/** A payments row, with its store checkout and (detail reads) the scenario rule that matched it at creation. */
export type PaymentRow = PaymentModel & { storeCheckout?: StoreCheckout | null; scenario?: PaymentScenario | null };

/**
 * Shapes a payment row as the contract's Payment. `detail` (single read and creation responses) adds
 * `checkout` for store payments, `customer`, and `scenario` when a scenario rule matched the payment (absent
 * otherwise, so a payment without one serialises as before); lists and callback payloads never carry them. `failure`
 * (docs/api.md "Failure codes") is on every shape, detail or not, of a payment with a failure code, and absent
 * otherwise: the one place an answer, a list item and an event's `data` get it. The stored JSON columns (pricing,
 * customer) are parsed by their schemas.
 * @throws StoredDataError (lib/contract/schemas/stored/parse.ts) when a stored snapshot, customer or failure code does not match its schema
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
  if (row.failureCode !== null) resource.failure = paymentFailure(parseStored(FailureCode, row.failureCode, "payments.failure_code"));
  if (row.clockOffsetMs !== null) resource.sandboxClock = { offsetMs: Number(row.clockOffsetMs), offset: formatOffset(row.clockOffsetMs) };
  if (opts.detail) {
    if (row.storeCheckout) resource.checkout = serializeCheckout(row.storeCheckout);
    resource.customer = parseStored(Customer.nullable(), row.customer, "payments.customer");
    if (row.scenario) resource.scenario = row.scenario;
  }
  return resource;
}

/**
 * Shapes a store payment as the contract's StorePayment (the answers of `POST /v1/store-payments` and the store's test
 * confirmation): {@link serializePayment} with detail, whose `checkout` and `customer` a store payment always has.
 * @throws Error when the row has no store checkout (written in the same transaction as a store payment: an internal
 *   error, never a payment answered without its checkout), and as serializePayment
 */
export function serializeStorePayment(row: PaymentRow): StorePaymentResource {
  const resource = serializePayment(row, { detail: true });
  const { checkout, customer } = resource;
  if (checkout === undefined || customer === undefined) throw new Error(`payment ${row.id} has no store checkout`);
  // The members keep serializePayment's order: the spread places them, the narrowed values replace theirs.
  return { ...resource, checkout, customer };
}
