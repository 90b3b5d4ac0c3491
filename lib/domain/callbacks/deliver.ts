// Job body of callback delivery: claim due deliveries, send one signed attempt each, record the outcome.
// docs/callbacks.md (Delivery: at-least-once, 5 s timeout, at most 8 attempts, redirects not followed),
// "Limits" (Callback) and docs/architecture.md "Callbacks", "Consistency" (FOR UPDATE SKIP LOCKED, nothing sent
// inside a transaction).
import { later, systemNow, type RealInstant } from "@/lib/platform/clock";
import { yieldToRequests } from "@/lib/platform/background";
import { z } from "zod";
import { batchQuery, getDb, parseRows, Prisma, transaction, type Tx } from "@/lib/platform/db";
import { callbackUrlPolicy } from "@/lib/domain/callbacks/callback-config";
import { MAX_ATTEMPTS, nextAttemptDelayMs } from "@/lib/contract/callbacks/retry-schedule";
import { sendCallbackRequest, type SendCallbackResult } from "@/lib/domain/callbacks/send";
import { testEventHeaderName } from "@/lib/domain/callbacks/deliveries";
import { injectChaos, pendingChaosPlan } from "@/lib/domain/callbacks/chaos-delivery";
import type { SendTarget } from "@/lib/domain/callbacks/chaos-delivery";
import { buildCallbackHeaders, signedHeaderValues } from "@/lib/contract/callbacks/signing";
import { checkCallbackUrl } from "@/lib/domain/callbacks/url-policy";
import { recordAccepted, recordRefusal, refusingUntil, stillRefuses, type AddressWait, type ProbeTarget } from "@/lib/domain/callbacks/refusing-addresses";
import { announce } from "@/lib/domain/notify/announce";
import { DELIVERY_DUE } from "@/lib/domain/notify/due-events";
import { DeliveryState } from "@/lib/platform/generated/prisma/enums";
import { log } from "@/lib/platform/log";
import { observeDelivery } from "@/lib/platform/metrics/metrics";
import { inSpan } from "@/lib/platform/tracing/tracing";

/** How long a claimed delivery stays with its worker, milliseconds: far above one attempt (5 s timeout). */
export const DEFAULT_LEASE_MS = 30_000;
/** Deliveries claimed (and sent concurrently) per batch. */
export const DEFAULT_BATCH_SIZE = 20;
/** Error recorded for an attempt whose worker stopped before it recorded a result. */
export const INTERRUPTED_ERROR = "attempt interrupted: the worker stopped before recording a result (lease expired)";

export type DeliverOptions = {
  /** The worker's clock for this run: due check, lease, timestamp header, attempt time, next attempt. Default: the real clock. */
  now?: RealInstant;
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
  /** The secret a rotation replaced, while its overlap lasts at claim time (docs/callbacks.md "Rotating the secret"). */
  previousCallbackSecret: string | null;
  /** An attempt now was asked for (test helper, console): sent even while its address is known to refuse connections. */
  asked: boolean;
};
/**
 * A due delivery as {@link claim} reads it (checked with `parseRow`, lib/platform/db.ts): the delivery, its event's frozen body
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
  previousCallbackSecret: z.string().nullable(),
  attemptAsked: z.boolean(),
});

/** One recorded attempt as {@link settleBatch} inserts it (its id is the database's). */
type AttemptRow = {
  deliveryId: string;
  number: number;
  url: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseSnippet: string | null;
  signedTimestamp: string | null;
  signature: string | null;
};

/** A claimed delivery as {@link settleBatch} locks it again: its state and lease now, and the attempts recorded so far. */
const SettleRow = z.object({
  id: z.string(),
  state: z.enum(DeliveryState),
  leaseUntil: z.date().nullable(),
  nextAttemptAt: z.date().nullable(),
  recorded: z.number().int(),
});
type SettleRow = z.infer<typeof SettleRow>;

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
async function claim(filter: Prisma.Sql, now: RealInstant, limit: number, leaseMs: number): Promise<Claimed[]> {
  const leaseUntil = later(now, leaseMs);
  return transaction(async (tx) => {
    const due = parseRows(
      ClaimRow,
      await batchQuery(
        tx,
        limit,
        Prisma.sql`
      SELECT d.id, d.event_id, d.merchant_id, m.chaos_mode, m.fast_retries, d.attempt_count, d.lease_until, d.attempt_asked, e.body, e.payment_id, m.callback_url, m.callback_secret,
        CASE WHEN m.previous_callback_secret_until > ${now} THEN m.previous_callback_secret END AS previous_callback_secret
      FROM deliveries d JOIN events e ON e.id = d.event_id JOIN merchants m ON m.id = d.merchant_id
      WHERE d.state = 'PENDING' AND d.next_attempt_at <= ${now} AND (d.lease_until IS NULL OR d.lease_until <= ${now}) ${filter}
      ORDER BY d.next_attempt_at LIMIT ${limit} FOR UPDATE OF d SKIP LOCKED`,
      ),
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
        previousCallbackSecret: row.previousCallbackSecret,
        asked: row.attemptAsked,
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
  | { url: string; result: SendCallbackResult; signedTimestamp: string | null; signature: string | null; target: SendTarget | null }
  | { notConfigured: true }
  /** Not sent: the address refused a connection since `since` and its deliveries wait until then (lib/domain/callbacks/refusing-addresses.ts). */
  | { waitUntil: RealInstant; since: RealInstant };

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
  const previousSecret = claimed.previousCallbackSecret;
  const headers = buildCallbackHeaders({ eventId: claimed.eventId, rawBody: body, secret, previousSecret, nowMs: now.getTime() });
  if (claimed.test) headers[testEventHeaderName()] = "true";
  const target = { url: check.url, address: check.address, family: check.family };
  const result = await sendCallbackRequest({ ...target, headers, body, timeoutMs });
  const { timestamp: signedTimestamp, signature } = signedHeaderValues(headers);
  return { url, result, signedTimestamp, signature, target };
}

/** Where a probe of a refused send's address connects: the address connected to and the URL's port. */
function probeTarget(target: SendTarget | null): ProbeTarget | null {
  if (!target) return null;
  const port = Number(target.url.port) || (target.url.protocol === "https:" ? 443 : 80);
  return { address: target.address, family: target.family, port };
}

/**
 * Sends one claimed delivery ({@link send}) unless its address refuses connections (docs/callbacks.md "An address
 * that refuses connections"): while an earlier refusal's wait lasts nothing is sent and the delivery waits (until the
 * wait ends or a probe finds the address listening); in a batch with several deliveries to one address the first is
 * sent alone (the probe) and the others follow its outcome: sent when it connected, waiting when it was refused. A
 * delivery whose attempt was asked for now is sent whatever the address did before. `probes` holds each address's
 * probe of this batch.
 */
async function sendUnlessRefusing(
  c: Claimed,
  now: RealInstant,
  timeoutMs: number | undefined,
  probes: Map<string, Promise<AddressWait | null>>,
): Promise<Sent> {
  const url = c.callbackUrl;
  if (!url || !c.callbackSecret) return send(c, now, timeoutMs);
  const waiting = c.asked ? null : refusingUntil(url, now);
  if (waiting) return { waitUntil: waiting.until, since: waiting.since };
  const probe = c.asked ? undefined : probes.get(url);
  if (probe) {
    const wait = await probe;
    return wait ? { waitUntil: wait.until, since: wait.since } : send(c, now, timeoutMs);
  }
  let settleProbe!: (wait: AddressWait | null) => void;
  if (!c.asked) probes.set(url, new Promise((resolve) => (settleProbe = resolve)));
  else settleProbe = () => undefined;
  try {
    const sent = await send(c, now, timeoutMs);
    const result = "result" in sent ? sent.result : null;
    if (result?.refused) {
      const target = "target" in sent ? probeTarget(sent.target) : null;
      settleProbe(recordRefusal(url, now, { fastRetries: c.fastRetries }, target, releaseWaiting));
    } else {
      // An attempt asked for now connected while the address's wait lasted: what waits for it is released too.
      if (result?.statusCode != null && recordAccepted(url, now)) void releaseWaiting(url);
      settleProbe(null);
    }
    return sent;
  } catch (error) {
    settleProbe(null);
    throw error;
  }
}

/** Deliveries {@link waitWithAddress} and {@link releaseWaiting} move in one statement: a backlog of 65,000 is moved in turns, not in one burst of writes. */
export const WAIT_CHUNK = 5_000;

/**
 * The other deliveries to an address that refused connections wait with the ones of this batch: every PENDING,
 * unleased delivery of a merchant whose callback address is `url` and whose next attempt is before `wait.until` is
 * moved to `wait.until`, keeping its own schedule's time (`own_attempt_at`) and since when its address refuses
 * (`waiting_since`): nothing is sent or recorded as an attempt. In statements of {@link WAIT_CHUNK} rows with the
 * background share's pause between two (docs/architecture.md "Jobs"); it stops as soon as a probe has found the
 * address listening (the probe's release then frees what was moved). A delivery not moved yet that a claim takes
 * meanwhile waits as part of that claim's batch. Real time, as every delivery time.
 */
async function waitWithAddress(url: string, wait: AddressWait, now: RealInstant): Promise<void> {
  while (stillRefuses(url)) {
    const started = performance.now();
    const moved = await getDb().$executeRaw`
      UPDATE deliveries SET own_attempt_at = COALESCE(own_attempt_at, next_attempt_at), waiting_since = COALESCE(waiting_since, ${wait.since}),
        next_attempt_at = ${wait.until}, updated_at = ${now}
      WHERE id IN (
        SELECT d.id FROM deliveries d JOIN merchants m ON m.id = d.merchant_id
        WHERE m.callback_url = ${url} AND d.state = 'PENDING' AND d.next_attempt_at < ${wait.until} AND NOT d.attempt_asked
          AND (d.lease_until IS NULL OR d.lease_until <= ${now})
        LIMIT ${WAIT_CHUNK})`;
    if (moved < WAIT_CHUNK) return;
    await yieldToRequests(started);
  }
}

/** A delivery {@link releaseWaiting} released: its id when it is due now, null when its own schedule is later. */
const ReleasedRow = z.object({ id: z.string().nullable() });

/**
 * Ends the wait of every delivery waiting for `url`, now that a probe connected to it (docs/callbacks.md "An address
 * that refuses connections"): each PENDING delivery of a merchant whose callback address is `url` with a
 * `waiting_since` becomes due at its own schedule's time, or now when that has passed, and no longer waits; those due
 * now are announced (the delivery job sends them at once). In statements of {@link WAIT_CHUNK} rows with the
 * background share's pause between two. Real time.
 * @throws never: a database error is logged (the deliveries then wait until their wait ends, as without a probe).
 */
export async function releaseWaiting(url: string): Promise<void> {
  try {
    for (;;) {
      const started = performance.now();
      const now = systemNow();
      const released = parseRows(
        ReleasedRow,
        await getDb().$queryRaw<Record<string, unknown>[]>`
        UPDATE deliveries SET next_attempt_at = GREATEST(COALESCE(own_attempt_at, ${now}), ${now}), own_attempt_at = NULL, waiting_since = NULL, updated_at = ${now}
        WHERE id IN (
          SELECT d.id FROM deliveries d JOIN merchants m ON m.id = d.merchant_id
          WHERE m.callback_url = ${url} AND d.waiting_since IS NOT NULL AND d.state = 'PENDING'
          LIMIT ${WAIT_CHUNK})
        RETURNING CASE WHEN next_attempt_at <= ${now} THEN id END AS id`,
      );
      const due = released.flatMap((r) => (r.id ? [{ deliveryId: r.id }] : []));
      announce(DELIVERY_DUE, due);
      if (released.length < WAIT_CHUNK) return;
      await yieldToRequests(started);
    }
  } catch (error) {
    log.warn({ err: error instanceof Error ? error.message : String(error) }, "waiting deliveries not released; they are sent when their wait ends");
  }
}

/** One sent attempt; its times are real time (deliveries keep the real clock: docs/architecture.md "Which clock a column holds"). */
type SentAttempt = { claimed: Claimed; sent: Sent; startedAt: RealInstant; finishedAt: RealInstant };

/** How a delivery row changes after its attempt (the lease is always given back). */
type DeliveryChange = {
  id: string;
  state: DeliveryState;
  nextAttemptAt: Date | null;
  lastError: string | null;
  /** Set on success; otherwise the row keeps its own. */
  deliveredAt: Date | null;
  /** Added to attemptCount: -1 gives back a claim that sent nothing. */
  attemptDelta: number;
  /** The row keeps its lastError (nothing was sent). */
  keepError: boolean;
  /** Set while the delivery waits for its address (since when the address refuses); null: it no longer waits. */
  waitingSince: Date | null;
  updatedAt: Date;
};

/** What recording one attempt writes: its attempt row (null: nothing was sent), its delivery's change (null: none), its outcome. */
type Settlement = { attempt: AttemptRow | null; change: DeliveryChange | null; outcome: AttemptOutcome };

/**
 * The rules of recording one attempt against its delivery as locked now (`row`): 2xx -> SUCCEEDED (deliveredAt);
 * failure -> PENDING at now + the retry wait of the merchant's schedule (normal or fast retries, as read at claim
 * time), or FAILED after attempt 8; no address at send time -> NOT_CONFIGURED (the claim is given back: nothing was
 * sent). A worker whose lease was taken over (it stalled past the lease) still records its attempt, and a success
 * still counts, but a failure leaves the state to the worker holding the lease.
 */
function settlement({ claimed, sent, startedAt, finishedAt }: SentAttempt, row: SettleRow, random: () => number): Settlement {
  const ownLease = row.state === "PENDING" && row.leaseUntil?.getTime() === claimed.leaseUntil.getTime();
  const base = { deliveryId: claimed.id, eventId: claimed.eventId };
  const unchanged = { state: row.state, nextAttemptAt: row.nextAttemptAt };

  if ("waitUntil" in sent) {
    if (!ownLease) return { attempt: null, change: null, outcome: { ...base, attempt: null, statusCode: null, error: null, ...unchanged } };
    const change = {
      id: claimed.id,
      state: "PENDING" as const,
      nextAttemptAt: sent.waitUntil,
      lastError: null,
      deliveredAt: null,
      attemptDelta: -1,
      keepError: true,
      waitingSince: sent.since,
      updatedAt: finishedAt,
    };
    return { attempt: null, change, outcome: { ...base, attempt: null, state: "PENDING", statusCode: null, error: null, nextAttemptAt: sent.waitUntil } };
  }

  if ("notConfigured" in sent) {
    if (!ownLease) return { attempt: null, change: null, outcome: { ...base, attempt: null, statusCode: null, error: null, ...unchanged } };
    const error = "no callback address configured";
    const change = {
      id: claimed.id,
      state: "NOT_CONFIGURED" as const,
      nextAttemptAt: null,
      lastError: error,
      deliveredAt: null,
      attemptDelta: -1,
      keepError: false,
      waitingSince: null,
      updatedAt: finishedAt,
    };
    return { attempt: null, change, outcome: { ...base, attempt: null, state: "NOT_CONFIGURED", statusCode: null, error, nextAttemptAt: null } };
  }

  const { result } = sent;
  const number = row.recorded + 1;
  const attempt = {
    deliveryId: claimed.id,
    number,
    url: sent.url,
    startedAt,
    durationMs: result.durationMs,
    statusCode: result.statusCode,
    error: result.error,
    responseSnippet: result.responseSnippet,
    signedTimestamp: sent.signedTimestamp,
    signature: sent.signature,
  };
  const outcome = { ...base, attempt: number, statusCode: result.statusCode, error: result.error };
  if (result.ok && (row.state === "PENDING" || row.state === "FAILED")) {
    const change = {
      id: claimed.id,
      state: "SUCCEEDED" as const,
      nextAttemptAt: null,
      lastError: null,
      deliveredAt: finishedAt,
      attemptDelta: 0,
      keepError: false,
      waitingSince: null,
      updatedAt: finishedAt,
    };
    return { attempt, change, outcome: { ...outcome, state: "SUCCEEDED", nextAttemptAt: null } };
  }
  if (result.ok || !ownLease) return { attempt, change: null, outcome: { ...outcome, ...unchanged } };
  const waitMs = nextAttemptDelayMs(claimed.attemptCount, random, { fastRetries: claimed.fastRetries });
  const nextAttemptAt = waitMs === null ? null : later(finishedAt, waitMs);
  const state = waitMs === null ? ("FAILED" as const) : ("PENDING" as const);
  const change = {
    id: claimed.id,
    state,
    nextAttemptAt,
    lastError: result.error,
    deliveredAt: null,
    attemptDelta: 0,
    keepError: false,
    waitingSince: null,
    updatedAt: finishedAt,
  };
  return { attempt, change, outcome: { ...outcome, state, nextAttemptAt } };
}

/**
 * Records the attempts of one batch and moves their deliveries ({@link settlement}), in one short transaction of three
 * statements whatever the batch's size: the rows locked (in id order), the attempts inserted, the deliveries updated.
 * @returns each attempt's outcome by delivery id
 * @throws database errors (nothing is recorded; the leases expire and the attempts are recorded as interrupted).
 */
async function settleBatch(items: readonly SentAttempt[], random: () => number): Promise<Map<string, AttemptOutcome>> {
  if (items.length === 0) return new Map();
  return transaction(async (tx) => {
    const locked = parseRows(
      SettleRow,
      await batchQuery(
        tx,
        items.length,
        Prisma.sql`
      SELECT id, state, lease_until, next_attempt_at, (SELECT count(*)::int FROM delivery_attempts a WHERE a.delivery_id = d.id) AS recorded
      FROM deliveries d WHERE id = ANY(${items.map((i) => i.claimed.id)}::uuid[]) ORDER BY id FOR UPDATE`,
      ),
    );
    const rows = new Map(locked.map((r) => [r.id, r]));
    const settled = items.map((item) => {
      const row = rows.get(item.claimed.id);
      if (!row) throw new Error(`delivery ${item.claimed.id} was attempted and is gone before its attempt is recorded`);
      return settlement(item, row, random);
    });
    const attempts = settled.flatMap((s) => (s.attempt ? [s.attempt] : []));
    const changes = settled.flatMap((s) => (s.change ? [s.change] : []));
    const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
    if (attempts.length > 0) {
      const column = <T>(f: (a: AttemptRow) => T) => attempts.map(f);
      await batchQuery(
        tx,
        attempts.length,
        Prisma.sql`
        INSERT INTO delivery_attempts (id, delivery_id, number, url, started_at, duration_ms, status_code, error, response_snippet, signed_timestamp, signature)
        SELECT gen_random_uuid(), a.*
        FROM unnest(${column((a) => a.deliveryId)}::uuid[], ${column((a) => a.number)}::int[], ${column((a) => a.url)}::text[],
                    ${column((a) => iso(a.startedAt))}::timestamptz[], ${column((a) => a.durationMs)}::int[], ${column((a) => a.statusCode)}::int[],
                    ${column((a) => a.error)}::text[], ${column((a) => a.responseSnippet)}::text[], ${column((a) => a.signedTimestamp)}::text[],
                    ${column((a) => a.signature)}::text[])
          AS a(delivery_id, number, url, started_at, duration_ms, status_code, error, response_snippet, signed_timestamp, signature)`,
      );
    }
    if (changes.length > 0) {
      const column = <T>(f: (c: DeliveryChange) => T) => changes.map(f);
      await batchQuery(
        tx,
        changes.length,
        Prisma.sql`
        UPDATE deliveries d
        SET state = u.state::"DeliveryState", lease_until = NULL, next_attempt_at = u.next_attempt_at,
            last_error = CASE WHEN u.keep_error THEN d.last_error ELSE u.last_error END,
            delivered_at = COALESCE(u.delivered_at, d.delivered_at), attempt_count = d.attempt_count + u.attempt_delta, updated_at = u.updated_at,
            waiting_since = CASE WHEN u.waiting_since IS NULL THEN NULL ELSE COALESCE(d.waiting_since, u.waiting_since) END,
            own_attempt_at = CASE WHEN u.waiting_since IS NULL THEN NULL ELSE COALESCE(d.own_attempt_at, d.next_attempt_at) END,
            attempt_asked = false
        FROM unnest(${column((c) => c.id)}::uuid[], ${column((c) => c.state)}::text[], ${column((c) => iso(c.nextAttemptAt))}::timestamptz[],
                    ${column((c) => c.lastError)}::text[], ${column((c) => iso(c.deliveredAt))}::timestamptz[], ${column((c) => c.attemptDelta)}::int[],
                    ${column((c) => c.updatedAt.toISOString())}::timestamptz[], ${column((c) => c.keepError)}::boolean[],
                    ${column((c) => iso(c.waitingSince))}::timestamptz[])
          AS u(id, state, next_attempt_at, last_error, delivered_at, attempt_delta, updated_at, keep_error, waiting_since)
        WHERE d.id = u.id`,
      );
    }
    return new Map(settled.map((s) => [s.outcome.deliveryId, s.outcome]));
  });
}

/** When the last attempt of a batch had its answer (`performance.now()` ms), filled in by {@link attemptBatch}. */
type BatchTiming = { sendsEndedAt?: number };

/** A promise with its resolve function outside. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * One attempt of each claimed delivery: all sent concurrently, outside any transaction, then recorded together in one
 * transaction ({@link settleBatch}); `timing.sendsEndedAt` is set when the last answer came. Each attempt is a trace
 * span "callback attempt" (docs/operating.md "Traces": delivery, event and merchant ids, the attempt's number, the
 * delivery's state after it and the receiver's status).
 * @returns the outcomes, in the order claimed
 * @throws database errors (a chaos plan's read, the record); send failures never throw.
 */
function attemptBatch(claimed: readonly Claimed[], opts: DeliverOptions, timing: BatchTiming = {}): Promise<AttemptOutcome[]> {
  const slots = claimed.map((c) => ({ c, sent: deferred<SentAttempt | null>() }));
  const probes = new Map<string, Promise<AddressWait | null>>();
  const settled = Promise.all(slots.map((s) => s.sent.promise)).then(async (items) => {
    timing.sendsEndedAt = performance.now();
    const recorded = items.filter((i): i is SentAttempt => i !== null);
    const outcomes = await settleBatch(recorded, opts.random ?? Math.random);
    const waiting = new Map<string, AddressWait>();
    for (const { claimed: c, sent } of recorded)
      if ("waitUntil" in sent && c.callbackUrl) waiting.set(c.callbackUrl, { until: sent.waitUntil, since: sent.since });
    for (const [url, wait] of waiting) {
      await waitWithAddress(url, wait, opts.now ?? systemNow());
      // A probe that connected while this batch recorded its waits released what was written before it: what this
      // batch wrote since is released here (a wait is never left behind an address that listens again). A wait that
      // merely ran out needs no release: its deliveries are due at its end.
      if (!stillRefuses(url)) await releaseWaiting(url);
    }
    return outcomes;
  });
  settled.catch(() => undefined); // every attempt that was sent awaits it and throws its error
  return Promise.all(
    slots.map(({ c, sent: slot }) => {
      const ids = { "sandpiper.delivery_id": c.id, "sandpiper.event_id": c.eventId, "sandpiper.merchant_id": c.merchantId };
      return inSpan("callback attempt", ids, async (span) => {
        let plan: Awaited<ReturnType<typeof pendingChaosPlan>> = null;
        let item: SentAttempt;
        try {
          // Chaos mode: the event's plan, once per delivery; a delay holds the real attempt back (well inside the lease).
          plan = c.chaos && c.callbackSecret ? await pendingChaosPlan(c.id, c.eventId) : null;
          const delayMs = plan?.delayMs;
          if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
          const startedAt = opts.now ?? systemNow();
          const sent = await sendUnlessRefusing(c, startedAt, opts.timeoutMs, probes);
          item = { claimed: c, sent, startedAt, finishedAt: opts.now ?? systemNow() };
          slot.resolve(item);
        } catch (error) {
          slot.resolve(null);
          throw error;
        }
        const outcome = (await settled).get(c.id);
        if (!outcome) throw new Error(`delivery ${c.id} was attempted and its attempt not recorded`);
        // A delivery that waits for its refusing address was not attempted: no log line or metric of an attempt.
        if (!("waitUntil" in item.sent)) await afterAttempt(item, plan, outcome, opts);
        span.setAttributes({ "sandpiper.attempt": outcome.attempt ?? undefined, "sandpiper.delivery_state": outcome.state });
        if (outcome.statusCode != null) span.setAttribute("http.response.status_code", outcome.statusCode);
        return outcome;
      });
    }),
  );
}

/** After an attempt is recorded: chaos mode's extra requests, the log line and the metric. */
async function afterAttempt(item: SentAttempt, plan: Awaited<ReturnType<typeof pendingChaosPlan>>, outcome: AttemptOutcome, opts: DeliverOptions) {
  const { claimed, sent } = item;
  // A plan is read only for a delivery with a secret (attemptBatch), so the secret is there.
  if (plan && claimed.callbackSecret && "target" in sent && sent.target) {
    await injectChaos({
      deliveryId: claimed.id,
      eventId: claimed.eventId,
      merchantId: claimed.merchantId,
      body: claimed.body,
      secret: claimed.callbackSecret,
      previousSecret: claimed.previousCallbackSecret,
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
}

/** Totals of one {@link deliverDueCallbacks} run. */
export type DeliverySummary = { claimed: number; succeeded: number; retrying: number; failed: number; notConfigured: number; outcomes: AttemptOutcome[] };

/**
 * Job body `deliver-due-callbacks` (docs/architecture.md "Consistency": background work claims rows with FOR UPDATE
 * SKIP LOCKED, so any number of processes may run it at once). Repeats: claim a batch of due deliveries
 * (see {@link DeliverOptions}), send their attempts concurrently outside any transaction, record their
 * outcomes in one transaction; until a batch comes back smaller than `limit`, yielding to requests between two
 * (lib/platform/background.ts).
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
    const started = performance.now();
    const claimed = await claim(filter, opts.now ?? systemNow(), limit, opts.leaseMs ?? DEFAULT_LEASE_MS);
    const sending = performance.now();
    const timing: BatchTiming = {};
    const outcomes = await attemptBatch(claimed, opts, timing);
    summary.claimed += claimed.length;
    for (const o of outcomes) {
      summary.outcomes.push(o);
      if (o.state === "SUCCEEDED") summary.succeeded++;
      else if (o.state === "PENDING") summary.retrying++;
      else if (o.state === "FAILED") summary.failed++;
      else summary.notConfigured++;
    }
    if (claimed.length < limit) return summary;
    // The time the receivers took to answer is spent on their side, not this process's: it does not count against
    // the background share (docs/architecture.md "Jobs").
    await yieldToRequests(started + ((timing.sendsEndedAt ?? sending) - sending));
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
  if (claimed) {
    const [outcome] = await attemptBatch([claimed], opts);
    if (!outcome) throw new Error(`delivery ${deliveryId} was attempted and gave no outcome`);
    return { claimed: true, ...outcome };
  }
  const row = await getDb().delivery.findUnique({ where: { id: deliveryId }, select: { state: true, nextAttemptAt: true, leaseUntil: true } });
  if (!row) return { claimed: false, deliveryId, state: null, nextAttemptAt: null };
  const times = [row.nextAttemptAt, row.leaseUntil].filter((t): t is Date => t !== null && row.state === "PENDING");
  const nextAttemptAt = times.length ? new Date(Math.max(...times.map((t) => t.getTime()))) : null;
  return { claimed: false, deliveryId, state: row.state, nextAttemptAt };
}
