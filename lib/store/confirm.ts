// The store's own test confirmation (docs/api.md "Overview" 7; docs/api.md "Store checkout":
// READY -> SUCCEEDED or FAILED from the store's test confirmation, the payment follows).
import { transaction } from "@/lib/db";
import { apiError } from "@/lib/errors";
import type { CheckoutState, PaymentStatus } from "@/lib/generated/prisma/client";
import { applyTransition, lockPayment } from "@/lib/payments/transitions";
import { STORE_TOKEN_PATTERN } from "@/lib/store/sandbox-store";

export type StoreConfirmation = "SUCCEEDED" | "FAILED";

const REFUSALS: Partial<Record<CheckoutState, string>> = {
  SUCCEEDED: "this checkout has already been paid",
  FAILED: "this checkout was declined; ask the merchant for a new payment",
  EXPIRED: "this checkout has expired; ask the merchant for a new payment",
};

/**
 * Concludes a READY store checkout from the store page's sandbox test confirmation, in one transaction:
 * the payment row is locked, the checkout moves READY -> `outcome` by a conditional update, and the
 * payment follows with applyTransition ("succeed": ledger entry and payment.succeeded; "fail":
 * payment.failed, limits released). Repeating the outcome the checkout already has returns it unchanged
 * (a double click pays once); any other state, or a payment past expiresAt, is refused.
 * @param token the bearer token of the store page (path segment)
 * @returns the checkout state and payment status afterwards
 * @throws ApiError 404 NOT_FOUND (malformed or unknown token), 409 INVALID_STATE (already paid, declined,
 *   expired, or the acceptance period has ended)
 */
export async function confirmStoreCheckout(
  token: string,
  outcome: StoreConfirmation,
  now: Date,
): Promise<{ paymentId: string; state: CheckoutState; status: PaymentStatus }> {
  return transaction(async (tx) => {
    const found = STORE_TOKEN_PATTERN.test(token) ? await tx.storeCheckout.findUnique({ where: { token }, select: { paymentId: true } }) : null;
    if (!found) throw apiError("NOT_FOUND", "store checkout not found");
    const payment = await lockPayment(tx, null, found.paymentId);
    const checkout = payment.storeCheckout!;
    if (checkout.state === outcome) return { paymentId: payment.id, state: checkout.state, status: payment.status };
    if (checkout.state !== "READY") throw apiError("INVALID_STATE", REFUSALS[checkout.state] ?? `this checkout is ${checkout.state}`);
    if (payment.status !== "PENDING" || (payment.expiresAt && payment.expiresAt <= now)) throw apiError("INVALID_STATE", REFUSALS.EXPIRED!);
    const changed = await tx.storeCheckout.updateMany({ where: { paymentId: payment.id, state: "READY" }, data: { state: outcome, updatedAt: now } });
    if (changed.count !== 1) throw apiError("INVALID_STATE", "this checkout has changed; reload the page");
    const updated = await applyTransition(tx, payment, outcome === "SUCCEEDED" ? "succeed" : "fail", { now });
    return { paymentId: updated.id, state: outcome, status: updated.status };
  });
}
