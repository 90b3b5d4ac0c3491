// "Work is due" notifications (docs/architecture.md "Consistency": deliveries are announced after commit), sent
// after the transaction that made the work due has committed: with Inngest configured an event per item (Inngest
// runs the event-driven function for it), otherwise a wake-up of the embedded driver's job in this process. A lost
// announcement delays nothing beyond the next poll: the embedded driver and the Inngest catch-up cron pick up every
// due item. This folder sits below the domain folders that announce and the jobs that answer, so neither imports
// the other through it.
import { log } from "@/lib/log";
import { DELIVERY_DUE_EVENT, inngest, STORE_HANDOFF_DUE_EVENT } from "@/lib/notify/inngest-client";
import { inngestConfigured } from "@/lib/notify/mode";
import { wakeJob } from "@/lib/notify/wake";

/** Id of the callback delivery job (registry, embedded driver, Inngest catch-up cron). */
export const DELIVERY_JOB_ID = "deliver-due-callbacks";
/** Id of the store handoff job (registry, embedded driver, Inngest catch-up cron). */
export const STORE_HANDOFF_JOB_ID = "store-handoffs";

/** Sends `events` to Inngest, or wakes `jobId` here; a failed send is logged with `what`, never thrown. */
function announce(jobId: string, events: { name: string; data: Record<string, string> }[], what: string): void {
  if (events.length === 0) return;
  if (!inngestConfigured()) {
    wakeJob(jobId);
    return;
  }
  inngest.send(events).catch((error: unknown) => {
    log.warn({ count: events.length, err: error instanceof Error ? error.message : String(error) }, `${what} events not sent; the catch-up cron will pick them up`);
  });
}

/**
 * Announces deliveries that have just become due (call it after commit, e.g. through `afterCommit`): one
 * `sandpiper/delivery.due {deliveryId}` event each (Inngest runs `deliverOne`), or a wake-up of the delivery job.
 * @param deliveryIds ids of deliveries in state PENDING.
 * @throws never (a failed send is logged).
 */
export function announceDueDeliveries(deliveryIds: string[]): void {
  announce(DELIVERY_JOB_ID, deliveryIds.map((deliveryId) => ({ name: DELIVERY_DUE_EVENT, data: { deliveryId } })), "delivery.due");
}

/**
 * Announces a store checkout that has just been queued (call it after commit): one
 * `sandpiper/store-handoff.due {paymentId}` event, or a wake-up of the store handoff job.
 * @throws never (a failed send is logged).
 */
export function announceStoreHandoff(paymentId: string): void {
  announce(STORE_HANDOFF_JOB_ID, [{ name: STORE_HANDOFF_DUE_EVENT, data: { paymentId } }], "store-handoff.due");
}
