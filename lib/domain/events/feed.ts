// The merchant's events as a readable feed (docs/callbacks.md "Events API"): the newest-first list, the
// commit-ordered cursor (`after`), one event with its deliveries, redelivery, and the items that listeners
// follow. Every event and every redelivery has a position `seq` assigned at COMMIT (prisma/migrations/20261124055000_database_guards/migration.sql
// event_feed_assign_seq), so reading `seq > n` never skips a transaction that committed late.
import { systemNow } from "@/lib/platform/clock";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { afterCommit, parseRow, parseRows, Prisma, type Db, type Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { chaosPlan, type ChaosPlan } from "@/lib/contract/callbacks/chaos";
import type { EventType } from "@/lib/domain/events/outbox";
import { EVENT_TYPES, EventEnvelope as EventEnvelopeSchema } from "@/lib/contract/schemas/api/events";
import { addressWaitText } from "@/lib/contract/callbacks/retry-schedule";
import { parseStored } from "@/lib/contract/schemas/stored/parse";
import { notifyFeed } from "@/lib/domain/events/feed-notify";
import { forwardsOf, type ListenerForwardView } from "@/lib/domain/events/listener-forwards";
import { DeliveryState } from "@/lib/platform/generated/prisma/enums";
import { announce } from "@/lib/domain/notify/announce";
import { DELIVERY_DUE } from "@/lib/domain/notify/due-events";
import { dubaiDayEnd, dubaiDayStart } from "@/lib/contract/money/dubai";
import { isUuid } from "@/lib/contract/schemas/api/common";
import type { Payment as PaymentResource } from "@/lib/contract/schemas/api/payment-resource";
import { pageOf } from "@/lib/contract/pagination";

/** The callback envelope exactly as delivered: `{ id, type, createdAt, data }` (docs/guides/receive-and-verify-callbacks.md "Receiving callbacks"). */
export type EventEnvelope = { id: string; type: EventType; createdAt: string; data: PaymentResource };

/** One attempt of a delivery, as the Events API shows it (times ISO 8601, duration in milliseconds). */
export type EventAttempt = { number: number; startedAt: string; durationMs: number; statusCode: number | null; error: string | null };

/** One delivery of an event to the configured address: the first, or one made by a redelivery. */
export type EventDelivery = {
  id: string;
  state: DeliveryState;
  redelivery: boolean;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
  /** Present while the delivery waits for its address: `address refused connections since <time>` (docs/callbacks.md). */
  waiting?: string;
  attempts: EventAttempt[];
};

/** A list item: the envelope plus the state of its latest delivery. */
export type EventSummary = EventEnvelope & { delivery: { state: DeliveryState; deliveries: number } };
/** One event: the envelope plus every delivery with its attempts (oldest first), and its listener forwards. */
export type EventDetail = EventEnvelope & { delivery: { state: DeliveryState; deliveries: EventDelivery[] }; forwards: ListenerForwardView[] };

/** Query of `GET /v1/events` after validation (lib/contract/schemas/api/events.ts). */
export type ListEventsInput = {
  page: number;
  limit: number;
  type?: EventType;
  paymentId?: string;
  from?: string;
  to?: string;
  after?: string;
};

/** A list row of {@link listEvents}: the event, its feed position, its latest delivery's state and its number of deliveries. */
const EventRow = z.object({ id: z.string(), body: z.string(), seq: z.bigint(), state: z.enum(DeliveryState), deliveries: z.number().int() });
type EventRow = z.output<typeof EventRow>;
/** A count (int4). */
const CountRow = z.object({ n: z.number().int() });
/** An event's feed position (null only inside the inserting transaction). */
const SeqRow = z.object({ seq: z.bigint().nullable() });

/** The stored envelope of an event (events.body, JSON text), parsed by its schema; StoredDataError when it does not match. */
function envelopeOf(body: string): EventEnvelope {
  return parseStored(EventEnvelopeSchema, JSON.parse(body), "events.body");
}

function summaryOf(row: EventRow): EventSummary {
  return { ...envelopeOf(row.body), delivery: { state: row.state, deliveries: row.deliveries } };
}

/** The latest delivery's state and the number of deliveries of each event row `e`. */
const DELIVERY_SUMMARY = Prisma.sql`
  LEFT JOIN LATERAL (
    SELECT (array_agg(d.state ORDER BY d.created_at DESC, d.id DESC))[1]::text AS state, count(*)::int AS deliveries
    FROM deliveries d WHERE d.event_id = e.id
  ) AS s ON true`;

/**
 * `GET /v1/events` (docs/callbacks.md "Events API"). Without `after`: the merchant's events newest first (in
 * commit order), paged with page/limit like the payments list. With `after=<event id>`: the events that became
 * visible after that one, oldest first (commit order), `limit` at most; page through the stream by passing the
 * last item's id as the next `after`. Filters: type, paymentId, and from/to as Dubai (UTC+4) calendar days on
 * createdAt, the end day inclusive. Returns `{ items, total, page, limit, pages }`; with `after`, `total` counts
 * the events still to read from that point (this page included).
 * @throws ApiError 404 NOT_FOUND when `after` is not one of the merchant's events; 400 VALIDATION_ERROR when
 *   `after` is combined with a page other than 1.
 */
export async function listEvents(db: Db, merchantId: string, q: ListEventsInput) {
  const conditions: Prisma.Sql[] = [Prisma.sql`e.merchant_id = ${merchantId}::uuid`, Prisma.sql`e.seq IS NOT NULL`];
  if (q.type) conditions.push(Prisma.sql`e.type = ${q.type}`);
  if (q.paymentId) conditions.push(Prisma.sql`e.payment_id = ${q.paymentId}::uuid`);
  if (q.from) conditions.push(Prisma.sql`e.created_at >= ${dubaiDayStart(q.from)}`);
  if (q.to) conditions.push(Prisma.sql`e.created_at < ${dubaiDayEnd(q.to)}`);
  let order = Prisma.sql`e.seq DESC`;
  let offset = (q.page - 1) * q.limit;
  if (q.after !== undefined) {
    if (q.page !== 1) throw apiError("VALIDATION_ERROR", "query.page: page cannot be combined with after; to read on, pass the last item's id as after");
    const position = await eventPosition(db, merchantId, q.after);
    conditions.push(Prisma.sql`e.seq > ${position}`);
    order = Prisma.sql`e.seq ASC`;
    offset = 0;
  }
  const where = Prisma.join(conditions, " AND ");
  const [[count], rows] = await Promise.all([
    db.$queryRaw<Record<string, unknown>[]>`SELECT count(*)::int AS n FROM events e WHERE ${where}`,
    db.$queryRaw<Record<string, unknown>[]>`
      SELECT e.id, e.body, e.seq, s.state, s.deliveries FROM events e ${DELIVERY_SUMMARY}
      WHERE ${where} ORDER BY ${order} LIMIT ${q.limit} OFFSET ${offset}`,
  ]);
  return pageOf(parseRows(EventRow, rows).map(summaryOf), parseRow(CountRow, count).n, q);
}

/** The feed position of one of the merchant's events. @throws ApiError 404 NOT_FOUND otherwise. */
async function eventPosition(db: Db, merchantId: string, eventId: string): Promise<bigint> {
  const [row] = isUuid(eventId)
    ? parseRows(SeqRow, await db.$queryRaw<Record<string, unknown>[]>`SELECT seq FROM events WHERE id = ${eventId}::uuid AND merchant_id = ${merchantId}::uuid`)
    : [];
  if (!row || row.seq === null) throw apiError("NOT_FOUND", "the event named in after was not found among this key's events");
  return row.seq;
}

/**
 * `GET /v1/events/{id}` (docs/callbacks.md "Events API"): the envelope exactly as it is delivered, plus a
 * separate `delivery` member: the latest delivery's state and every delivery (the first, then one per
 * redelivery) with its attempts, oldest first; and `forwards`, what listeners reported of forwarding it
 * (docs/callbacks.md "Forwards on the service").
 * @throws ApiError 404 NOT_FOUND for a malformed, unknown or another merchant's event id.
 */
export async function getEvent(db: Db, merchantId: string, id: string): Promise<EventDetail> {
  const event = isUuid(id) ? await db.event.findFirst({ where: { id, merchantId }, select: { body: true } }) : null;
  if (!event) throw apiError("NOT_FOUND", "event not found");
  const deliveries = await db.delivery.findMany({
    where: { eventId: id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { attempts: { orderBy: { number: "asc" } } },
  });
  const redeliveries = new Set(
    (await db.eventRedelivery.findMany({ where: { eventId: id, deliveryId: { not: null } }, select: { deliveryId: true } })).map((r) => r.deliveryId),
  );
  const shown: EventDelivery[] = deliveries.map((d) => ({
    id: d.id,
    state: d.state,
    redelivery: redeliveries.has(d.id),
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    ...(d.state === "PENDING" && d.waitingSince ? { waiting: addressWaitText(d.waitingSince.toISOString()) } : {}),
    attempts: d.attempts.map((a) => ({
      number: a.number,
      startedAt: a.startedAt.toISOString(),
      durationMs: a.durationMs,
      statusCode: a.statusCode,
      error: a.error,
    })),
  }));
  return {
    ...envelopeOf(event.body),
    delivery: { state: shown[shown.length - 1]?.state ?? "NOT_CONFIGURED", deliveries: shown },
    forwards: await forwardsOf(db, id),
  };
}

/** Answer of {@link redeliverEvent}. */
export type Redelivery = { id: string; eventId: string; createdAt: string; delivery: { id: string; state: "PENDING" } | null };

/**
 * `POST /v1/events/{id}/redeliver` (docs/callbacks.md "Events API"): a fresh delivery of the same event (same
 * event id and body, new timestamp and signature) to the configured callback address, as a new delivery with
 * its own attempts (the earlier deliveries are left as they are), and to every running listener, through a
 * new position in the feed. With no callback address configured only listeners receive it (`delivery` null).
 * Runs in the caller's transaction (the idempotent request's); the delivery is announced after commit.
 * @throws ApiError 404 NOT_FOUND for a malformed, unknown or another merchant's event id.
 */
export async function redeliverEvent(tx: Tx, merchantId: string, eventId: string, now: Date): Promise<Redelivery> {
  const event = isUuid(eventId) ? await tx.event.findFirst({ where: { id: eventId, merchantId }, select: { id: true } }) : null;
  if (!event) throw apiError("NOT_FOUND", "event not found");
  const merchant = await tx.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { callbackUrl: true } });
  const delivery = merchant.callbackUrl
    ? await tx.delivery.create({ data: { eventId, merchantId, state: "PENDING", nextAttemptAt: systemNow(), createdAt: now }, select: { id: true } })
    : null;
  const id = randomUUID();
  await tx.eventRedelivery.create({ data: { id, eventId, merchantId, deliveryId: delivery?.id ?? null, createdAt: now } });
  if (delivery) afterCommit(tx, () => announce(DELIVERY_DUE, [{ deliveryId: delivery.id }]));
  afterCommit(tx, notifyFeed);
  return { id, eventId, createdAt: now.toISOString(), delivery: delivery ? { id: delivery.id, state: "PENDING" } : null };
}

/** One item a listener forwards: an event, or a redelivery of one. `body` is the exact envelope text. */
export type FeedItem = {
  /** Feed position (decimal text): pass it back as `cursor` to read on after this item. */
  cursor: string;
  kind: "event" | "redelivery";
  eventId: string;
  type: EventType;
  createdAt: string;
  paymentId: string | null;
  reference: string | null;
  body: string;
  /** What chaos mode injects into this forward, or null when the merchant's chaos mode is off. */
  chaos: ChaosPlan | null;
};

/**
 * A row of {@link readFeed} (checked with `parseRow`, lib/platform/db.ts): the merchant's feed position, an event or a redelivery of one, the
 * event's id, type, payment id (null: a test event) and exact body, and when the item was created.
 */
export const FeedRow = z.object({
  position: z.bigint(),
  kind: z.enum(["event", "redelivery"]),
  eventId: z.string(),
  type: z.enum(EVENT_TYPES),
  createdAt: z.date(),
  paymentId: z.string().nullable(),
  body: z.string(),
});

/**
 * The feed items of a merchant after its position `cursor` (exclusive), oldest first, at most `limit`: its events
 * and its redeliveries in commit order (docs/callbacks.md "sandpiper listen"). Positions count the merchant's own
 * items from 1 (the `position` columns), so a cursor says nothing of other merchants. `types` keeps only those event
 * types; `chaos` adds each item's listener chaos plan (lib/contract/callbacks/chaos.ts).
 */
export async function readFeed(
  db: Db,
  merchantId: string,
  opts: { cursor: bigint; limit: number; types?: readonly EventType[]; chaos?: boolean },
): Promise<FeedItem[]> {
  const types = opts.types && opts.types.length > 0 ? opts.types : EVENT_TYPES;
  const rows = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT * FROM (
      SELECT e.position, 'event' AS kind, e.id AS event_id, e.type, e.created_at, e.payment_id, e.body
      FROM events e WHERE e.merchant_id = ${merchantId}::uuid AND e.position > ${opts.cursor}
      UNION ALL
      SELECT r.position, 'redelivery' AS kind, e.id, e.type, r.created_at, e.payment_id, e.body
      FROM event_redeliveries r JOIN events e ON e.id = r.event_id
      WHERE r.merchant_id = ${merchantId}::uuid AND r.position > ${opts.cursor}
    ) AS feed
    WHERE type = ANY(${[...types]}::text[])
    ORDER BY position LIMIT ${opts.limit}`;
  return parseRows(FeedRow, rows).map((r) => {
    const envelope = envelopeOf(r.body);
    return {
      cursor: r.position.toString(),
      kind: r.kind,
      eventId: r.eventId,
      type: r.type,
      createdAt: r.createdAt.toISOString(),
      paymentId: r.paymentId,
      reference: envelope.data?.reference ?? null,
      body: r.body,
      chaos: opts.chaos ? chaosPlan(`${r.eventId}:${r.position}`, "listener") : null,
    };
  });
}
