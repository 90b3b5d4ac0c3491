// The sandbox clock (docs/api.md "Sandbox clock"): a merchant moves its sandbox time ahead, and everything that
// reads the time for that merchant sees it: payments and checkout sessions expire, callback retries come due,
// velocity windows and daily and monthly limits roll over, approval deadlines pass. How the offset reaches each rule
// is in docs/decisions/0150-one-source-of-now.md. The API (/v1/sandbox/clock) and the console call these functions.
import { z } from "zod";
import { writeAudit, type AuditActor } from "@/lib/domain/audit";
import { assertMerchantAccess, auditActor, merchantScope, type ConsoleActor } from "@/lib/domain/auth/actor";
import { optionalText, reasonField, uuidField } from "@/lib/contract/schemas/forms/fields";
import { formatOffset, parseDuration, sandboxNow, systemNow, type RealInstant } from "@/lib/platform/clock";
import { afterCommit, parseRow, parseRows, type Db, type Tx } from "@/lib/platform/db";
import { wakeJob } from "@/lib/domain/notify/wake";
import { missingRatesAhead, type MissingRate } from "@/lib/domain/pricing/fx-rates";
import { extendSeededRates } from "@/lib/domain/pricing/seeded-rates";
import { apiError, fieldError } from "@/lib/contract/errors";
import { advanceDeliveries } from "@/lib/domain/callbacks/deliveries";
import { EXPIRE_SESSIONS_JOB_ID, expireMerchantSessions } from "@/lib/domain/checkout-sessions/expire";
import { EXPIRE_PAYMENTS_JOB_ID, expireMerchantPayments } from "@/lib/domain/payments/expire";

/** The furthest a clock may run ahead: ten years of 365.25 days, in ms. */
export const MAX_OFFSET_MS = 315_576_000_000n;

/** What became due at a merchant's sandbox time and the background jobs have not yet done. */
export type ClockDue = { payments: number; checkoutSessions: number; deliveries: number };

/** A merchant's sandbox clock: its offset and its time now, next to the real time; what is due; rates missing ahead. */
export type SandboxClock = { offsetMs: number; offset: string; now: string; realNow: string; due: ClockDue; missingRates: MissingRate[] };

/** What one move of the clock did, besides moving it. */
export type ClockMove = SandboxClock & { advancedByMs: number; expired: { payments: number; checkoutSessions: number }; deliveriesDue: number };

/** A row of a raw read of a merchant's `clock_offset_ms AS "offset"` (int8 milliseconds, as BigInt). */
export const ClockOffsetRow = z.object({ offset: z.bigint() });

/** The most payments and checkout sessions a move expires in its own transaction; the expiry jobs take the rest. */
export const EXPIRED_IN_MOVE = { payments: 100, checkoutSessions: 1_000 } as const;

/** Days from the merchant's sandbox day that the answer checks for missing rates (that day and the 6 after it). */
export const CLOCK_RATE_LOOKAHEAD_DAYS = 7;

/** What is due for a merchant and not yet done: its expirable payments and sessions at sandbox time `at`, its due deliveries (real time). */
const DueRow = z.object({ payments: z.number().int(), sessions: z.number().int(), deliveries: z.number().int() });

async function dueFor(db: Db, merchantId: string, at: Date, real: Date): Promise<ClockDue> {
  const [found] = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT
      (SELECT count(*)::int FROM payments WHERE merchant_id = ${merchantId}::uuid AND status IN ('PENDING', 'PENDING_APPROVAL')
         AND expires_at IS NOT NULL AND expires_at <= ${at}) AS payments,
      (SELECT count(*)::int FROM checkout_sessions WHERE merchant_id = ${merchantId}::uuid AND state <> 'EXPIRED' AND expires_at <= ${at}) AS sessions,
      (SELECT count(*)::int FROM deliveries WHERE merchant_id = ${merchantId}::uuid AND state = 'PENDING' AND next_attempt_at <= ${real}) AS deliveries`;
  const row = parseRow(DueRow, found);
  return { payments: row.payments, checkoutSessions: row.sessions, deliveries: row.deliveries };
}

async function clockOf(db: Db, merchantId: string, offsetMs: bigint, real: RealInstant): Promise<SandboxClock> {
  const at = sandboxNow(offsetMs, real);
  return {
    offsetMs: Number(offsetMs),
    offset: formatOffset(offsetMs),
    now: at.toISOString(),
    realNow: real.toISOString(),
    due: await dueFor(db, merchantId, at, real),
    missingRates: await missingRatesAhead(db, { from: at, days: CLOCK_RATE_LOOKAHEAD_DAYS, merchantId }),
  };
}

/**
 * Reads a merchant's sandbox clock, what is still due at its time (docs/api.md "Sandbox clock": poll it until `due`
 * is all zero after a large advance) and the pairs its enabled pricing profiles need that have no rate on one of the
 * 7 days from its sandbox day.
 * @throws ApiError 404 NOT_FOUND for an unknown merchant
 * @throws ZodError when a row read does not match its schema (a schema drift)
 */
export async function getSandboxClock(db: Db, merchantId: string): Promise<SandboxClock> {
  const rows = parseRows(
    ClockOffsetRow,
    await db.$queryRaw<Record<string, unknown>[]>`SELECT clock_offset_ms AS "offset" FROM merchants WHERE id = ${merchantId}::uuid`,
  );
  if (!rows[0]) throw apiError("NOT_FOUND", "merchant not found");
  return clockOf(db, merchantId, rows[0].offset, systemNow());
}

/**
 * Moves a merchant's sandbox clock ahead by `byMs` (advance) or back to the real clock (`reset`), in the caller's
 * transaction with its audit row (action `merchant.sandbox_clock`, the offset before and after): the merchant row is
 * locked, so concurrent moves add up. The move itself is small whatever the merchant's size (docs/api.md "Sandbox
 * clock"):
 * - the seeded sandbox's FX rates are extended past the new sandbox day (lib/domain/pricing/seeded-rates.ts);
 * - each waiting callback retry comes `byMs` sooner (one statement), and the delivery job is woken after commit;
 * - up to {@link EXPIRED_IN_MOVE} of the payments and checkout sessions due at the new time are expired here, with
 *   the sweeps' own code (the same transitions, ledger entries and events); the rest is left to the expiry jobs,
 *   woken after commit, which work through it in short batches of their own. `due` says how much is left.
 * A reset expires nothing and moves no delivery back; times already given (a payment's expiresAt) are kept.
 * @param input.by the duration to advance by (`2h`, `1d12h`, `PT2H`: lib/platform/clock.ts parseDuration), or null (reset).
 * @returns the clock afterwards with what the move did, what is still due, and rates missing ahead.
 * @throws ApiError 404 NOT_FOUND for an unknown merchant; 400 VALIDATION_ERROR for a duration that is not one, or
 *   when the clock would run more than ten years ahead.
 * @throws ZodError when a row read does not match its schema (a schema drift)
 */
export async function moveSandboxClock(tx: Tx, actor: AuditActor, input: { merchantId: string; by: string | null; reason: string }): Promise<ClockMove> {
  const real = systemNow();
  const step = input.by === null ? null : parseDuration(input.by);
  if (input.by !== null && step === null) {
    throw fieldError(
      "by",
      "give a duration such as 90s, 15m, 2h, 1d12h or 2w (whole numbers with a unit s, m, h, d or w), or an ISO 8601 duration such as PT2H; it must be more than zero",
    );
  }
  const byMs = step === null ? null : BigInt(step);
  const [row] = parseRows(
    ClockOffsetRow,
    await tx.$queryRaw<Record<string, unknown>[]>`SELECT clock_offset_ms AS "offset" FROM merchants WHERE id = ${input.merchantId}::uuid FOR NO KEY UPDATE`,
  );
  if (!row) throw apiError("NOT_FOUND", "merchant not found");
  const after = byMs === null ? 0n : row.offset + byMs;
  if (after > MAX_OFFSET_MS) {
    throw fieldError(
      "by",
      `the clock would run ${formatOffset(after)} ahead; it can run at most 3652d 12h ahead. Reset it with POST /v1/sandbox/clock/reset first`,
    );
  }
  await tx.merchant.update({ where: { id: input.merchantId }, data: { clockOffsetMs: after } });
  await writeAudit(
    tx,
    actor,
    {
      action: "merchant.sandbox_clock",
      entity: "merchant",
      entityId: input.merchantId,
      merchantId: input.merchantId,
      before: { offsetMs: Number(row.offset) },
      after: { offsetMs: Number(after) },
      reason: input.reason,
    },
    real,
  );
  if (byMs === null)
    return { ...(await clockOf(tx, input.merchantId, after, real)), advancedByMs: 0, expired: { payments: 0, checkoutSessions: 0 }, deliveriesDue: 0 };
  const at = sandboxNow(after, real);
  await extendSeededRates(tx, { now: real, through: at });
  const expired = {
    payments: await expireMerchantPayments(tx, { merchantId: input.merchantId, at, offsetMs: after, limit: EXPIRED_IN_MOVE.payments }),
    checkoutSessions: await expireMerchantSessions(tx, { merchantId: input.merchantId, at, limit: EXPIRED_IN_MOVE.checkoutSessions }),
  };
  const deliveriesDue = await advanceDeliveries(tx, { merchantId: input.merchantId, byMs });
  const clock = await clockOf(tx, input.merchantId, after, real);
  afterCommit(tx, () => {
    if (clock.due.payments > 0) wakeJob(EXPIRE_PAYMENTS_JOB_ID);
    if (clock.due.checkoutSessions > 0) wakeJob(EXPIRE_SESSIONS_JOB_ID);
  });
  return { ...clock, advancedByMs: Number(byMs), expired, deliveriesDue };
}

/** The console's form to move a merchant's clock: advance by a duration, or reset (an empty duration). */
export const ClockForm = z.object({ merchantId: uuidField, by: optionalText(40), reason: reasonField });

/**
 * Moves a merchant's sandbox clock from the console (Callbacks page): MERCHANT users for their own merchant,
 * operators for any; a reason is required; the same move, audit row and expirations as the API.
 * @throws ApiError 404 NOT_FOUND (unknown merchant, or another merchant's for a MERCHANT user), 400 VALIDATION_ERROR
 *   (see {@link moveSandboxClock})
 */
export function moveClockFromConsole(tx: Tx, actor: ConsoleActor, input: z.output<typeof ClockForm>): Promise<ClockMove> {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  return moveSandboxClock(tx, auditActor(actor), { merchantId: input.merchantId, by: input.by ?? null, reason: input.reason });
}

/** The merchants in the actor's scope whose sandbox clock is moved (the console's banner), by name, with the offset. */
export async function merchantsWithMovedClock(db: Db, actor: ConsoleActor): Promise<{ id: string; name: string; offset: string }[]> {
  const scope = merchantScope(actor);
  const rows = await db.merchant.findMany({
    where: { clockOffsetMs: { not: 0n }, ...(scope ? { id: scope } : {}) },
    select: { id: true, name: true, clockOffsetMs: true },
    orderBy: { name: "asc" },
  });
  return rows.map((r) => ({ id: r.id, name: r.name, offset: formatOffset(r.clockOffsetMs) }));
}
