import { systemNow } from "@/lib/clock";
import { afterCommit, type Tx } from "@/lib/db";
import { toJson } from "@/lib/http/respond";
import { EVENT_TYPES } from "@/lib/schemas/events";
import { notifyFeed } from "@/lib/events/feed-notify";
import { announce } from "@/lib/notify/announce";
import { DELIVERY_DUE } from "@/lib/notify/due-events";
import type { Payment as PaymentResource } from "@/lib/schemas/payment-resource";

/** One of the event types of docs/callbacks.md (lib/schemas/events.ts). */
export type EventType = (typeof EVENT_TYPES)[number];

export type RecordedEvent = { eventId: string; deliveryId: string; state: "PENDING" | "NOT_CONFIGURED" };

/**
 * Writes an outbox event and its one delivery in the caller's transaction (docs/architecture.md "Consistency",
 * "Callbacks"). The envelope `{id, type, createdAt, data}` (docs/callbacks.md) is frozen as text here: these
 * exact bytes are signed and sent on every attempt. Delivery state is PENDING (due now) when the merchant
 * has a callback address, else NOT_CONFIGURED. A PENDING delivery is announced after commit (Inngest
 * event or embedded-driver wake-up), never inside the transaction.
 * @param input.paymentId the payment the event is about; null only for a console test event.
 */
export async function recordEvent(
  tx: Tx,
  input: { merchantId: string; paymentId: string | null; type: EventType; data: PaymentResource; now: Date },
): Promise<RecordedEvent> {
  const { merchantId, paymentId, type, data, now } = input;
  const id = crypto.randomUUID();
  const body = toJson({ id, type, createdAt: now.toISOString(), data });
  const merchant = await tx.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { callbackUrl: true } });
  const state = merchant.callbackUrl ? "PENDING" : "NOT_CONFIGURED";
  await tx.event.create({ data: { id, merchantId, paymentId, type, body, createdAt: now } });
  const delivery = await tx.delivery.create({
    // Deliveries run on the real clock, whatever the merchant's sandbox clock (docs/decisions.md "One source of now").
    data: { eventId: id, merchantId, state, nextAttemptAt: state === "PENDING" ? systemNow() : null, createdAt: now },
  });
  if (state === "PENDING") afterCommit(tx, () => announce(DELIVERY_DUE, [{ deliveryId: delivery.id }]));
  afterCommit(tx, notifyFeed);
  return { eventId: id, deliveryId: delivery.id, state };
}
