import type { Tx } from "@/lib/db";
import { apiError } from "@/lib/errors";
import { applyTransition, lockPayment } from "@/lib/payments/transitions";
import type { PaymentRow } from "@/lib/payments/serialize";

/**
 * `POST /v1/sandbox/payments/{id}/complete` (docs/api.md): concludes a PENDING test payment as SUCCEEDED or FAILED.
 * Repeating the outcome a payment already has returns it unchanged (no second ledger entry or event).
 * @throws ApiError 404 NOT_FOUND (unknown or another merchant's id); 409 INVALID_STATE for a withdrawal
 *   awaiting approval, an expired or otherwise final payment, a payment past expiresAt, or a store checkout.
 */
export async function completePayment(
  tx: Tx,
  input: { merchantId: string; paymentId: string; outcome: "SUCCEEDED" | "FAILED"; now: Date },
): Promise<PaymentRow> {
  const payment = await lockPayment(tx, input.merchantId, input.paymentId);
  if (payment.status === input.outcome) return payment;
  if (payment.kind === "STORE") {
    throw apiError("INVALID_STATE", "a store checkout payment is concluded only by the store's own test confirmation");
  }
  if (payment.status === "PENDING_APPROVAL") {
    throw apiError("INVALID_STATE", "the withdrawal must be approved by a console user before it can be completed");
  }
  if (payment.status !== "PENDING") {
    throw apiError("INVALID_STATE", `payment is ${payment.status}; a final payment cannot change its result`);
  }
  if (payment.expiresAt && payment.expiresAt <= input.now) {
    throw apiError("INVALID_STATE", "the payment's acceptance period has ended");
  }
  return applyTransition(tx, payment, input.outcome === "SUCCEEDED" ? "succeed" : "fail", { now: input.now });
}
