import { afterCommit, type Tx } from "@/lib/db";
import { toJson } from "@/lib/http/respond";
import { notifyFeed } from "@/lib/events/feed-notify";
import { announceDueDeliveries } from "@/lib/jobs/announce";
import { serializePayment, type PaymentResource, type PaymentRow } from "@/lib/payments/serialize";

/** docs/callbacks.md: the only event types. */
export const EVENT_TYPES = ["payment.succeeded", "payment.failed", "payment.expired"] as const;
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
    data: { eventId: id, merchantId, state, nextAttemptAt: state === "PENDING" ? now : null, createdAt: now },
  });
  if (state === "PENDING") afterCommit(tx, () => announceDueDeliveries([delivery.id]));
  afterCommit(tx, notifyFeed);
  return { eventId: id, deliveryId: delivery.id, state };
}

/**
 * The outbox event of a payment transition (docs/callbacks.md): `data` is the Payment without `customer`
 * (and without `checkout`), so `data.amount` and `data.currency` are the original merchant values.
 */
export function recordPaymentEvent(tx: Tx, payment: PaymentRow, type: EventType, now: Date): Promise<RecordedEvent> {
  return recordEvent(tx, { merchantId: payment.merchantId, paymentId: payment.id, type, data: serializePayment(payment, { detail: false }), now });
}
