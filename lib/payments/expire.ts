import { getDb, IdRow, parseRows, Prisma, withTransaction, type Db, type Tx } from "@/lib/db";
import { sandboxNow, systemNow } from "@/lib/clock";
import { merchantFilter, movedClocks } from "@/lib/merchants/clock-offsets";
import { applyTransition } from "@/lib/payments/transitions";
import type { PaymentRow } from "@/lib/payments/serialize";

/**
 * Expires one locked PENDING or PENDING_APPROVAL payment in the caller's transaction: the "expire" transition of
 * the one table (EXPIRED, finalizedAt, limit release, payment.expired event), and its store checkout with it
 * (docs/api.md "Store checkout": a QUEUED or READY checkout becomes EXPIRED; one in a final state is left alone).
 * The expiry sweep, the sandbox clock and `POST /v1/sandbox/payments/{id}/expire` all use it (docs/api.md
 * "Payment states").
 * @returns the updated payment row
 * @throws ApiError 409 INVALID_STATE when the payment is in neither state.
 */
export async function expireLockedPayment(tx: Tx, payment: PaymentRow, now: Date): Promise<PaymentRow> {
  const expired = await applyTransition(tx, payment, "expire", { now });
  if (!expired.storeCheckout) return expired;
  await expireStoreCheckout(tx, payment.id, now);
  // The row returned shows the checkout as it is now.
  return tx.payment.findUniqueOrThrow({ where: { id: payment.id }, include: { storeCheckout: true } });
}

/**
 * In the caller's transaction, a QUEUED or READY store checkout of the payment becomes EXPIRED (its page then shows
 * the expired notice and can no longer pay); a checkout in a final state, or no checkout, changes nothing.
 */
export async function expireStoreCheckout(tx: Tx, paymentId: string, now: Date): Promise<void> {
  await tx.storeCheckout.updateMany({
    where: { paymentId, state: { in: ["QUEUED", "READY"] } },
    data: { state: "EXPIRED", nextHandoffAt: null, updatedAt: now },
  });
}

/**
 * Job body of the expiry sweep (docs/api.md "Payment states": every 30 seconds): turns PENDING and
 * PENDING_APPROVAL payments whose expiresAt has passed into EXPIRED with a payment.expired event. Claims
 * rows with FOR UPDATE SKIP LOCKED, so several processes may run it at once. Records with a null expiresAt
 * are never expired. A merchant whose sandbox clock is moved (docs/api.md "Sandbox clock") is swept first at its
 * own sandbox time, and its payments expired so keep the offset.
 * @param opts.now the real time (default the clock); opts.merchantId sweeps one merchant only.
 * @returns the number of payments expired
 */
export async function expireDuePayments(opts: { now?: Date; batchSize?: number; merchantId?: string } = {}): Promise<number> {
  const now = opts.now ?? systemNow();
  let total = 0;
  for (const clock of await movedClocks(getDb())) {
    if (opts.merchantId && opts.merchantId !== clock.merchantId) continue;
    total += await sweep(getDb(), sandboxNow(clock.offsetMs, now), opts.batchSize ?? 100, clock.merchantId, clock.offsetMs);
  }
  return total + (await sweep(getDb(), now, opts.batchSize ?? 100, opts.merchantId, null));
}

/**
 * Expires one merchant's due payments at its sandbox time `at`, in the caller's transaction (the sandbox clock's
 * move, docs/api.md "Sandbox clock"): the sweep's own code, and each payment keeps the clock's `offsetMs`.
 * @returns the number of payments expired
 */
export function expireMerchantPayments(tx: Tx, input: { merchantId: string; at: Date; offsetMs: bigint }): Promise<number> {
  return sweep(tx, input.at, 100, input.merchantId, input.offsetMs === 0n ? null : input.offsetMs);
}

async function sweep(db: Db, now: Date, batchSize: number, merchantId: string | undefined, offsetMs: bigint | null): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await withTransaction(db, async (tx) => {
      const due = parseRows(
        IdRow,
        await tx.$queryRaw<Record<string, unknown>[]>`
        SELECT id FROM payments
        WHERE status IN ('PENDING', 'PENDING_APPROVAL') AND expires_at IS NOT NULL AND expires_at <= ${now} ${merchantFilter(Prisma.sql`merchant_id`, merchantId)}
        ORDER BY expires_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`,
      );
      for (const { id } of due) {
        const payment = await tx.payment.findUniqueOrThrow({ where: { id }, include: { storeCheckout: true } });
        if (offsetMs !== null) await tx.payment.update({ where: { id }, data: { clockOffsetMs: offsetMs } });
        await expireLockedPayment(tx, payment, now);
      }
      return due.length;
    });
    total += count;
    if (count < batchSize) return total;
  }
}
