import { batchQuery, IdRow, parseRow, parseRows, Prisma, type Tx } from "@/lib/platform/db";
import { mapInTurns } from "@/lib/platform/background";
import { apiError } from "@/lib/contract/errors";
import { recordEvents, type EventType } from "@/lib/domain/events/outbox";
import type { PaymentStatus } from "@/lib/platform/generated/prisma/client";
import { postLedgerEntry, settlementPostings } from "@/lib/domain/ledger/post";
import { toMinor } from "@/lib/contract/money/currency";
import { releaseLimits, type LimitReleases } from "@/lib/domain/pricing/limits";
import { storedSnapshot } from "@/lib/domain/pricing/snapshot";
import { isUuid } from "@/lib/contract/schemas/api/common";
import type { FailureCode } from "@/lib/contract/schemas/api/failure-codes";
import { merchantFilter } from "@/lib/domain/merchants/clock-offsets";
import { PaymentRowSchema } from "@/lib/domain/payments/payment-row";
import { serializePayment, type PaymentRow } from "@/lib/domain/payments/serialize";

export type Trigger = "approve" | "succeed" | "fail" | "expire";

type Transition = {
  from: readonly PaymentStatus[];
  to: PaymentStatus;
  /** Outbox event written in the same transaction. */
  event?: EventType;
  /** A balanced ledger entry is written. */
  ledger?: boolean;
  /** The amount goes back to the profile's daily and monthly limits. */
  releaseLimits?: boolean;
  /** The payment becomes final (finalizedAt set). */
  final?: boolean;
};

/**
 * docs/api.md "Payment states": the one transition table. Conditions that depend on
 * the trigger's source (before expiresAt, approver differs from creator, not a store checkout) are checked
 * by the caller before it calls applyTransition.
 */
export const TRANSITIONS: Record<Trigger, Transition> = {
  approve: { from: ["PENDING_APPROVAL"], to: "PENDING" },
  succeed: { from: ["PENDING"], to: "SUCCEEDED", event: "payment.succeeded", ledger: true, final: true },
  fail: { from: ["PENDING"], to: "FAILED", event: "payment.failed", releaseLimits: true, final: true },
  expire: { from: ["PENDING", "PENDING_APPROVAL"], to: "EXPIRED", event: "payment.expired", releaseLimits: true, final: true },
};

export const FINAL_STATUSES: readonly PaymentStatus[] = ["SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"];

/**
 * What a transition is applied with: its time, the approving user (approve), a batch's limit releases, and for `fail`
 * an optional failure code (docs/api.md "Failure codes") stored on the rows with the status, so that the event's
 * `data` shows it.
 */
export type TransitionOptions = { now: Date; actorId?: string; releases?: LimitReleases; failureCode?: FailureCode };

/**
 * Applies one transition in the caller's transaction: {@link applyTransitionToMany} with one payment.
 * @returns the updated payment row
 * @throws ApiError 409 INVALID_STATE when the payment is not in a `from` state (a concurrent change won).
 * @throws StoredDataError (lib/contract/schemas/stored/parse.ts) when the stored snapshot does not match its schema (nothing written)
 */
export async function applyTransition(tx: Tx, payment: PaymentRow, trigger: Trigger, opts: TransitionOptions): Promise<PaymentRow> {
  const [updated] = await applyTransitionToMany(tx, [payment], trigger, opts);
  if (!updated) throw new Error(`the ${trigger} transition of payment ${payment.id} gave no payment back`);
  return updated;
}

/**
 * Applies one transition to payments the caller has locked, in its transaction: the rows change only from an
 * expected state (one conditional UPDATE for all), then each one's ledger entry, outbox event and limit release are
 * written alongside, in that order (docs/architecture.md "Consistency": the limit counters are taken last) (the events in one pass: lib/domain/events/outbox.ts `recordEvents`; an event's `data` is the Payment
 * without `customer` and `checkout` (docs/callbacks.md), so `data.amount` and `data.currency` are the merchant's). The expiry sweep applies it to a
 * batch at once; every other caller to one payment ({@link applyTransition}).
 * The ledger's reserve line is the stored snapshot's `reserve` (docs/api.md "Pricing"), parsed by its schema.
 * With `opts.releases` the limit releases are gathered there for the caller to apply at the end of its batch
 * (lib/domain/pricing/limits.ts `applyLimitReleases`) instead of being written now.
 * @returns the updated payment rows, in the order given
 * @throws ApiError 409 INVALID_STATE when a payment is not in a `from` state (a concurrent change won; nothing of the
 *   caller's transaction should then be committed).
 * @throws StoredDataError (lib/contract/schemas/stored/parse.ts) when a stored snapshot does not match its schema (nothing written)
 */
export async function applyTransitionToMany(tx: Tx, payments: readonly PaymentRow[], trigger: Trigger, opts: TransitionOptions): Promise<PaymentRow[]> {
  const [first] = payments;
  if (!first) return [];
  const t = TRANSITIONS[trigger];
  const ids = payments.map((p) => p.id);
  const changed = await tx.payment.updateMany({
    where: { id: { in: ids }, status: { in: [...t.from] } },
    data: {
      status: t.to,
      updatedAt: opts.now,
      ...(t.final ? { finalizedAt: opts.now } : {}),
      ...(trigger === "approve" ? { approvedAt: opts.now, approvedById: opts.actorId } : {}),
      ...(trigger === "fail" && opts.failureCode ? { failureCode: opts.failureCode } : {}),
    },
  });
  if (changed.count !== ids.length) {
    const stale = payments.find((p) => !t.from.includes(p.status)) ?? first;
    throw apiError("INVALID_STATE", `payment is ${stale.status}; it cannot ${trigger === "approve" ? "be approved" : trigger}`);
  }
  const rows = await tx.payment.findMany({ where: { id: { in: ids } }, include: { storeCheckout: true } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const updated = ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw new Error(`payment ${id} changed by the ${trigger} transition but not read back`);
    return row;
  });
  await recordTransitionEffects(tx, t, updated, opts);
  return updated;
}

/**
 * Claims and applies the "expire" transition in one statement, in the caller's transaction (the expiry sweep's batch,
 * docs/architecture.md "Jobs"): up to `limit` PENDING or PENDING_APPROVAL payments whose `expiresAt` is at or before
 * `now` (sandbox time of their merchant), oldest `expiresAt` first, locked with FOR UPDATE SKIP LOCKED and moved to
 * the table's `to` state from its `from` states only, then each one's event and limit release written as
 * {@link applyTransitionToMany} writes them (the events in three statements, the releases gathered in `opts.releases`
 * when given). `merchantId` narrows it to one merchant; `offsetMs` (a moved sandbox clock) is stored on each row.
 * Their store checkouts are not touched: the caller expires them.
 * @returns the updated payment rows (without their store checkouts), oldest `expiresAt` first
 * @throws StoredDataError (lib/contract/schemas/stored/parse.ts) when a stored snapshot does not match its schema (nothing written)
 */
export async function claimAndExpireDue(
  tx: Tx,
  input: { now: Date; limit: number; merchantId?: string; offsetMs: bigint | null; releases?: LimitReleases },
): Promise<PaymentRow[]> {
  const t = TRANSITIONS.expire;
  const from = Prisma.sql`(${Prisma.join(t.from.map((s) => Prisma.sql`${s}::"PaymentStatus"`))})`;
  const offset = input.offsetMs === null ? Prisma.empty : Prisma.sql`, clock_offset_ms = ${input.offsetMs}::bigint`;
  const claim = Prisma.sql`
    WITH due AS (
      SELECT id FROM payments
      WHERE status IN ${from} AND expires_at IS NOT NULL AND expires_at <= ${input.now} ${merchantFilter(Prisma.sql`merchant_id`, input.merchantId)}
      ORDER BY expires_at LIMIT ${input.limit} FOR UPDATE SKIP LOCKED)
    UPDATE payments p SET status = ${t.to}::"PaymentStatus", updated_at = ${input.now}, finalized_at = ${input.now} ${offset}
    FROM due WHERE p.id = due.id AND p.status IN ${from}
    RETURNING p.*`;
  // A sweep's batch of rows comes back without Prisma (lib/platform/db.ts batchQuery).
  const rows = await batchQuery(tx, input.limit, claim);
  const updated = (await mapInTurns(rows, (row) => parseRow(PaymentRowSchema, row))).sort(
    (a, b) => (a.expiresAt?.getTime() ?? 0) - (b.expiresAt?.getTime() ?? 0),
  );
  await recordTransitionEffects(tx, t, updated, { now: input.now, releases: input.releases });
  return updated;
}

/**
 * What a transition writes beside the rows' new state, in the caller's transaction: each one's ledger entry, outbox
 * event and limit release, in that order (docs/architecture.md "Consistency": the limit counters are taken last).
 */
async function recordTransitionEffects(tx: Tx, t: Transition, updated: readonly PaymentRow[], opts: TransitionOptions): Promise<void> {
  for (const payment of updated) {
    if (t.ledger) {
      const pricing = storedSnapshot(payment.pricing);
      await postLedgerEntry(
        tx,
        payment.id,
        "settlement",
        settlementPostings({
          merchantId: payment.merchantId,
          direction: payment.direction,
          currency: payment.currency,
          amountMinor: payment.amountMinor,
          feeMinor: payment.feeMinor,
          reserveMinor: pricing ? toMinor(pricing.reserve) : 0n,
        }),
      );
    }
  }
  const event = t.event;
  if (event) {
    await recordEvents(
      tx,
      await mapInTurns(updated, (payment) => ({
        merchantId: payment.merchantId,
        paymentId: payment.id,
        type: event,
        data: serializePayment(payment, { detail: false }),
        now: opts.now,
      })),
    );
  }
  // The limit counters come last, after the events (their deliveries' day figures): every transaction that takes both
  // takes them in this order (a batch's releases at its end), so two of them never wait on each other in a circle.
  for (const payment of updated) {
    if (!t.releaseLimits || !payment.limitProfileId) continue;
    if (opts.releases) opts.releases.add(payment.limitProfileId, payment.amountMinor, payment.businessDay);
    else await releaseLimits(tx, payment.limitProfileId, payment.amountMinor, payment.businessDay);
  }
}

/**
 * Locks a merchant's payment row (SELECT ... FOR UPDATE) and returns it with its store checkout.
 * @throws ApiError 404 NOT_FOUND for a malformed or unknown id or another merchant's id.
 * @throws ZodError when a row read does not match its schema (a schema drift)
 */
export async function lockPayment(tx: Tx, merchantId: string | null, id: string): Promise<PaymentRow> {
  if (!isUuid(id)) throw apiError("NOT_FOUND", "payment not found"); // never cast arbitrary text to uuid
  const rows = parseRows(
    IdRow,
    merchantId
      ? await tx.$queryRaw<Record<string, unknown>[]>`SELECT id FROM payments WHERE id = ${id}::uuid AND merchant_id = ${merchantId}::uuid FOR UPDATE`
      : await tx.$queryRaw<Record<string, unknown>[]>`SELECT id FROM payments WHERE id = ${id}::uuid FOR UPDATE`,
  );
  if (rows.length === 0) throw apiError("NOT_FOUND", "payment not found");
  return tx.payment.findUniqueOrThrow({ where: { id }, include: { storeCheckout: true } });
}
