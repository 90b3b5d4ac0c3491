// Helpers for running Inngest functions in @inngest/test's engine: its sleeps never end by themselves, so every
// `step.sleep` / `step.sleepUntil` a run reaches needs a mocked step.
import { POLLING_JOBS } from "@/lib/application/jobs/registry";
import { inngestSchedule } from "@/lib/application/jobs/schedule";

/** Mocked sleep steps `wait-1` .. `wait-<count>`; `onWait(n)` runs when the run reaches `wait-<n>` (e.g. to move a clock). */
export function mockedWaits(count: number, onWait: (n: number) => unknown = () => null) {
  return Array.from({ length: count }, (_, i) => ({ id: `wait-${i + 1}`, handler: async () => (await onWait(i + 1), null) }));
}

/** The mocked sleeps of a polling job's function: one between each two body runs of its schedule. */
export function pollingWaits(jobId: string, onWait?: (n: number) => unknown) {
  const job = POLLING_JOBS.find((j) => j.id === jobId);
  if (!job) throw new Error(`no polling job ${jobId}`);
  return mockedWaits(inngestSchedule(job.intervalMs()).runs - 1, onWait);
}
