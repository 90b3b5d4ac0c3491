import type { Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { applyTransition, lockPayment } from "@/lib/domain/payments/transitions";
import type { PaymentRow } from "@/lib/domain/payments/serialize";
import type { FailureCode } from "@/lib/contract/schemas/api/failure-codes";

/**
 * `POST /v1/sandbox/payments/{id}/complete` (docs/api.md "Payment states"): concludes a PENDING test payment as
 * SUCCEEDED or FAILED; with FAILED an optional `failureCode` is stored on the payment (docs/api.md "Failure codes";
 * the request schema refuses one with SUCCEEDED). Repeating the outcome a payment already has returns it unchanged
 * (no second ledger entry or event), unless the repeat names another failure code than the payment has.
 * @throws ApiError 404 NOT_FOUND (unknown or another merchant's id); 409 INVALID_STATE for a withdrawal
 *   awaiting approval, an expired or otherwise final payment, a payment past expiresAt, a store checkout, or a FAILED
 *   payment asked to fail again with another failure code.
 */
export async function completePayment(
  tx: Tx,
  input: { merchantId: string; paymentId: string; outcome: "SUCCEEDED" | "FAILED"; failureCode?: FailureCode; now: Date },
): Promise<PaymentRow> {
  const payment = await lockPayment(tx, input.merchantId, input.paymentId);
  if (payment.status === input.outcome) {
    if (input.failureCode !== undefined && input.failureCode !== payment.failureCode) {
      const had = payment.failureCode === null ? "without a failure code" : `with failure code ${payment.failureCode}`;
      throw apiError("INVALID_STATE", `payment already FAILED ${had}; a final payment cannot change its result`);
    }
    return payment;
  }
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
  return applyTransition(tx, payment, input.outcome === "SUCCEEDED" ? "succeed" : "fail", { now: input.now, failureCode: input.failureCode });
}
