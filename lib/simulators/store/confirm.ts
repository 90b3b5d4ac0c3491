// The store's own test confirmation (docs/api.md "Overview" 7; docs/api.md "Store checkout":
// READY -> SUCCEEDED or FAILED from the store's test confirmation, the payment follows).
import { getDb, withTransaction, type Db, type Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import type { CheckoutState, PaymentStatus } from "@/lib/platform/generated/prisma/client";
import { applyTransition, lockPayment } from "@/lib/domain/payments/transitions";
import type { PaymentRow } from "@/lib/domain/payments/serialize";
import { STORE_TOKEN_PATTERN } from "@/lib/simulators/test-store/connector";

export type StoreConfirmation = "SUCCEEDED" | "FAILED";

const EXPIRED_REFUSAL = "this checkout has expired; ask the merchant for a new payment";
const REFUSALS: Partial<Record<CheckoutState, string>> = {
  SUCCEEDED: "this checkout has already been paid",
  FAILED: "this checkout was declined; ask the merchant for a new payment",
  EXPIRED: EXPIRED_REFUSAL,
};

/**
 * Concludes a READY store checkout from the store page's sandbox test confirmation, in one transaction:
 * the payment row is locked, the checkout moves READY -> `outcome` by a conditional update, and the
 * payment follows with applyTransition ("succeed": ledger entry and payment.succeeded; "fail":
 * payment.failed, limits released). Repeating the outcome the checkout already has returns it unchanged
 * (a double click pays once); any other state, or a payment past expiresAt, is refused. Runs in its own
 * transaction, or the caller's when `db` is one (the test helper {@link confirmStorePaymentAsStore}).
 * @param token the bearer token of the store page (path segment)
 * @returns the checkout state and payment status afterwards
 * @throws ApiError 404 NOT_FOUND (malformed or unknown token), 409 INVALID_STATE (already paid, declined,
 *   expired, or the acceptance period has ended)
 */
export async function confirmStoreCheckout(
  token: string,
  outcome: StoreConfirmation,
  now: Date,
  db: Db = getDb(),
): Promise<{ paymentId: string; state: CheckoutState; status: PaymentStatus }> {
  return withTransaction(db, async (tx) => {
    const found = STORE_TOKEN_PATTERN.test(token) ? await tx.storeCheckout.findUnique({ where: { token }, select: { paymentId: true } }) : null;
    if (!found) throw apiError("NOT_FOUND", "store checkout not found");
    const payment = await lockPayment(tx, null, found.paymentId);
    const checkout = payment.storeCheckout;
    if (!checkout) throw apiError("NOT_FOUND", "store checkout not found");
    if (checkout.state === outcome) return { paymentId: payment.id, state: checkout.state, status: payment.status };
    if (checkout.state !== "READY") throw apiError("INVALID_STATE", REFUSALS[checkout.state] ?? `this checkout is ${checkout.state}`);
    if (payment.status !== "PENDING" || (payment.expiresAt && payment.expiresAt <= now)) throw apiError("INVALID_STATE", EXPIRED_REFUSAL);
    const changed = await tx.storeCheckout.updateMany({ where: { paymentId: payment.id, state: "READY" }, data: { state: outcome, updatedAt: now } });
    if (changed.count !== 1) throw apiError("INVALID_STATE", "this checkout has changed; reload the page");
    const updated = await applyTransition(tx, payment, outcome === "SUCCEEDED" ? "succeed" : "fail", { now });
    return { paymentId: updated.id, state: outcome, status: updated.status };
  });
}

const NOT_READY_EXPIRED = "checkout.state is EXPIRED: the payment's acceptance period ended before a confirmation; create a new store payment";
/** Why the test helper cannot confirm a checkout in this state now, and what to wait for or do instead. */
const NOT_READY: Partial<Record<CheckoutState, string>> = {
  QUEUED:
    "checkout.state is QUEUED: the store has not answered the handoff yet; poll GET /v1/payments/{id} until checkout.state is READY (usually within seconds), then confirm",
  REJECTED: "checkout.state is REJECTED: the store found no basket for this amount and the payment is FAILED; there is nothing to confirm",
  EXPIRED: NOT_READY_EXPIRED,
  SUCCEEDED: "checkout.state is SUCCEEDED: the store already confirmed this checkout as paid; a checkout is confirmed once",
  FAILED: "checkout.state is FAILED: the store already declined this checkout; a checkout is confirmed once",
};

/**
 * Test helper `POST /v1/sandbox/store-payments/{id}/confirm` (docs/api.md "Test helpers"): the store's sandbox test
 * confirmation of one of the merchant's store payments, as the store page's Pay ("SUCCEEDED") and Decline
 * ("FAILED") buttons do, through {@link confirmStoreCheckout} in the caller's transaction (ledger entry and
 * payment.succeeded, or payment.failed). Only a READY checkout can be confirmed; repeating the outcome it
 * already has answers it unchanged, like the page.
 * @returns the payment with its checkout afterwards
 * @throws ApiError 404 NOT_FOUND (unknown or another merchant's payment); 409 INVALID_STATE for a payment that is
 *   not a store payment, or a checkout that is not READY (the message names its state and what to wait for)
 */
export async function confirmStorePaymentAsStore(
  tx: Tx,
  input: { merchantId: string; paymentId: string; outcome: StoreConfirmation; now: Date },
): Promise<PaymentRow> {
  const payment = await lockPayment(tx, input.merchantId, input.paymentId);
  const checkout = payment.storeCheckout;
  if (!checkout) throw apiError("INVALID_STATE", "this payment is not a store payment; conclude it with POST /v1/sandbox/payments/{id}/complete");
  if (checkout.state !== "READY" && checkout.state !== input.outcome) {
    throw apiError("INVALID_STATE", NOT_READY[checkout.state] ?? `checkout.state is ${checkout.state}`);
  }
  if (checkout.state === "READY" && payment.expiresAt && payment.expiresAt <= input.now) throw apiError("INVALID_STATE", NOT_READY_EXPIRED);
  // Without a page token there is nothing the store page could confirm: answered as an unknown token, as before.
  if (checkout.token === null) throw apiError("NOT_FOUND", "store checkout not found");
  await confirmStoreCheckout(checkout.token, input.outcome, input.now, tx);
  return lockPayment(tx, input.merchantId, input.paymentId);
}
