import { z } from "zod";
import { sandboxNow, type RealInstant } from "@/lib/platform/clock";
import { parseRows, type Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { applyTransition, lockPayment } from "@/lib/domain/payments/transitions";
import type { PaymentRow } from "@/lib/domain/payments/serialize";
import { scheduleAfterApproval } from "@/lib/domain/scenarios/match";

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

/** The payment's merchant's sandbox clock offset (int8 ms, as BigInt). */
const MerchantOffsetRow = z.object({ offset: z.bigint() });

/**
 * Approves a withdrawal: PENDING_APPROVAL -> PENDING with approvedAt (docs/api.md "Payment states"); a scenario
 * rule's pending conclusion becomes due its delay after the approval (docs/api.md "Scenario rules"). The approval
 * happens at the payment's merchant's sandbox time (docs/api.md "Sandbox clock"): `input.now` is the real time (the
 * console's), moved by the merchant's clock offset, so approvedAt, the approval deadline and a rule's delay are on
 * the same clock as the withdrawal's createdAt and expiresAt.
 * @throws ApiError 404 NOT_FOUND (not visible to the approver), 409 INVALID_STATE with the refusal reason.
 * @throws ZodError when the merchant's row read does not match its schema (a schema drift)
 */
export async function approveWithdrawal(tx: Tx, input: { paymentId: string; approver: Approver; now: RealInstant }): Promise<PaymentRow> {
  const scope = input.approver.role === "MERCHANT" ? input.approver.merchantId : null;
  const payment = await lockPayment(tx, scope, input.paymentId);
  const [clock] = parseRows(
    MerchantOffsetRow,
    await tx.$queryRaw<Record<string, unknown>[]>`SELECT clock_offset_ms AS "offset" FROM merchants WHERE id = ${payment.merchantId}::uuid`,
  );
  const now = sandboxNow(clock?.offset ?? 0n, input.now);
  const refusal = approvalRefusal(payment, input.approver, now);
  if (refusal) throw apiError("INVALID_STATE", refusal);
  const approved = await applyTransition(tx, payment, "approve", { now, actorId: input.approver.id });
  await scheduleAfterApproval(tx, payment.id, now);
  return approved;
}
