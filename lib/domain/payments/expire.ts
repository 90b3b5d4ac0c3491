import { getDb, withTransaction, type Tx } from "@/lib/platform/db";
import { applyLimitReleases, LimitReleases } from "@/lib/domain/pricing/limits";
import { sandboxNow, systemNow, type RealInstant, type SandboxInstant } from "@/lib/platform/clock";
import { yieldToRequests } from "@/lib/platform/background";
import { movedClocks } from "@/lib/domain/merchants/clock-offsets";
import { applyTransitionToMany, claimAndExpireDue } from "@/lib/domain/payments/transitions";
import type { PaymentRow } from "@/lib/domain/payments/serialize";

/**
 * Expires one locked PENDING or PENDING_APPROVAL payment in the caller's transaction: {@link expireLockedPayments}
 * with one payment. `POST /v1/sandbox/payments/{id}/expire` uses it (docs/api.md "Payment states").
 * @returns the updated payment row
 * @throws ApiError 409 INVALID_STATE when the payment is in neither state.
 */
export async function expireLockedPayment(tx: Tx, payment: PaymentRow, now: Date): Promise<PaymentRow> {
  const [expired] = await expireLockedPayments(tx, [payment], now);
  if (!expired) throw new Error(`expiring payment ${payment.id} gave no payment back`);
  return expired;
}

/**
 * Expires locked PENDING or PENDING_APPROVAL payments in the caller's transaction: the "expire" transition of the one
 * table for all of them at once (EXPIRED, finalizedAt, limit release, a payment.expired event each), and their store
 * checkouts with them (docs/api.md "Store checkout": a QUEUED or READY checkout becomes EXPIRED; one in a final state
 * is left alone). The expiry sweep, the sandbox clock and the expire test helper all use it (docs/api.md "Payment
 * states"). With `releases` the limit releases are gathered for the caller's batch (lib/domain/pricing/limits.ts).
 * @returns the updated payment rows, in the order given
 * @throws ApiError 409 INVALID_STATE when a payment is in neither state.
 */
export async function expireLockedPayments(tx: Tx, payments: readonly PaymentRow[], now: Date, releases?: LimitReleases): Promise<PaymentRow[]> {
  const expired = await applyTransitionToMany(tx, payments, "expire", { now, releases });
  const withCheckout = expired.filter((p) => p.storeCheckout).map((p) => p.id);
  if (withCheckout.length === 0) return expired;
  await expireStoreCheckouts(tx, withCheckout, now);
  // The rows returned show the checkouts as they are now.
  const rows = new Map((await tx.payment.findMany({ where: { id: { in: withCheckout } }, include: { storeCheckout: true } })).map((r) => [r.id, r]));
  return expired.map((p) => rows.get(p.id) ?? p);
}

/**
 * In the caller's transaction, a QUEUED or READY store checkout of each payment becomes EXPIRED (its page then shows
 * the expired notice and can no longer pay); a checkout in a final state, or no checkout, changes nothing.
 */
export async function expireStoreCheckouts(tx: Tx, paymentIds: readonly string[], now: Date): Promise<void> {
  await tx.storeCheckout.updateMany({
    where: { paymentId: { in: [...paymentIds] }, state: { in: ["QUEUED", "READY"] } },
    data: { state: "EXPIRED", nextHandoffAt: null, updatedAt: now },
  });
}

/** Payments one batch of the expiry sweep expires, in one short transaction of its own (docs/decisions/0194-background-work-in-one-share-and-short-turns.md). */
export const EXPIRY_BATCH_SIZE = 1000;

/** The id of the job that runs the sweep below (lib/application/jobs/registry.ts): a sandbox clock move wakes it. */
export const EXPIRE_PAYMENTS_JOB_ID = "expire-due-payments";

/**
 * Job body of the expiry sweep (docs/api.md "Payment states": every 30 seconds): turns PENDING and
 * PENDING_APPROVAL payments whose expiresAt has passed into EXPIRED with a payment.expired event. Works in batches
 * of `batchSize` (default {@link EXPIRY_BATCH_SIZE}), each its own short transaction that claims its rows with
 * FOR UPDATE SKIP LOCKED (several processes may run it at once) and gives the amounts back to the limit counters
 * at its end (so a create waits on them for one statement, not a batch); a crash loses at most the open batch,
 * which the next run takes again (each payment expires once: the transition only leaves an unexpired state).
 * Records with a null expiresAt are never expired. A merchant whose sandbox clock is moved (docs/api.md "Sandbox
 * clock") is swept first at its own sandbox time, and its payments expired so keep the offset.
 * @param opts.now the real time (default the clock); opts.merchantId sweeps one merchant only.
 * @returns the number of payments expired
 */
export async function expireDuePayments(opts: { now?: RealInstant; batchSize?: number; merchantId?: string } = {}): Promise<number> {
  const now = opts.now ?? systemNow();
  const batchSize = opts.batchSize ?? EXPIRY_BATCH_SIZE;
  let total = 0;
  for (const clock of await movedClocks(getDb())) {
    if (opts.merchantId && opts.merchantId !== clock.merchantId) continue;
    total += await sweep(sandboxNow(clock.offsetMs, now), batchSize, clock.merchantId, clock.offsetMs);
  }
  // Merchants whose clock is not moved: their sandbox time is the real time.
  return total + (await sweep(sandboxNow(0, now), batchSize, opts.merchantId, null));
}

/**
 * Expires at most `limit` of one merchant's due payments at its sandbox time `at`, in the caller's transaction (the
 * sandbox clock's move, docs/api.md "Sandbox clock": what is left is the sweep's): the sweep's own batch, and each
 * payment keeps the clock's `offsetMs`.
 * @returns the number of payments expired
 */
export function expireMerchantPayments(tx: Tx, input: { merchantId: string; at: Date; offsetMs: bigint; limit: number }): Promise<number> {
  return expireBatch(tx, input.at, input.limit, input.merchantId, input.offsetMs === 0n ? null : input.offsetMs);
}

/** Batches of {@link expireBatch}, each in its own transaction, until one comes back short; yields to requests between two. */
async function sweep(now: SandboxInstant, batchSize: number, merchantId: string | undefined, offsetMs: bigint | null): Promise<number> {
  let total = 0;
  for (;;) {
    const started = performance.now();
    const count = await withTransaction(getDb(), (tx) => expireBatch(tx, now, batchSize, merchantId, offsetMs));
    total += count;
    if (count < batchSize) return total;
    await yieldToRequests(started);
  }
}

/**
 * One batch: claims and expires up to `limit` due payments in one statement (FOR UPDATE SKIP LOCKED, oldest expiresAt
 * first, the transition table's "expire": lib/domain/payments/transitions.ts `claimAndExpireDue`), writes their events and
 * deliveries in one statement each, expires their store checkouts, then gives their amounts back to the limit counters
 * in one pass at the end: a few statements whatever the batch's size.
 */
async function expireBatch(tx: Tx, now: Date, limit: number, merchantId: string | undefined, offsetMs: bigint | null): Promise<number> {
  const releases = new LimitReleases();
  const expired = await claimAndExpireDue(tx, { now, limit, merchantId, offsetMs, releases });
  const store = expired.filter((p) => p.kind === "STORE").map((p) => p.id);
  if (store.length > 0) await expireStoreCheckouts(tx, store, now);
  await applyLimitReleases(tx, releases);
  return expired.length;
}
