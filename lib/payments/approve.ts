import type { Tx } from "@/lib/db";
import { apiError } from "@/lib/errors";
import { applyTransition, lockPayment } from "@/lib/payments/transitions";
import type { PaymentRow } from "@/lib/payments/serialize";
import { scheduleAfterApproval } from "@/lib/scenarios/match";

export type Approver = { id: string; role: "OPERATOR" | "MERCHANT"; merchantId: string | null };

/**
 * Why `approver` may not approve `payment`, or null when it may (docs/api.md "Overview" 2: a console user of the same merchant or an operator, never the creator, the key's owner counting as creator).
 */
export function approvalRefusal(payment: PaymentRow, approver: Approver, now: Date): string | null {
  if (approver.role === "MERCHANT" && approver.merchantId !== payment.merchantId) return "not your merchant's payment";
  if (payment.status !== "PENDING_APPROVAL") return `payment is ${payment.status}, not awaiting approval`;
  if (payment.expiresAt && payment.expiresAt <= now) return "the approval period has ended";
  if (payment.createdById === approver.id) return "you created this withdrawal (its API key is yours); another user must approve it";
  return null;
}

/**
 * Approves a withdrawal: PENDING_APPROVAL -> PENDING with approvedAt (docs/api.md "Payment states"); a scenario
 * rule's pending conclusion becomes due its delay after now (docs/api.md "Scenario rules").
 * @throws ApiError 404 NOT_FOUND (not visible to the approver), 409 INVALID_STATE with the refusal reason.
 */
export async function approveWithdrawal(tx: Tx, input: { paymentId: string; approver: Approver; now: Date }): Promise<PaymentRow> {
  const scope = input.approver.role === "MERCHANT" ? input.approver.merchantId : null;
  const payment = await lockPayment(tx, scope, input.paymentId);
  const refusal = approvalRefusal(payment, input.approver, input.now);
  if (refusal) throw apiError("INVALID_STATE", refusal);
  const approved = await applyTransition(tx, payment, "approve", { now: input.now, actorId: input.approver.id });
  await scheduleAfterApproval(tx, payment.id, input.now);
  return approved;
}
