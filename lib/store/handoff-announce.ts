// "A store checkout is queued" notifications, sent after the transaction that queued it has committed.
import { log } from "@/lib/log";
import { inngest, STORE_HANDOFF_DUE_EVENT } from "@/lib/jobs/inngest-client";
import { inngestConfigured } from "@/lib/jobs/mode";
import { wakeJob } from "@/lib/jobs/wake";

/** Id of the store handoff job (registry, embedded driver, Inngest catch-up cron). */
export const STORE_HANDOFF_JOB_ID = "store-handoffs";

/**
 * Announces a store checkout that has just been queued (call it after commit, e.g. through `afterCommit`):
 * with Inngest configured one `sandpiper/store-handoff.due {paymentId}` event, otherwise a wake-up of the
 * embedded driver's store handoff job in this process. A lost announcement costs only latency: the
 * embedded poll (STORE_HANDOFF_POLL_INTERVAL_MS) and the Inngest catch-up cron claim every due checkout.
 * @throws never (a failed send is logged).
 */
export function announceStoreHandoff(paymentId: string): void {
  if (!inngestConfigured()) {
    wakeJob(STORE_HANDOFF_JOB_ID);
    return;
  }
  inngest.send({ name: STORE_HANDOFF_DUE_EVENT, data: { paymentId } }).catch((error: unknown) => {
    log.warn({ paymentId, err: error instanceof Error ? error.message : String(error) }, "store-handoff.due event not sent; the catch-up cron will hand it off");
  });
}
