import { systemNow } from "@/lib/platform/clock";
import { mapInTurns } from "@/lib/platform/background";
import { afterCommit, batchQuery, Prisma, type Tx } from "@/lib/platform/db";
import { toJson } from "@/lib/contract/json";
import { EVENT_TYPES } from "@/lib/contract/schemas/api/events";
import { notifyFeed } from "@/lib/domain/events/feed-notify";
import { announce } from "@/lib/domain/notify/announce";
import { DELIVERY_DUE } from "@/lib/domain/notify/due-events";
import type { Payment as PaymentResource } from "@/lib/contract/schemas/api/payment-resource";

/** One of the event types of docs/callbacks.md (lib/contract/schemas/api/events.ts). */
export type EventType = (typeof EVENT_TYPES)[number];

export type RecordedEvent = { eventId: string; deliveryId: string; state: "PENDING" | "NOT_CONFIGURED" };

/** One event to record: the merchant, the payment it is about (null only for a console test event), its type, data and time. */
export type EventInput = { merchantId: string; paymentId: string | null; type: EventType; data: PaymentResource; now: Date };

/**
 * Writes an outbox event and its one delivery in the caller's transaction (docs/architecture.md "Consistency",
 * "Callbacks"): {@link recordEvents} with one input.
 */
export async function recordEvent(tx: Tx, input: EventInput): Promise<RecordedEvent> {
  const [recorded] = await recordEvents(tx, [input]);
  if (!recorded) throw new Error("recording one event gave none back");
  return recorded;
}

/**
 * Writes outbox events and one delivery each in the caller's transaction (docs/architecture.md "Consistency",
 * "Callbacks"), in two statements whatever their number (an expiry batch records one per payment). The events take
 * their feed positions as they are inserted (`insert_numbered_events`), so every transaction that records events
 * holds the feed's one lock from then to its commit: record them late in a transaction. Each envelope
 * `{id, type, createdAt, data}` (docs/callbacks.md) is frozen as text here: these exact bytes are signed and sent on
 * every attempt. A delivery is PENDING (due now) when its merchant has a callback address, else NOT_CONFIGURED.
 * PENDING deliveries are announced after commit (Inngest events or an embedded-driver wake-up), never inside the
 * transaction.
 * @returns one RecordedEvent per input, in order
 */
export async function recordEvents(tx: Tx, inputs: readonly EventInput[]): Promise<RecordedEvent[]> {
  if (inputs.length === 0) return [];
  const merchants = await tx.merchant.findMany({
    where: { id: { in: [...new Set(inputs.map((i) => i.merchantId))] } },
    select: { id: true, callbackUrl: true },
  });
  const configured = new Set(merchants.filter((m) => m.callbackUrl).map((m) => m.id));
  // Deliveries run on the real clock, whatever the merchant's sandbox clock (docs/decisions/0150-one-source-of-now.md).
  const due = systemNow();
  const recorded = await mapInTurns(inputs, (input) => {
    const { merchantId, paymentId, type, data, now } = input;
    const id = crypto.randomUUID();
    const state: RecordedEvent["state"] = configured.has(merchantId) ? "PENDING" : "NOT_CONFIGURED";
    return {
      event: { id, merchantId, paymentId, type, body: toJson({ id, type, createdAt: now.toISOString(), data }), createdAt: now },
      delivery: { id: crypto.randomUUID(), eventId: id, merchantId, state, nextAttemptAt: state === "PENDING" ? due : null, createdAt: now },
    };
  });
  // One statement of arrays each (unnest): a batch of 1,000 is two statements, with no per-row work in the client.
  const events = recorded.map((r) => r.event);
  const deliveries = recorded.map((r) => r.delivery);
  // Numbered as they are inserted, in insertion order (docs/callbacks.md "Commit order"): the feed's lock is held from
  // here to the commit. A batch's events and deliveries go in one statement, straight on the transaction's connection
  // when they are many (lib/platform/db.ts batchQuery), so the lock is held for one round trip less. The bodies go as
  // one JSON array of strings, unpacked to exactly these texts: the driver writes one text as it is, where a text[]
  // value would be escaped element by element on the event loop (a megabyte for 1,000 events).
  const statement = Prisma.sql`
    WITH numbered AS (
      SELECT insert_numbered_events(${events.map((e) => e.id)}::uuid[], ${events.map((e) => e.merchantId)}::uuid[], ${events.map((e) => e.paymentId)}::uuid[],
        ${events.map((e) => e.type)}::text[],
        ARRAY(SELECT b FROM json_array_elements_text(${JSON.stringify(events.map((e) => e.body))}::json) WITH ORDINALITY AS t(b, n) ORDER BY n),
        ${events.map((e) => e.createdAt.toISOString())}::timestamptz[]))
    INSERT INTO deliveries (id, event_id, merchant_id, state, next_attempt_at, created_at, updated_at)
    SELECT d.id, d.event_id, d.merchant_id, d.state::"DeliveryState", d.next_attempt_at, d.created_at, ${due}
    FROM numbered, unnest(${deliveries.map((d) => d.id)}::uuid[], ${deliveries.map((d) => d.eventId)}::uuid[], ${deliveries.map((d) => d.merchantId)}::uuid[],
      ${deliveries.map((d) => d.state)}::text[], ${deliveries.map((d) => d.nextAttemptAt?.toISOString() ?? null)}::timestamptz[],
      ${deliveries.map((d) => d.createdAt.toISOString())}::timestamptz[]) AS d(id, event_id, merchant_id, state, next_attempt_at, created_at)`;
  await batchQuery(tx, inputs.length, statement);
  const pending = recorded.filter((r) => r.delivery.state === "PENDING").map((r) => ({ deliveryId: r.delivery.id }));
  if (pending.length) afterCommit(tx, () => announce(DELIVERY_DUE, pending));
  afterCommit(tx, notifyFeed);
  return recorded.map((r) => ({ eventId: r.event.id, deliveryId: r.delivery.id, state: r.delivery.state }));
}
