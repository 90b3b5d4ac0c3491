import { transaction, type Tx } from "@/lib/db";
import { applyTransition } from "@/lib/payments/transitions";
import type { PaymentRow } from "@/lib/payments/serialize";

export type ExpiryHook = (tx: import("@/lib/db").Tx, paymentId: string, now: Date) => Promise<void>;
const hooks: ExpiryHook[] = [];

/** Registers work done in the same transaction when a payment expires (store checkouts follow it). */
export function onPaymentExpired(hook: ExpiryHook): void {
  if (!hooks.includes(hook)) hooks.push(hook);
}

/**
 * Expires one locked PENDING or PENDING_APPROVAL payment in the caller's transaction: the "expire" transition of
 * the one table (EXPIRED, finalizedAt, limit release, payment.expired event), then the registered expiry work
 * (a store checkout becomes EXPIRED). The expiry sweep and `POST /v1/sandbox/payments/{id}/expire` both use it
 * (docs/api.md "Payment states").
 * @returns the updated payment row
 * @throws ApiError 409 INVALID_STATE when the payment is in neither state.
 */
export async function expireLockedPayment(tx: Tx, payment: PaymentRow, now: Date): Promise<PaymentRow> {
  const expired = await applyTransition(tx, payment, "expire", { now });
  for (const hook of hooks) await hook(tx, payment.id, now);
  // The hooks change the store checkout: the row returned shows it as it is now.
  return expired.storeCheckout ? tx.payment.findUniqueOrThrow({ where: { id: payment.id }, include: { storeCheckout: true } }) : expired;
}

/**
 * Job body of the expiry sweep (docs/api.md "Payment states": every 30 seconds): turns PENDING and
 * PENDING_APPROVAL payments whose expiresAt has passed into EXPIRED with a payment.expired event. Claims
 * rows with FOR UPDATE SKIP LOCKED, so several processes may run it at once. Records with a null expiresAt
 * are never expired.
 * @returns the number of payments expired
 */
export async function expireDuePayments(opts: { now?: Date; batchSize?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const batchSize = opts.batchSize ?? 100;
  let total = 0;
  for (;;) {
    const count = await transaction(async (tx) => {
      const due = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM payments
        WHERE status IN ('PENDING', 'PENDING_APPROVAL') AND expires_at IS NOT NULL AND expires_at <= ${now}
        ORDER BY expires_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`;
      for (const { id } of due) {
        const payment = await tx.payment.findUniqueOrThrow({ where: { id }, include: { storeCheckout: true } });
        await expireLockedPayment(tx, payment, now);
      }
      return due.length;
    });
    total += count;
    if (count < batchSize) return total;
  }
}
