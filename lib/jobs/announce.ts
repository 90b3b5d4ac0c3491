// "A delivery is due" notifications, sent after the transaction that made it due has committed.
import { log } from "@/lib/log";
import { DELIVERY_DUE_EVENT, inngest } from "@/lib/jobs/inngest-client";
import { inngestConfigured } from "@/lib/jobs/mode";
import { wakeJob } from "@/lib/jobs/wake";

/** Id of the callback delivery job (registry, embedded driver, Inngest catch-up cron). */
export const DELIVERY_JOB_ID = "deliver-due-callbacks";

/**
 * Announces deliveries that have just become due (call it after commit, e.g. through `afterCommit`).
 * With Inngest configured it sends one `sandpiper/delivery.due` event per delivery (Inngest runs
 * `deliverOne` for it); otherwise it wakes the embedded driver's delivery job in this process. A lost
 * announcement delays nothing beyond the next poll: the embedded driver and the Inngest catch-up cron
 * both pick up every due delivery.
 * @param deliveryIds ids of deliveries in state PENDING.
 * @throws never (a failed send is logged).
 */
export function announceDueDeliveries(deliveryIds: string[]): void {
  if (deliveryIds.length === 0) return;
  if (!inngestConfigured()) {
    wakeJob(DELIVERY_JOB_ID);
    return;
  }
  inngest
    .send(deliveryIds.map((deliveryId) => ({ name: DELIVERY_DUE_EVENT, data: { deliveryId } })))
    .catch((error: unknown) => {
      log.warn({ err: error instanceof Error ? error.message : String(error), count: deliveryIds.length }, "delivery.due events not sent; the catch-up cron will deliver");
    });
}
