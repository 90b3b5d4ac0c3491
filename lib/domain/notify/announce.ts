// "Work is due" notifications (docs/architecture.md "Jobs"; "Consistency": deliveries are announced after commit),
// sent after the transaction that made the work due has committed: with Inngest configured one event per item
// (Inngest runs the event-driven function for it), otherwise a wake-up of the embedded driver's catch-up job in this
// process. A lost announcement delays nothing beyond the next poll: the catch-up job (embedded or under Inngest)
// picks up every due item. This folder sits below the domain folders that announce and the jobs that answer, so
// neither imports the other through it.
import { log } from "@/lib/platform/log";
import type { DueEvent, DuePayload } from "@/lib/domain/notify/due-events";
import { inngestConfigured } from "@/lib/domain/notify/mode";
import { wakeJob } from "@/lib/domain/notify/wake";

/**
 * Announces items that have just become due (call it after commit, e.g. through `afterCommit`): one event
 * `due.name` per payload to Inngest, or a wake-up of the embedded driver's job `due.catchUpJobId` in this process.
 * The payloads are typed by the descriptor (lib/domain/notify/due-events.ts): `announce(DELIVERY_DUE, [{ deliveryId }])`.
 * @param payloads one per due item, e.g. `{ deliveryId }` of a PENDING delivery; none announces nothing.
 * @throws never (a failed send is logged with the event name and count; the catch-up job picks the items up).
 */
export function announce<P extends DuePayload>(due: DueEvent<P>, payloads: readonly NoInfer<P>[]): void {
  if (payloads.length === 0) return;
  if (!inngestConfigured()) {
    wakeJob(due.catchUpJobId);
    return;
  }
  // The Inngest SDK is loaded only here, with Inngest configured (docs/architecture.md "Jobs"): a service
  // without it never loads the package.
  import("@/lib/domain/notify/inngest-client")
    .then(({ inngest }) => inngest.send(payloads.map((data) => ({ name: due.name, data }))))
    .catch((error: unknown) => {
      log.warn(
        { event: due.name, count: payloads.length, err: error instanceof Error ? error.message : String(error) },
        `${due.name} events not sent; the catch-up job ${due.catchUpJobId} will pick them up`,
      );
    });
}

/**
 * Asks for the catch-up job of `due` to run now, for work that became due in bulk (a sandbox clock move): the
 * embedded driver of this process runs it at once; under Inngest its catch-up function runs at its own interval and
 * takes every due item then (no event per item). Call it after commit.
 */
export function wakeCatchUp<P extends DuePayload>(due: DueEvent<P>): void {
  if (!inngestConfigured()) wakeJob(due.catchUpJobId);
}
