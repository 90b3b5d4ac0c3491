import type { Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { expireLockedPayment } from "@/lib/domain/payments/expire";
import { lockPayment } from "@/lib/domain/payments/transitions";
import type { PaymentRow } from "@/lib/domain/payments/serialize";

/**
 * `POST /v1/sandbox/payments/{id}/expire` (docs/api.md "Test helpers"): expires a PENDING or PENDING_APPROVAL
 * payment now, as the expiry sweep would once its `expiresAt` passed: the same transition (EXPIRED, limits given
 * back, one payment.expired event) and the same expiry work (a QUEUED or READY store checkout becomes EXPIRED).
 * `expiresAt` keeps the deadline the payment was given. An EXPIRED payment is returned as it is (nothing is written
 * twice), as a repeated completion is.
 * @throws ApiError 404 NOT_FOUND (unknown or another merchant's id); 409 INVALID_STATE for a payment that ended
 *   otherwise (SUCCEEDED, FAILED, CANCELLED).
 */
export async function expirePaymentNow(tx: Tx, input: { merchantId: string; paymentId: string; now: Date }): Promise<PaymentRow> {
  const payment = await lockPayment(tx, input.merchantId, input.paymentId);
  if (payment.status === "EXPIRED") return payment;
  if (payment.status !== "PENDING" && payment.status !== "PENDING_APPROVAL") {
    throw apiError("INVALID_STATE", `payment is ${payment.status}; a final payment cannot change its result`);
  }
  return expireLockedPayment(tx, payment, input.now);
}
