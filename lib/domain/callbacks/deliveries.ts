// Console operations on callback deliveries: list, read with attempts, requeue, send a test event.
// docs/callbacks.md (NOT_CONFIGURED and FAILED deliveries can be requeued) and docs/architecture.md "Callbacks".
import { systemNow } from "@/lib/platform/clock";
import { z } from "zod";
import { afterCommit, IdRow, parseRow, parseRows, withTransaction, Prisma, type Db, type Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { recordEvent } from "@/lib/domain/events/outbox";
import { callbackHeaderNames } from "@/lib/contract/callbacks/signing";
import { DeliveryState } from "@/lib/platform/generated/prisma/enums";
import { announce, wakeCatchUp } from "@/lib/domain/notify/announce";
import { DELIVERY_DUE } from "@/lib/domain/notify/due-events";
import type { Payment as PaymentResource } from "@/lib/contract/schemas/api/payment-resource";
import { dubaiDayEnd, dubaiDayStart, isValidDay } from "@/lib/contract/money/dubai";
import { isUuid } from "@/lib/contract/schemas/api/common";
import { pageOf, type Page } from "@/lib/contract/pagination";

export const DELIVERY_STATES = ["PENDING", "SUCCEEDED", "FAILED", "NOT_CONFIGURED"] as const satisfies readonly DeliveryState[];

/**
 * `data.id` of every test event: the nil UUID, never the id of a payment (payment ids are random v4).
 * Being inside the signed body, it is the reliable way for a receiver to recognise a test event.
 */
export const TEST_EVENT_PAYMENT_ID = "00000000-0000-0000-0000-000000000000";
/** `data.reference` of every test event. */
export const TEST_EVENT_REFERENCE = "sandpiper-test-event";

/**
 * `X-<Name>-Test`: unsigned hint header sent (value "true") with a console test event. A receiver must not
 * rely on it alone (it is outside the signature); the signed marker is `data.id` = {@link TEST_EVENT_PAYMENT_ID}.
 */
export function testEventHeaderName(): string {
  return callbackHeaderNames().eventId.replace(/-Event-Id$/, "-Test");
}

/** One row of {@link listDeliveries}. */
export type DeliveryRow = {
  id: string;
  eventId: string;
  /** payment.succeeded, payment.failed or payment.expired. */
  eventType: string;
  /** The payment the event is about; null for a test event. */
  paymentId: string | null;
  /** True for an event sent with {@link sendTestEvent}. */
  test: boolean;
  merchantId: string;
  merchantName: string;
  state: DeliveryState;
  /** Attempts in the current round (at most 8; a requeue starts a new round). */
  attemptCount: number;
  /** Attempts recorded over the delivery's whole life (all rounds). */
  attempts: number;
  nextAttemptAt: Date | null;
  /** While the delivery waits for its address: the real time the address's refusals in a row began (docs/callbacks.md). */
  waitingSince: Date | null;
  lastError: string | null;
  deliveredAt: Date | null;
  /** The merchant's clock when the event happened (a sandbox time under a moved clock). */
  createdAt: Date;
  /** The real time the delivery was written; null for deliveries from before it was kept. */
  recordedAt: Date | null;
};

function assertUuid(id: string, what: string): void {
  if (!isUuid(id)) throw apiError("VALIDATION_ERROR", `${what} must be a UUID`);
}

/**
 * A page of deliveries, newest first in the order they were written (console "Callbacks" list), each with its
 * `createdAt` (the merchant's clock) and `recordedAt` (the real time it was written; null before it was kept).
 * @param input.merchantId the merchant whose deliveries are listed; null = operator view, all merchants.
 * @param input.state optional filter.
 * @param input.endedOn optional Dubai day (YYYY-MM-DD) on which the delivery reached its current state (the day the
 *   console's callbacks chart counts it under); only meaningful with a final state.
 * @param input.attempts optional: "first" = at most one attempt in its round, "retried" = more than one.
 * @param input.path optional: "listener" = FAILED or NOT_CONFIGURED deliveries of events a `sandpiper listen` process
 *   delivered (what the callbacks chart counts as received through the listener); "address" = the others.
 * @param input.page 1-based page; input.limit 1 to 100 rows per page (docs/api.md "Limits").
 * @returns `{ items, total, page, limit, pages }` (lib/contract/pagination.ts).
 * @throws ApiError 400 VALIDATION_ERROR for an unknown state or a page/limit out of range.
 */
/** A listener forward attempt that the receiver answered 2xx. */
const LISTENER_2XX = { statusCode: { gte: 200, lte: 299 } } satisfies Prisma.ListenerForwardWhereInput;

export async function listDeliveries(
  db: Db,
  input: {
    merchantId: string | null;
    state?: DeliveryState;
    endedOn?: string;
    attempts?: "first" | "retried";
    path?: "listener" | "address";
    page: number;
    limit: number;
  },
): Promise<Page<DeliveryRow>> {
  const { merchantId, state, endedOn, attempts, path, page, limit } = input;
  if (!Number.isInteger(page) || page < 1) throw apiError("VALIDATION_ERROR", "page must be an integer >= 1");
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw apiError("VALIDATION_ERROR", "limit must be an integer from 1 to 100");
  if (state !== undefined && !DELIVERY_STATES.includes(state)) throw apiError("VALIDATION_ERROR", `state must be one of ${DELIVERY_STATES.join(", ")}`);
  if (endedOn !== undefined && !isValidDay(endedOn)) throw apiError("VALIDATION_ERROR", "endedOn must be a day YYYY-MM-DD");
  if (merchantId !== null && !isUuid(merchantId)) return pageOf([], 0, { page, limit });
  const where: Prisma.DeliveryWhereInput = {
    ...(merchantId !== null ? { merchantId } : {}),
    ...(state ? { state } : {}),
    ...(endedOn ? { updatedAt: { gte: dubaiDayStart(endedOn), lt: dubaiDayEnd(endedOn) } } : {}),
    ...(attempts === "first" ? { attemptCount: { lte: 1 } } : attempts === "retried" ? { attemptCount: { gt: 1 } } : {}),
    ...(path === "listener" ? { AND: [{ state: { in: ["FAILED", "NOT_CONFIGURED"] } }, { event: { forwards: { some: LISTENER_2XX } } }] } : {}),
    ...(path === "address" ? { event: { forwards: { none: LISTENER_2XX } } } : {}),
  };
  const [total, found] = await Promise.all([
    db.delivery.count({ where }),
    db.delivery.findMany({
      where,
      // The order they were written in, on the real clock: created_at is a sandbox time under a moved clock
      // (docs/operating.md "Times in the console"); rows from before recorded_at was kept come last.
      orderBy: [{ recordedAt: { sort: "desc", nulls: "last" } }, { createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * limit,
      take: limit,
      include: {
        event: { select: { type: true, paymentId: true, merchant: { select: { name: true } } } },
        _count: { select: { attempts: true } },
      },
    }),
  ]);
  const rows = found.map((d) => ({
    id: d.id,
    eventId: d.eventId,
    eventType: d.event.type,
    paymentId: d.event.paymentId,
    test: d.event.paymentId === null,
    merchantId: d.merchantId,
    merchantName: d.event.merchant.name,
    state: d.state,
    attemptCount: d.attemptCount,
    attempts: d._count.attempts,
    nextAttemptAt: d.nextAttemptAt,
    waitingSince: d.state === "PENDING" ? d.waitingSince : null,
    lastError: d.lastError,
    deliveredAt: d.deliveredAt,
    createdAt: d.createdAt,
    recordedAt: d.recordedAt,
  }));
  return pageOf(rows, total, { page, limit });
}

/**
 * One delivery with its event body (and the merchant's fast retries setting), every recorded attempt (oldest first: number, url, startedAt, durationMs,
 * statusCode, error, responseSnippet, signedTimestamp, signature) and the requests chaos mode added to it.
 * @param input.merchantId the merchant that must own the delivery; null = operator.
 * @throws ApiError 404 NOT_FOUND for a malformed, unknown or another merchant's delivery id.
 */
export async function getDelivery(db: Db, input: { merchantId: string | null; deliveryId: string }) {
  const found = isUuid(input.deliveryId)
    ? await db.delivery.findFirst({
        where: { id: input.deliveryId, ...(input.merchantId !== null ? { merchantId: input.merchantId } : {}) },
        include: {
          event: { include: { merchant: { select: { fastRetries: true } } } },
          attempts: { orderBy: { number: "asc" } },
          injections: { orderBy: { sentAt: "asc" } },
        },
      })
    : null;
  if (!found) throw apiError("NOT_FOUND", "delivery not found");
  return found;
}

/**
 * Requeues FAILED and NOT_CONFIGURED deliveries (docs/callbacks.md: "can be requeued from the console after
 * an address is set"): they become PENDING, due now, with a new round of up to 8 attempts (attemptCount
 * back to 0; recorded attempts are kept and numbered on). Only deliveries of merchants that now have a
 * callback address change; others are left as they are. Requeued deliveries are announced after commit.
 *
 * @param input.merchantId only this merchant's deliveries; null = operator, all merchants.
 * @param input.deliveryIds only these deliveries (others' ids are silently not touched); omitted = every
 *   FAILED or NOT_CONFIGURED delivery in scope.
 * @param input.now time the deliveries become due (default now).
 * @returns the number of deliveries requeued.
 * @throws ApiError 400 VALIDATION_ERROR when a delivery id is not a UUID.
 */
export async function requeueDeliveries(db: Db, input: { merchantId: string | null; deliveryIds?: string[]; now?: Date }): Promise<number> {
  const now = input.now ?? systemNow();
  if (input.merchantId !== null && !isUuid(input.merchantId)) return 0;
  for (const id of input.deliveryIds ?? []) assertUuid(id, "delivery id");
  if (input.deliveryIds && input.deliveryIds.length === 0) return 0;
  const byMerchant = input.merchantId !== null ? Prisma.sql`AND d.merchant_id = ${input.merchantId}::uuid` : Prisma.empty;
  const byId = input.deliveryIds ? Prisma.sql`AND d.id = ANY(${input.deliveryIds}::uuid[])` : Prisma.empty;
  return withTransaction(db, async (tx) => {
    const requeued = parseRows(
      IdRow,
      await tx.$queryRaw<Record<string, unknown>[]>`
      UPDATE deliveries d
      SET state = 'PENDING', next_attempt_at = ${now}, attempt_count = 0, lease_until = NULL, updated_at = ${now}
      FROM merchants m
      WHERE m.id = d.merchant_id AND m.callback_url IS NOT NULL
        AND d.state IN ('FAILED', 'NOT_CONFIGURED') ${byMerchant} ${byId}
      RETURNING d.id`,
    );
    const ids = requeued.map((r) => r.id);
    afterCommit(tx, () =>
      announce(
        DELIVERY_DUE,
        ids.map((deliveryId) => ({ deliveryId })),
      ),
    );
    return ids.length;
  });
}

/** `POST /v1/sandbox/deliveries/{id}/attempt` answer (docs/api.md "Test helpers"). */
export type SandboxDelivery = {
  id: string;
  eventId: string;
  state: DeliveryState;
  /** Attempts in the current round (at most MAX_ATTEMPTS). */
  attemptCount: number;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  lastError: string | null;
  /** The merchant's fast retries setting (docs/callbacks.md "Fast retries"). */
  fastRetries: boolean;
};

/** A delivery {@link attemptDeliveryNow} locked: its state, when it is due and its event. */
const LockedDelivery = z.object({ state: z.enum(DeliveryState), nextAttemptAt: z.date().nullable(), eventId: z.string() });

/** Why a delivery in a final state has no next attempt, and what sends the event again. */
const NO_NEXT_ATTEMPT: Partial<Record<DeliveryState, string>> = {
  SUCCEEDED: "this delivery was already delivered (your receiver answered 2xx); to send the event again use POST /v1/events/{eventId}/redeliver",
  FAILED:
    "this delivery failed all 8 attempts of its round; requeue it in the console (Callbacks) or send the event again with POST /v1/events/{eventId}/redeliver",
  NOT_CONFIGURED:
    "this delivery has no callback address (none was configured when it was due); set one in the console (Callbacks), then requeue it there or use POST /v1/events/{eventId}/redeliver",
};

/**
 * Test helper `POST /v1/sandbox/deliveries/{id}/attempt` and the console's "Attempt now" (docs/api.md "Test helpers"):
 * runs the next attempt of a PENDING delivery (first attempt or a retry) now instead of at its scheduled time, even
 * while its address is known to refuse connections (docs/callbacks.md "An address that refuses connections"). In the
 * caller's transaction the row is locked and made due now, exactly as a requeue makes a delivery due, and the delivery worker is told
 * after commit (`announce(DELIVERY_DUE, ...)`); the attempt itself is the worker's (lib/domain/callbacks/deliver.ts), with its
 * signing, address checks, attempt record and retry schedule. An attempt already running (leased) is left to end.
 * @returns the delivery as it is now (state PENDING, nextAttemptAt now)
 * @throws ApiError 404 NOT_FOUND for a malformed, unknown or another merchant's id; 409 INVALID_STATE for a
 *   SUCCEEDED, FAILED or NOT_CONFIGURED delivery (the message says what to do instead)
 */
export async function attemptDeliveryNow(tx: Tx, input: { merchantId: string; deliveryId: string }): Promise<SandboxDelivery> {
  const { merchantId, deliveryId } = input;
  // Deliveries run on the real clock, whatever the merchant's sandbox clock (docs/decisions/0150-one-source-of-now.md).
  const now = systemNow();
  const [locked] = isUuid(deliveryId)
    ? parseRows(
        LockedDelivery,
        await tx.$queryRaw<Record<string, unknown>[]>`
        SELECT state, next_attempt_at, event_id FROM deliveries WHERE id = ${deliveryId}::uuid AND merchant_id = ${merchantId}::uuid FOR UPDATE`,
      )
    : [];
  if (!locked) throw apiError("NOT_FOUND", "delivery not found");
  const refusal = NO_NEXT_ATTEMPT[locked.state];
  if (refusal) throw apiError("INVALID_STATE", refusal.replace("{eventId}", locked.eventId));
  // Asked for: the next claim sends it even while its address is known to refuse connections, and it no longer
  // waits for that address (docs/callbacks.md "An address that refuses connections").
  const dueNow = locked.nextAttemptAt === null || locked.nextAttemptAt > now ? { nextAttemptAt: now } : {};
  await tx.delivery.update({ where: { id: deliveryId }, data: { ...dueNow, attemptAsked: true, waitingSince: null, ownAttemptAt: null, updatedAt: now } });
  afterCommit(tx, () => announce(DELIVERY_DUE, [{ deliveryId }]));
  const d = await tx.delivery.findUniqueOrThrow({ where: { id: deliveryId }, include: { event: { select: { merchant: { select: { fastRetries: true } } } } } });
  return {
    id: d.id,
    eventId: d.eventId,
    state: d.state,
    attemptCount: d.attemptCount,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    lastError: d.lastError,
    fastRetries: d.event.merchant.fastRetries,
  };
}

/**
 * Sends a test event to the merchant's callback address, signed and delivered exactly like a real event
 * (same envelope, headers, retries and attempt records). Only the three payment event types,
 * so a test event is `payment.succeeded` about a synthetic payment: `data.id` is the nil UUID
 * {@link TEST_EVENT_PAYMENT_ID}, `data.reference` is {@link TEST_EVENT_REFERENCE}, amount 1.00 USD,
 * environment sandbox. A receiver following the contract's rule 2 (compare with its own record) finds no such
 * order; one that wants to be explicit checks `data.id` (signed). The request also carries the unsigned
 * hint header `X-<Name>-Test: true`. The event is stored without a payment (listed with `test: true`).
 *
 * @returns `{ eventId, deliveryId }` of the PENDING delivery (sent after commit by the job driver).
 * @throws ApiError 404 NOT_FOUND for an unknown merchant; 409 INVALID_STATE when no callback address is set.
 */
export async function sendTestEvent(db: Db, input: { merchantId: string; now?: Date }): Promise<{ eventId: string; deliveryId: string }> {
  const now = input.now ?? systemNow();
  const merchant = isUuid(input.merchantId) ? await db.merchant.findUnique({ where: { id: input.merchantId }, select: { id: true, callbackUrl: true } }) : null;
  if (!merchant) throw apiError("NOT_FOUND", "merchant not found");
  if (!merchant.callbackUrl) throw apiError("INVALID_STATE", "set a callback address before sending a test event");
  const data: PaymentResource = {
    id: TEST_EVENT_PAYMENT_ID,
    merchantId: merchant.id,
    reference: TEST_EVENT_REFERENCE,
    amount: "1.00",
    fee: "0.00",
    currency: "USD",
    method: "GATEWAY",
    direction: "DEPOSIT",
    environment: "sandbox",
    status: "SUCCEEDED",
    pricing: null,
    bankAccountId: null,
    createdAt: now.toISOString(),
    expiresAt: null,
    approvedAt: null,
    finalizedAt: now.toISOString(),
  };
  return withTransaction(db, async (tx) => {
    const recorded = await recordEvent(tx, { merchantId: merchant.id, paymentId: null, type: "payment.succeeded", data, now });
    // The address was removed meanwhile: roll back rather than store a test event nobody can receive.
    if (recorded.state !== "PENDING") throw apiError("INVALID_STATE", "set a callback address before sending a test event");
    return { eventId: recorded.eventId, deliveryId: recorded.deliveryId };
  });
}

/** How many deliveries {@link advanceDeliveries} moved, and how many of them are due now. */
const MovedDeliveries = z.object({ moved: z.number().int(), due: z.number().int() });

/**
 * The sandbox clock moved a merchant's time ahead by `byMs` (docs/api.md "Sandbox clock"): each of its PENDING
 * deliveries waiting for a retry comes `byMs` sooner (at the earliest now), as if that time had gone by, in one
 * statement whatever their number; after commit the delivery catch-up job is woken, and it sends what is due in its
 * own batches. Deliveries run on the real clock, so this is the one way a clock move reaches them.
 * @returns how many deliveries are due now.
 */
export async function advanceDeliveries(tx: Tx, input: { merchantId: string; byMs: bigint }): Promise<number> {
  const now = systemNow();
  const [row] = await tx.$queryRaw<Record<string, unknown>[]>`
    WITH moved AS (
      UPDATE deliveries
      SET next_attempt_at = GREATEST(next_attempt_at - ${input.byMs.toString()}::bigint * interval '1 millisecond', ${now}::timestamptz), updated_at = ${now}
      WHERE merchant_id = ${input.merchantId}::uuid AND state = 'PENDING' AND next_attempt_at IS NOT NULL AND next_attempt_at > ${now}
      RETURNING next_attempt_at <= ${now} AS due
    )
    SELECT count(*)::int AS moved, (count(*) FILTER (WHERE due))::int AS due FROM moved`;
  const counts = parseRow(MovedDeliveries, row);
  if (counts.due > 0) afterCommit(tx, () => wakeCatchUp(DELIVERY_DUE));
  return counts.due;
}
