// The store handoff job (docs/api.md "Overview" 4; docs/architecture.md "Consistency": background work claims
// rows with FOR UPDATE SKIP LOCKED, nothing is sent inside a transaction).
import { z } from "zod";
import { realAt, sandboxInstant, sandboxNow, systemNow, type RealInstant } from "@/lib/platform/clock";
import { yieldToRequests } from "@/lib/platform/background";
import { getDb, parseRows, transaction, type Tx } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { fromMinor } from "@/lib/contract/money/currency";
import { applyTransition, lockPayment } from "@/lib/domain/payments/transitions";
import { getSettings } from "@/lib/domain/settings/service-settings";
import { storeClosure, storeOpenSql } from "@/lib/simulators/store/availability";
import type { StoredLines } from "@/lib/simulators/store/store-view";
import {
  MAX_DISCOUNT_BPS,
  STORE_TOKEN_PATTERN,
  type HandoffAnswer,
  type HandoffPayload,
  type SignedHandoff,
  type StoreConnector,
  type StoreLine,
} from "@/lib/simulators/test-store/connector";
import { handoffKey, signHandoff } from "@/lib/simulators/test-store/handoff-signing";
import { SandboxStore } from "@/lib/simulators/test-store/sandbox-store";

/** How long a claimed checkout belongs to its worker before another may take it over: 30 s. */
export const HANDOFF_LEASE_MS = 30_000;
/** Longest wait for the store's answer: 10 s (a slower answer counts as a transient failure). */
export const HANDOFF_TIMEOUT_MS = 10_000;
/** Longest wait between retries: 60 s. */
export const MAX_HANDOFF_RETRY_MS = 60_000;

/**
 * Wait before the next handoff after failed attempt `attempt` (1-based): 1 s, 2 s, 4 s, ... capped at
 * 60 s. Retries go on until the payment's acceptance period ends (the checkout then expires with it).
 */
export function handoffRetryDelayMs(attempt: number): number {
  return Math.min(1000 * 2 ** Math.max(attempt - 1, 0), MAX_HANDOFF_RETRY_MS);
}

let defaultConnector: StoreConnector | undefined;
/** The connected store of this service: the sandbox store (the one place lib/simulators/store names it; everything else goes through StoreConnector). */
export function storeConnector(): StoreConnector {
  defaultConnector ??= new SandboxStore();
  return defaultConnector;
}

export type HandoffOptions = { now?: RealInstant; connector?: StoreConnector };

/** What became of one claimed checkout. */
export type HandoffOutcome = "READY" | "REJECTED" | "RETRY" | "DISCARDED";

/** A claimed checkout: its payment, the attempt count the claim raised, and its merchant's sandbox clock offset (ms). */
type Claim = { paymentId: string; attempt: number; offsetMs: bigint };
/** A checkout {@link claimDue} claimed: its payment, the attempt count the claim raised and the merchant's clock offset. */
const ClaimedCheckout = z.object({ paymentId: z.string(), handoffAttempts: z.number().int(), offsetMs: z.bigint() });

/**
 * Claims due QUEUED checkouts in one short transaction (FOR UPDATE OF the checkout SKIP LOCKED): the
 * payment is PENDING and not past expiresAt, nextHandoffAt has come. Both are read at the merchant's sandbox time
 * (docs/api.md "Sandbox clock": a checkout created under a moved clock carries that clock's times), so a checkout
 * created under a clock moved ahead is due at once, as under the real clock. Each claim counts an attempt and
 * leases the row for 30 s (nextHandoffAt = the merchant's now + lease); the attempt number is the claim's token.
 * Nothing is claimed while the operator's store switches are off, read in the claim's own snapshot: a checkout
 * committed together with the switch that closes the store is never seen with the store open.
 */
async function claimDue(now: Date, limit: number, paymentId?: string): Promise<Claim[]> {
  const only = paymentId ?? null;
  const rows = await transaction(
    (tx) => tx.$queryRaw<Record<string, unknown>[]>`
    UPDATE store_checkouts sc
    SET handoff_attempts = sc.handoff_attempts + 1,
        next_handoff_at = ${now}::timestamptz + (due.offset_ms + ${HANDOFF_LEASE_MS}) * interval '1 millisecond', updated_at = ${now}
    FROM (
      SELECT c.payment_id, m.clock_offset_ms AS offset_ms FROM store_checkouts c JOIN payments p ON p.id = c.payment_id
        JOIN merchants m ON m.id = p.merchant_id
      WHERE c.state = 'QUEUED'
        AND (c.next_handoff_at IS NULL OR c.next_handoff_at <= ${now}::timestamptz + m.clock_offset_ms * interval '1 millisecond')
        AND p.status = 'PENDING' AND p.expires_at > ${now}::timestamptz + m.clock_offset_ms * interval '1 millisecond'
        AND (${only}::uuid IS NULL OR c.payment_id = ${only}::uuid)
        AND ${storeOpenSql()}
      ORDER BY c.next_handoff_at NULLS FIRST LIMIT ${limit}
      FOR UPDATE OF c SKIP LOCKED
    ) due
    WHERE sc.payment_id = due.payment_id
    RETURNING sc.payment_id AS "paymentId", sc.handoff_attempts AS "handoffAttempts", due.offset_ms AS "offsetMs"`,
  );
  return parseRows(ClaimedCheckout, rows).map((r) => ({ paymentId: r.paymentId, attempt: r.handoffAttempts, offsetMs: r.offsetMs }));
}

/** The signed handoff of a claimed checkout; issuedAt is the wall-clock time of signing (the store checks freshness against it). */
async function buildHandoff(paymentId: string) {
  const db = getDb();
  const payment = await db.payment.findUniqueOrThrow({ where: { id: paymentId }, include: { storeCheckout: true } });
  const checkout = payment.storeCheckout;
  if (!checkout) throw new Error(`payment ${paymentId} has no store checkout to hand off`);
  const payload: HandoffPayload = {
    v: 1,
    reference: payment.reference,
    paymentId: payment.id,
    chargeMinor: checkout.chargeMinor.toString(),
    chargeAmount: fromMinor(checkout.chargeMinor),
    chargeCurrency: "AED",
    amount: fromMinor(payment.amountMinor),
    currency: payment.currency,
    expiresAt: checkout.expiresAt.toISOString(),
    issuedAt: systemNow().toISOString(),
  };
  return { signed: await signHandoff(payload, await handoffKey(db)), chargeMinor: checkout.chargeMinor };
}

/** Sends the handoff and waits at most HANDOFF_TIMEOUT_MS; a thrown error or time-out is transient. */
async function send(connector: StoreConnector, signed: SignedHandoff): Promise<HandoffAnswer | { outcome: "FAILED"; error: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      connector.handoff(signed),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${HANDOFF_TIMEOUT_MS} ms`)), HANDOFF_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    return { outcome: "FAILED", error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks a READY answer before anything is written (docs/api.md "Overview" 4: subtotal minus discount equals the locked
 * charge; docs/api.md "Overview" 6 and Limits: list prices, one discount of at most 20 percent of the list total).
 * @returns null when consistent, else what is wrong
 */
export function readyAnswerProblem(answer: Extract<HandoffAnswer, { outcome: "READY" }>, chargeMinor: bigint): string | null {
  if (!STORE_TOKEN_PATTERN.test(answer.token)) return "token is not 32 random bytes in base64url";
  if (answer.lines.length === 0) return "no lines";
  let subtotal = 0n;
  for (const line of answer.lines) {
    if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.unitPriceMinor <= 0n) return `line ${line.sku}: quantity or price out of range`;
    subtotal += line.unitPriceMinor * BigInt(line.quantity);
  }
  if (subtotal !== answer.subtotalMinor) return "subtotal is not the sum of the lines";
  if (answer.subtotalMinor - answer.discountMinor !== chargeMinor) return "subtotal - discount is not the locked charge";
  if (answer.discountMinor < 0n || answer.discountMinor * 10_000n > answer.subtotalMinor * BigInt(MAX_DISCOUNT_BPS))
    return "discount outside 0..20% of the subtotal";
  if (answer.matchType !== "DISCOUNTED_BASKET" && answer.discountMinor !== 0n) return "an exact match carries a discount";
  return null;
}

const linesJson = (lines: StoreLine[]): z.input<typeof StoredLines> =>
  lines.map((l) => ({ sku: l.sku, name: l.name, kind: l.kind, unitPriceMinor: l.unitPriceMinor.toString(), quantity: l.quantity }));

/**
 * Applies the store's answer to a claimed checkout in one transaction (payment locked first, as the
 * expiry sweep does). Only the claim holder applies (state QUEUED, same attempt number) and only while the
 * payment is PENDING and not past expiresAt; otherwise the answer is discarded.
 * READY -> checkout READY with token, lines and figures; REJECTED -> checkout REJECTED with the error and
 * the payment FAILED (applyTransition "fail": limits released, payment.failed event).
 */
async function applyAnswer(claim: Claim, answer: Extract<HandoffAnswer, { outcome: "READY" | "REJECTED" }>, now: Date): Promise<HandoffOutcome> {
  return transaction(async (tx) => {
    const payment = await lockPayment(tx, null, claim.paymentId);
    const checkout = payment.storeCheckout;
    const current =
      checkout?.state === "QUEUED" && checkout.handoffAttempts === claim.attempt && payment.status === "PENDING" && (payment.expiresAt ?? now) > now;
    if (!current) return "DISCARDED";
    if (answer.outcome === "READY") {
      await tx.storeCheckout.update({
        where: { paymentId: payment.id },
        data: {
          state: "READY",
          token: answer.token,
          matchType: answer.matchType,
          lines: linesJson(answer.lines),
          subtotalMinor: answer.subtotalMinor,
          discountMinor: answer.discountMinor,
          error: null,
          nextHandoffAt: null,
          updatedAt: now,
        },
      });
      return "READY";
    }
    await tx.storeCheckout.update({ where: { paymentId: payment.id }, data: { state: "REJECTED", error: answer.error, nextHandoffAt: null, updatedAt: now } });
    await applyTransition(tx, payment, "fail", { now });
    return "REJECTED";
  });
}

/** Schedules the next attempt of a claimed checkout (only while the claim is still the holder's). */
async function scheduleRetry(tx: Tx, claim: Claim, now: Date): Promise<Date> {
  const next = new Date(now.getTime() + handoffRetryDelayMs(claim.attempt));
  await tx.storeCheckout.updateMany({
    where: { paymentId: claim.paymentId, state: "QUEUED", handoffAttempts: claim.attempt },
    data: { nextHandoffAt: next, updatedAt: now },
  });
  return next;
}

/**
 * Hands off one claimed checkout: sign, send outside any transaction, check, apply or schedule a retry. `real` is the
 * real time of the run; the checkout's rules (expiry, retry times) read the merchant's sandbox time.
 */
async function handOff(claim: Claim, connector: StoreConnector, real: RealInstant): Promise<HandoffOutcome> {
  const now = sandboxNow(claim.offsetMs, real);
  const { signed, chargeMinor } = await buildHandoff(claim.paymentId);
  const answer = await send(connector, signed);
  const problem =
    answer.outcome === "FAILED"
      ? answer.error
      : answer.outcome === "REFUSED"
        ? `store refused the handoff: ${answer.reason}`
        : answer.outcome === "READY"
          ? readyAnswerProblem(answer, chargeMinor)
          : null;
  if (problem !== null || answer.outcome === "FAILED" || answer.outcome === "REFUSED") {
    const next = await transaction((tx) => scheduleRetry(tx, claim, now));
    log.warn({ paymentId: claim.paymentId, attempt: claim.attempt, problem, nextHandoffAt: next.toISOString() }, "store handoff failed; retrying");
    return "RETRY";
  }
  const outcome = await applyAnswer(claim, answer, now);
  log.info({ paymentId: claim.paymentId, attempt: claim.attempt, outcome }, "store handoff");
  return outcome;
}

export type HandoffRun = { held: boolean; claimed: number; ready: number; rejected: number; retried: number; discarded: number };

function tally(outcomes: HandoffOutcome[], held = false): HandoffRun {
  const count = (o: HandoffOutcome) => outcomes.filter((x) => x === o).length;
  return { held, claimed: outcomes.length, ready: count("READY"), rejected: count("REJECTED"), retried: count("RETRY"), discarded: count("DISCARDED") };
}

/**
 * Job body `store-handoffs`: hands off every due QUEUED store checkout, in batches of `batchSize`
 * (default 10), each with a freshly signed handoff. Several processes may run it at once (claims use
 * FOR UPDATE SKIP LOCKED and a lease). While the operator's store switches are off (STORE_DISABLED or
 * STORE_UNAVAILABLE) nothing is claimed: checkouts stay QUEUED, no attempt is counted (`held: true`).
 * @returns counts of the run
 */
export async function runStoreHandoffs(opts: HandoffOptions & { batchSize?: number } = {}): Promise<HandoffRun> {
  if (storeClosure(await getSettings(getDb()))) return tally([], true);
  const connector = opts.connector ?? storeConnector();
  const batchSize = opts.batchSize ?? 10;
  const outcomes: HandoffOutcome[] = [];
  for (;;) {
    // A fresh clock per batch: a lease is always counted from its own claim.
    const now = opts.now ?? systemNow();
    const started = performance.now();
    const claims = await claimDue(now, batchSize);
    for (const claim of claims) outcomes.push(await handOff(claim, connector, now));
    if (claims.length < batchSize) return tally(outcomes);
    await yieldToRequests(started);
  }
}

/**
 * Hands off one store checkout now if it is due (the Inngest function of a `store-handoff.due` event and
 * tests). Same rules as runStoreHandoffs.
 * @returns the outcome (null when nothing was claimed: not due, not QUEUED, claimed elsewhere or store
 *   switched off), the checkout's state afterwards and its next handoff time
 */
export async function handOffCheckout(paymentId: string, opts: HandoffOptions = {}) {
  const now = opts.now ?? systemNow();
  const closed = storeClosure(await getSettings(getDb())) !== null;
  const [claim] = closed ? [] : await claimDue(now, 1, paymentId);
  const outcome = claim ? await handOff(claim, opts.connector ?? storeConnector(), now) : null;
  const checkout = await getDb().storeCheckout.findUnique({
    where: { paymentId },
    select: { state: true, nextHandoffAt: true, payment: { select: { merchant: { select: { clockOffsetMs: true } } } } },
  });
  // The next handoff in real time (a moved clock's checkout carries sandbox times): when the job should look again.
  const next =
    checkout?.state === "QUEUED" && checkout.nextHandoffAt ? realAt(checkout.payment.merchant.clockOffsetMs, sandboxInstant(checkout.nextHandoffAt)) : null;
  return { outcome, state: checkout?.state ?? null, nextHandoffAt: next };
}
