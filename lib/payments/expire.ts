import { transaction } from "@/lib/db";
import { applyTransition } from "@/lib/payments/transitions";

export type ExpiryHook = (tx: import("@/lib/db").Tx, paymentId: string, now: Date) => Promise<void>;
const hooks: ExpiryHook[] = [];

/** Registers work done in the same transaction when a payment expires (store checkouts follow it). */
export function onPaymentExpired(hook: ExpiryHook): void {
  if (!hooks.includes(hook)) hooks.push(hook);
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
        await applyTransition(tx, payment, "expire", { now });
        for (const hook of hooks) await hook(tx, id, now);
      }
      return due.length;
    });
    total += count;
    if (count < batchSize) return total;
  }
}
