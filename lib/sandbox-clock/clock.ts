// The sandbox clock (docs/api.md "Sandbox clock"): a merchant moves its sandbox time ahead, and everything that
// reads the time for that merchant sees it: payments and checkout sessions expire, callback retries come due,
// velocity windows and daily and monthly limits roll over, approval deadlines pass. How the offset reaches each rule
// is in docs/decisions.md "One source of now". The API (/v1/sandbox/clock) and the console call these functions.
import { z } from "zod";
import { writeAudit, type AuditActor } from "@/lib/audit";
import { assertMerchantAccess, auditActor, merchantScope, type ConsoleActor } from "@/lib/auth/actor";
import { optionalText, reasonField, uuidField } from "@/lib/schemas/form-fields";
import { formatOffset, parseDuration, sandboxNow, systemNow } from "@/lib/clock";
import { parseRows, type Db, type Tx } from "@/lib/db";
import { apiError } from "@/lib/errors";
import { advanceDeliveries } from "@/lib/callbacks/deliveries";
import { expireMerchantSessions } from "@/lib/checkout-sessions/expire";
import { expireMerchantPayments } from "@/lib/payments/expire";

/** The furthest a clock may run ahead: ten years of 365.25 days, in ms. */
export const MAX_OFFSET_MS = 315_576_000_000n;

/** A merchant's sandbox clock: its offset and its time now, next to the real time. */
export type SandboxClock = { offsetMs: number; offset: string; now: string; realNow: string };

/** What one move of the clock did, besides moving it. */
export type ClockMove = SandboxClock & { advancedByMs: number; expired: { payments: number; checkoutSessions: number }; deliveriesDue: number };

/** A row of a raw read of a merchant's `clock_offset_ms AS "offset"` (int8 milliseconds, as BigInt). */
export const ClockOffsetRow = z.object({ offset: z.bigint() });

function clockOf(offsetMs: bigint, real: Date): SandboxClock {
  return { offsetMs: Number(offsetMs), offset: formatOffset(offsetMs), now: sandboxNow(offsetMs, real).toISOString(), realNow: real.toISOString() };
}

/**
 * Reads a merchant's sandbox clock.
 * @throws ApiError 404 NOT_FOUND for an unknown merchant
 * @throws ZodError when a row read does not match its schema (a schema drift)
 */
export async function getSandboxClock(db: Db, merchantId: string): Promise<SandboxClock> {
  const rows = parseRows(
    ClockOffsetRow,
    await db.$queryRaw<Record<string, unknown>[]>`SELECT clock_offset_ms AS "offset" FROM merchants WHERE id = ${merchantId}::uuid`,
  );
  if (!rows[0]) throw apiError("NOT_FOUND", "merchant not found");
  return clockOf(rows[0].offset, systemNow());
}

/**
 * Moves a merchant's sandbox clock ahead by `byMs` (advance) or back to the real clock (`reset`), in the caller's
 * transaction with its audit row (action `merchant.sandbox_clock`, the offset before and after): the merchant row is
 * locked, so concurrent moves add up. Advancing brings each waiting callback retry `byMs` sooner, and expires the
 * merchant's payments and checkout sessions that are due at its new time with the sweeps' own code (the same
 * transitions, ledger entries and events as the sweep), in the same transaction. A reset expires nothing and moves
 * no delivery back; times already given (a payment's expiresAt) are kept.
 * @param input.by the duration to advance by (`2h`, `1d12h`, `PT2H`: lib/clock.ts parseDuration), or null (reset).
 * @returns the clock afterwards with what the move did.
 * @throws ApiError 404 NOT_FOUND for an unknown merchant; 400 VALIDATION_ERROR for a duration that is not one, or
 *   when the clock would run more than ten years ahead.
 * @throws ZodError when a row read does not match its schema (a schema drift)
 */
export async function moveSandboxClock(tx: Tx, actor: AuditActor, input: { merchantId: string; by: string | null; reason: string }): Promise<ClockMove> {
  const real = systemNow();
  const step = input.by === null ? null : parseDuration(input.by);
  if (input.by !== null && step === null) {
    throw apiError(
      "VALIDATION_ERROR",
      "by: give a duration such as 90s, 15m, 2h, 1d12h or 2w (whole numbers with a unit s, m, h, d or w), or an ISO 8601 duration such as PT2H; it must be more than zero",
    );
  }
  const byMs = step === null ? null : BigInt(step);
  const [row] = parseRows(
    ClockOffsetRow,
    await tx.$queryRaw<Record<string, unknown>[]>`SELECT clock_offset_ms AS "offset" FROM merchants WHERE id = ${input.merchantId}::uuid FOR UPDATE`,
  );
  if (!row) throw apiError("NOT_FOUND", "merchant not found");
  const after = byMs === null ? 0n : row.offset + byMs;
  if (after > MAX_OFFSET_MS) {
    throw apiError(
      "VALIDATION_ERROR",
      `by: the clock would run ${formatOffset(after)} ahead; it can run at most 3652d 12h ahead. Reset it with POST /v1/sandbox/clock/reset first`,
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
  const clock = clockOf(after, real);
  if (byMs === null) return { ...clock, advancedByMs: 0, expired: { payments: 0, checkoutSessions: 0 }, deliveriesDue: 0 };
  const at = sandboxNow(after, real);
  return {
    ...clock,
    advancedByMs: Number(byMs),
    expired: {
      payments: await expireMerchantPayments(tx, { merchantId: input.merchantId, at, offsetMs: after }),
      checkoutSessions: await expireMerchantSessions(tx, { merchantId: input.merchantId, at }),
    },
    deliveriesDue: await advanceDeliveries(tx, { merchantId: input.merchantId, byMs }),
  };
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
