import { getDb, Prisma, transaction, type Tx } from "@/lib/platform/db";
import { sandboxNow, systemNow, type RealInstant } from "@/lib/platform/clock";
import { yieldToRequests } from "@/lib/platform/background";
import { merchantFilter, movedClocks } from "@/lib/domain/merchants/clock-offsets";
import type { CheckoutSession } from "@/lib/platform/generated/prisma/client";
import { getCheckoutSession } from "@/lib/domain/checkout-sessions/read";
import { SESSION_TRANSITIONS } from "@/lib/domain/checkout-sessions/transitions";

/**
 * The expiry statement (transition "expire" of lib/domain/checkout-sessions/transitions.ts): moves up to `batchSize`
 * sessions whose expiresAt has passed at `now` from a state the table allows to EXPIRED, claiming them with
 * FOR UPDATE SKIP LOCKED; `only` narrows it to one session. The sweep and the test helper both expire through it.
 * @returns how many sessions it expired
 */
function expireDue(tx: Tx, now: Date, batchSize: number, only: Prisma.Sql = Prisma.empty): Promise<number> {
  const { from, to } = SESSION_TRANSITIONS.expire;
  const states = Prisma.join(from.map((state) => Prisma.sql`${state}::"CheckoutSessionState"`));
  return tx.$executeRaw`
    UPDATE checkout_sessions SET state = ${to}::"CheckoutSessionState", updated_at = ${now}
    WHERE id IN (
      SELECT id FROM checkout_sessions
      WHERE state IN (${states}) AND expires_at <= ${now} ${only}
      ORDER BY expires_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED
    )`;
}

/** The id of the job that runs the sweep below (lib/application/jobs/registry.ts): a sandbox clock move wakes it. */
export const EXPIRE_SESSIONS_JOB_ID = "expire-checkout-sessions";

/**
 * Job body of the checkout-session expiry sweep (docs/decisions/0023-checkout-session-expiry.md: any non-expired
 * state -> EXPIRED at expiresAt; docs/api.md "Limits": the expiry check runs every 30 seconds). Claims due rows with
 * FOR UPDATE SKIP LOCKED, so several processes may run it at once, in batches of `batchSize`. Sessions emit no events
 * (docs/callbacks.md). A merchant whose sandbox clock is moved (docs/api.md "Sandbox clock") is swept first at its
 * own sandbox time.
 * @param opts.now the real time (default the clock); opts.merchantId sweeps one merchant only.
 * @returns the number of sessions expired
 */
export async function expireDueSessions(opts: { now?: RealInstant; batchSize?: number; merchantId?: string } = {}): Promise<number> {
  const now = opts.now ?? systemNow();
  const batchSize = opts.batchSize ?? 500;
  const rounds = (await movedClocks(getDb()))
    .filter((c) => !opts.merchantId || c.merchantId === opts.merchantId)
    .map((c) => ({ at: sandboxNow(c.offsetMs, now), merchantId: c.merchantId as string | undefined }));
  let total = 0;
  for (const round of [...rounds, { at: sandboxNow(0, now), merchantId: opts.merchantId }]) {
    for (;;) {
      const started = performance.now();
      const count = await transaction((tx) => expireDue(tx, round.at, batchSize, merchantFilter(Prisma.sql`merchant_id`, round.merchantId)));
      total += count;
      if (count < batchSize) break;
      await yieldToRequests(started);
    }
  }
  return total;
}

/**
 * Expires at most `limit` of one merchant's due checkout sessions at its sandbox time `at`, in the caller's
 * transaction (the sandbox clock's move, docs/api.md "Sandbox clock": what is left is the sweep's), with the
 * sweep's own statement.
 * @returns the number of sessions expired
 */
export function expireMerchantSessions(tx: Tx, input: { merchantId: string; at: Date; limit: number }): Promise<number> {
  return expireDue(tx, input.at, input.limit, merchantFilter(Prisma.sql`merchant_id`, input.merchantId));
}

/**
 * Test helper `POST /v1/sandbox/checkout-sessions/{id}/expire` (docs/api.md "Test helpers"): ends one of the
 * merchant's sessions' acceptance period now (expiresAt becomes `now` unless it is earlier) and expires it with the
 * sweep's own statement, in the caller's transaction. A session already EXPIRED is answered as it is. Like the
 * sweep it writes no event (sessions send no callbacks) and no audit row.
 * @returns the session afterwards (state EXPIRED)
 * @throws ApiError 404 NOT_FOUND for a malformed, unknown or another merchant's id
 */
export async function expireSessionNow(tx: Tx, input: { merchantId: string; sessionId: string; now: Date }): Promise<CheckoutSession> {
  const { merchantId, sessionId, now } = input;
  await getCheckoutSession(tx, merchantId, sessionId);
  await tx.$executeRaw`
    UPDATE checkout_sessions SET expires_at = ${now}, updated_at = ${now}
    WHERE id = ${sessionId}::uuid AND merchant_id = ${merchantId}::uuid AND state <> 'EXPIRED' AND expires_at > ${now}`;
  await expireDue(tx, now, 1, Prisma.sql`AND id = ${sessionId}::uuid`);
  return getCheckoutSession(tx, merchantId, sessionId);
}
