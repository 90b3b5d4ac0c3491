// Job body of callback delivery: claim due deliveries, send one signed attempt each, record the outcome.
// docs/callbacks.md (Delivery: at-least-once, 5 s timeout, at most 8 attempts, redirects not followed),
// "Limits" (Callback) and docs/architecture.md "Callbacks", "Consistency" (FOR UPDATE SKIP LOCKED, nothing sent
// inside a transaction).
import { systemNow } from "@/lib/clock";
import { z } from "zod";
import { getDb, parseRow, parseRows, Prisma, transaction, type Tx } from "@/lib/db";
import { callbackUrlPolicy } from "@/lib/callbacks/callback-config";
import { MAX_ATTEMPTS, nextAttemptDelayMs } from "@/lib/callbacks/retry-schedule";
import { sendCallbackRequest, type SendCallbackResult } from "@/lib/callbacks/send";
import { testEventHeaderName } from "@/lib/callbacks/deliveries";
import { injectChaos, pendingChaosPlan } from "@/lib/callbacks/chaos-delivery";
import type { SendTarget } from "@/lib/callbacks/chaos-delivery";
import { buildCallbackHeaders, callbackHeaderNames } from "@/lib/events/signing";
import { checkCallbackUrl } from "@/lib/callbacks/url-policy";
import { DeliveryState } from "@/lib/generated/prisma/enums";
import { log } from "@/lib/log";
import { observeDelivery } from "@/lib/metrics/metrics";
import { inSpan } from "@/lib/tracing/tracing";

/** How long a claimed delivery stays with its worker, milliseconds: far above one attempt (5 s timeout). */
export const DEFAULT_LEASE_MS = 30_000;
/** Deliveries claimed (and sent concurrently) per batch. */
export const DEFAULT_BATCH_SIZE = 20;
/** Error recorded for an attempt whose worker stopped before it recorded a result. */
export const INTERRUPTED_ERROR = "attempt interrupted: the worker stopped before recording a result (lease expired)";

export type DeliverOptions = {
  /** The worker's clock for this run: due check, lease, timestamp header, attempt time, next attempt. Default: the real clock. */
  now?: Date;
  /** Deliveries claimed per batch (default 20); `deliverDueCallbacks` repeats batches until fewer are due. */
  limit?: number;
  /** Name of this worker in logs. */
  workerId?: string;
  /** Lease length in milliseconds (default 30 s). */
  leaseMs?: number;
  /** Only this merchant's deliveries (tests, tools). */
  merchantId?: string;
  /** Source of jitter for the retry schedule (default Math.random). */
  random?: () => number;
  /** Attempt time limit in milliseconds (default 5000, docs/api.md "Limits"). */
  timeoutMs?: number;
};

/** What became of one claimed delivery after its attempt. */
export type AttemptOutcome = {
  deliveryId: string;
  eventId: string;
  /** Number of the recorded attempt (over the delivery's life), or null when nothing was sent. */
  attempt: number | null;
  state: DeliveryState;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
};

/** A claimed delivery with what its attempt needs: the frozen body and the merchant's address and secret. */
type Claimed = {
  id: string;
  eventId: string;
  merchantId: string;
  /** The merchant's chaos mode was on at claim time (docs/callbacks.md "Chaos mode"). */
  chaos: boolean;
  /** The merchant's fast retries were on at claim time (docs/callbacks.md "Fast retries"). */
  fastRetries: boolean;
  attemptCount: number;
  leaseUntil: Date;
  body: string;
  test: boolean;
  callbackUrl: string | null;
  callbackSecret: string | null;
};
/**
 * A due delivery as {@link claim} reads it (checked with `parseRow`, lib/db.ts): the delivery, its event's frozen body
 * and payment id (null: a test event), and its merchant's chaos mode, fast retries, address and secret at claim time;
 * `leaseUntil` is set when an earlier claim's lease expired.
 */
export const ClaimRow = z.object({
  id: z.string(),
  eventId: z.string(),
  merchantId: z.string(),
  chaosMode: z.boolean(),
  fastRetries: z.boolean(),
  attemptCount: z.number().int(),
  leaseUntil: z.date().nullable(),
  body: z.string(),
  paymentId: z.string().nullable(),
  callbackUrl: z.string().nullable(),
  callbackSecret: z.string().nullable(),
});

/** A claimed delivery as {@link settle} locks it again: its state and lease now, and the attempts recorded so far. */
const SettleRow = z.object({
  state: z.enum(DeliveryState),
  leaseUntil: z.date().nullable(),
  nextAttemptAt: z.date().nullable(),
  recorded: z.number().int(),
});

/** The attempt number the next recorded attempt of a delivery gets (1 + attempts recorded so far). */
async function nextAttemptNumber(tx: Tx, deliveryId: string): Promise<number> {
  return (await tx.deliveryAttempt.count({ where: { deliveryId } })) + 1;
}

/**
 * Claims due deliveries in one short transaction: PENDING, nextAttemptAt <= now, lease free or expired,
 * locked with FOR UPDATE SKIP LOCKED (so concurrent workers never claim the same row), then leased until
 * now + leaseMs with attemptCount + 1. A row whose lease had expired was abandoned mid-attempt (its worker
 * died): that attempt is recorded as interrupted, and when it was the last allowed one the delivery becomes
 * FAILED instead of being claimed.
 */
async function claim(filter: Prisma.Sql, now: Date, limit: number, leaseMs: number): Promise<Claimed[]> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  return transaction(async (tx) => {
    const due = parseRows(
      ClaimRow,
      await tx.$queryRaw<Record<string, unknown>[]>`
      SELECT d.id, d.event_id, d.merchant_id, m.chaos_mode, m.fast_retries, d.attempt_count, d.lease_until, e.body, e.payment_id, m.callback_url, m.callback_secret
      FROM deliveries d JOIN events e ON e.id = d.event_id JOIN merchants m ON m.id = d.merchant_id
      WHERE d.state = 'PENDING' AND d.next_attempt_at <= ${now} AND (d.lease_until IS NULL OR d.lease_until <= ${now}) ${filter}
      ORDER BY d.next_attempt_at LIMIT ${limit} FOR UPDATE OF d SKIP LOCKED`,
    );
    const claimed: Claimed[] = [];
    for (const row of due) {
      if (row.leaseUntil !== null) {
        await tx.deliveryAttempt.create({
          data: {
            deliveryId: row.id,
            number: await nextAttemptNumber(tx, row.id),
            url: row.callbackUrl ?? "",
            startedAt: new Date(row.leaseUntil.getTime() - leaseMs),
            durationMs: 0,
            error: INTERRUPTED_ERROR,
          },
        });
        if (row.attemptCount >= MAX_ATTEMPTS) {
          await tx.delivery.update({
            where: { id: row.id },
            data: { state: "FAILED", leaseUntil: null, nextAttemptAt: null, lastError: INTERRUPTED_ERROR, updatedAt: now },
          });
          continue;
        }
      }
      claimed.push({
        id: row.id,
        eventId: row.eventId,
        merchantId: row.merchantId,
        chaos: row.chaosMode,
        fastRetries: row.fastRetries,
        attemptCount: row.attemptCount + 1,
        leaseUntil,
        body: row.body,
        test: row.paymentId === null,
        callbackUrl: row.callbackUrl,
        callbackSecret: row.callbackSecret,
      });
    }
    if (claimed.length > 0) {
      await tx.$executeRaw`
        UPDATE deliveries SET attempt_count = attempt_count + 1, lease_until = ${leaseUntil}, updated_at = ${now}
        WHERE id = ANY(${claimed.map((c) => c.id)}::uuid[])`;
    }
    return claimed;
  });
}

/** What one send did: the address, the result, and what it was signed with (the signature debugger shows it). */
type Sent =
  { url: string; result: SendCallbackResult; signedTimestamp: string | null; signature: string | null; target: SendTarget | null } | { notConfigured: true };

/**
 * Sends one claimed delivery, outside any transaction: checks the merchant's address again (docs/callbacks.md:
 * no private or local targets; the checked address is the one connected to), signs the same body bytes
 * with a fresh timestamp and POSTs them. The address and secret are the merchant's as read at claim time.
 */
async function send(claimed: Claimed, now: Date, timeoutMs: number | undefined): Promise<Sent> {
  const { callbackUrl: url, callbackSecret: secret, body } = claimed;
  if (!url || !secret) return { notConfigured: true };
  const check = await checkCallbackUrl(url, callbackUrlPolicy());
  if (!check.ok) {
    const refused = `address refused: ${check.reason}`;
    return {
      url,
      result: { ok: false, statusCode: null, durationMs: 0, error: refused, responseSnippet: "", redirected: false },
      signedTimestamp: null,
      signature: null,
      target: null,
    };
  }
  const headers = buildCallbackHeaders({ eventId: claimed.eventId, rawBody: body, secret, nowMs: now.getTime() });
  if (claimed.test) headers[testEventHeaderName()] = "true";
  const target = { url: check.url, address: check.address, family: check.family };
  const result = await sendCallbackRequest({ ...target, headers, body, timeoutMs });
  const names = callbackHeaderNames();
  return { url, result, signedTimestamp: headers[names.timestamp], signature: headers[names.signature], target };
}

/**
 * Records the attempt and moves the delivery, in a second short transaction with the row locked:
 * 2xx -> SUCCEEDED (deliveredAt); failure -> PENDING at now + the retry wait of the merchant's schedule (normal or
 * fast retries, as read at claim time), or FAILED after attempt 8;
 * no address at send time -> NOT_CONFIGURED (the claim is given back: nothing was sent). A worker whose
 * lease was taken over (it stalled past the lease) still records its attempt, and a success still counts,
 * but a failure leaves the state to the worker holding the lease.
 */
async function settle(claimed: Claimed, sent: Sent, startedAt: Date, finishedAt: Date, random: () => number): Promise<AttemptOutcome> {
  return transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<Record<string, unknown>[]>`
      SELECT state, lease_until, next_attempt_at, (SELECT count(*)::int FROM delivery_attempts WHERE delivery_id = d.id) AS recorded
      FROM deliveries d WHERE id = ${claimed.id}::uuid FOR UPDATE`;
    const row = parseRow(SettleRow, locked);
    const ownLease = row.state === "PENDING" && row.leaseUntil?.getTime() === claimed.leaseUntil.getTime();
    const base = { deliveryId: claimed.id, eventId: claimed.eventId };

    if ("notConfigured" in sent) {
      if (!ownLease) return { ...base, attempt: null, state: row.state, statusCode: null, error: null, nextAttemptAt: row.nextAttemptAt };
      await tx.delivery.update({
        where: { id: claimed.id },
        data: {
          state: "NOT_CONFIGURED",
          attemptCount: { decrement: 1 },
          leaseUntil: null,
          nextAttemptAt: null,
          lastError: "no callback address configured",
          updatedAt: finishedAt,
        },
      });
      return { ...base, attempt: null, state: "NOT_CONFIGURED", statusCode: null, error: "no callback address configured", nextAttemptAt: null };
    }

    const { result } = sent;
    const attempt = row.recorded + 1;
    await tx.deliveryAttempt.create({
      data: {
        deliveryId: claimed.id,
        number: attempt,
        url: sent.url,
        startedAt,
        durationMs: result.durationMs,
        statusCode: result.statusCode,
        error: result.error,
        responseSnippet: result.responseSnippet,
        signedTimestamp: sent.signedTimestamp,
        signature: sent.signature,
      },
    });
    const outcome = { ...base, attempt, statusCode: result.statusCode, error: result.error };
    if (result.ok && (row.state === "PENDING" || row.state === "FAILED")) {
      await tx.delivery.update({
        where: { id: claimed.id },
        data: { state: "SUCCEEDED", deliveredAt: finishedAt, leaseUntil: null, nextAttemptAt: null, lastError: null, updatedAt: finishedAt },
      });
      return { ...outcome, state: "SUCCEEDED", nextAttemptAt: null };
    }
    if (result.ok || !ownLease) return { ...outcome, state: row.state, nextAttemptAt: row.nextAttemptAt };
    const waitMs = nextAttemptDelayMs(claimed.attemptCount, random, { fastRetries: claimed.fastRetries });
    const nextAttemptAt = waitMs === null ? null : new Date(finishedAt.getTime() + waitMs);
    const state = waitMs === null ? "FAILED" : "PENDING";
    await tx.delivery.update({
      where: { id: claimed.id },
      data: { state, nextAttemptAt, leaseUntil: null, lastError: result.error, updatedAt: finishedAt },
    });
    return { ...outcome, state, nextAttemptAt };
  });
}

/**
 * One delivery attempt of `claimed` (attemptOnce), as a trace span "callback attempt" (docs/operating.md "Traces":
 * delivery, event and merchant ids, the attempt's number, the delivery's state after it and the receiver's status).
 */
function attempt(claimed: Claimed, opts: DeliverOptions): Promise<AttemptOutcome> {
  const ids = { "sandpiper.delivery_id": claimed.id, "sandpiper.event_id": claimed.eventId, "sandpiper.merchant_id": claimed.merchantId };
  return inSpan("callback attempt", ids, async (span) => {
    const outcome = await attemptOnce(claimed, opts);
    span.setAttributes({ "sandpiper.attempt": outcome.attempt, "sandpiper.delivery_state": outcome.state });
    if (outcome.statusCode != null) span.setAttribute("http.response.status_code", outcome.statusCode);
    return outcome;
  });
}

async function attemptOnce(claimed: Claimed, opts: DeliverOptions): Promise<AttemptOutcome> {
  // Chaos mode: the event's plan, once per delivery; a delay holds the real attempt back (well inside the lease).
  const plan = claimed.chaos && claimed.callbackSecret ? await pendingChaosPlan(claimed.id, claimed.eventId) : null;
  if (plan?.delayMs) await new Promise((r) => setTimeout(r, plan.delayMs));
  const startedAt = opts.now ?? systemNow();
  const sent = await send(claimed, startedAt, opts.timeoutMs);
  const outcome = await settle(claimed, sent, startedAt, opts.now ?? systemNow(), opts.random ?? Math.random);
  if (plan && "target" in sent && sent.target) {
    await injectChaos({
      deliveryId: claimed.id,
      eventId: claimed.eventId,
      merchantId: claimed.merchantId,
      body: claimed.body,
      secret: claimed.callbackSecret!,
      url: sent.url,
      target: sent.target,
      plan,
      real: sent.result,
      timeoutMs: opts.timeoutMs,
    });
  }
  log.info(
    {
      worker: opts.workerId,
      deliveryId: outcome.deliveryId,
      eventId: outcome.eventId,
      attempt: outcome.attempt,
      state: outcome.state,
      statusCode: outcome.statusCode,
      error: outcome.error,
    },
    "callback attempt",
  );
  observeDelivery(outcome.state);
  return outcome;
}

/** Totals of one {@link deliverDueCallbacks} run. */
export type DeliverySummary = { claimed: number; succeeded: number; retrying: number; failed: number; notConfigured: number; outcomes: AttemptOutcome[] };

/**
 * Job body `deliver-due-callbacks` (docs/architecture.md "Consistency": background work claims rows with FOR UPDATE
 * SKIP LOCKED, so any number of processes may run it at once). Repeats: claim a batch of due deliveries
 * (see {@link DeliverOptions}), send their attempts concurrently outside any transaction, record each
 * outcome; until a batch comes back smaller than `limit`.
 *
 * Delivery is at-least-once: a worker killed mid-send leaves its lease to expire (30 s); the delivery is
 * then claimed again and re-sent with the same event id and body and a new timestamp, and the lost attempt
 * is recorded as interrupted. Two workers never send the same attempt: a leased row is not claimable.
 *
 * @returns counts per resulting state and each attempt's outcome.
 * @throws database errors (the driver logs them and runs again later); send failures never throw.
 */
export async function deliverDueCallbacks(opts: DeliverOptions = {}): Promise<DeliverySummary> {
  const limit = opts.limit ?? DEFAULT_BATCH_SIZE;
  const filter = opts.merchantId ? Prisma.sql`AND d.merchant_id = ${opts.merchantId}::uuid` : Prisma.empty;
  const summary: DeliverySummary = { claimed: 0, succeeded: 0, retrying: 0, failed: 0, notConfigured: 0, outcomes: [] };
  for (;;) {
    const claimed = await claim(filter, opts.now ?? systemNow(), limit, opts.leaseMs ?? DEFAULT_LEASE_MS);
    const outcomes = await Promise.all(claimed.map((c) => attempt(c, opts)));
    summary.claimed += claimed.length;
    for (const o of outcomes) {
      summary.outcomes.push(o);
      if (o.state === "SUCCEEDED") summary.succeeded++;
      else if (o.state === "PENDING") summary.retrying++;
      else if (o.state === "FAILED") summary.failed++;
      else summary.notConfigured++;
    }
    if (claimed.length < limit) return summary;
  }
}

/** Result of {@link deliverOne}: the attempt's outcome, or why nothing was sent now. */
export type DeliverOneResult =
  ({ claimed: true } & AttemptOutcome) | { claimed: false; deliveryId: string; state: DeliveryState | null; nextAttemptAt: Date | null };

/**
 * One attempt of one delivery, if it is due and not leased (event-triggered sending: the Inngest function
 * `deliver-callback`). Same claim, send and record steps as {@link deliverDueCallbacks}.
 * @returns `{ claimed: true, ...outcome }`, or `{ claimed: false, state, nextAttemptAt }` when the delivery
 *   is unknown (state null), not PENDING, not yet due or leased by another worker; nextAttemptAt is then
 *   when to look again (the later of the due time and the lease end).
 * @throws database errors.
 */
export async function deliverOne(deliveryId: string, opts: DeliverOptions = {}): Promise<DeliverOneResult> {
  const now = opts.now ?? systemNow();
  const [claimed] = await claim(Prisma.sql`AND d.id = ${deliveryId}::uuid`, now, 1, opts.leaseMs ?? DEFAULT_LEASE_MS);
  if (claimed) return { claimed: true, ...(await attempt(claimed, opts)) };
  const row = await getDb().delivery.findUnique({ where: { id: deliveryId }, select: { state: true, nextAttemptAt: true, leaseUntil: true } });
  if (!row) return { claimed: false, deliveryId, state: null, nextAttemptAt: null };
  const times = [row.nextAttemptAt, row.leaseUntil].filter((t): t is Date => t !== null && row.state === "PENDING");
  const nextAttemptAt = times.length ? new Date(Math.max(...times.map((t) => t.getTime()))) : null;
  return { claimed: false, deliveryId, state: row.state, nextAttemptAt };
}
