import { runAsBackgroundWork } from "@/lib/db";
import { log } from "@/lib/log";
import { POLLING_JOBS, type PollingJob } from "@/lib/jobs/registry";
import { inngestConfigured } from "@/lib/notify/mode";
import { onWake } from "@/lib/notify/wake";
import { config } from "@/lib/config";

const g = globalThis as unknown as { __sandpiperDriver?: NodeJS.Timeout[]; __sandpiperShuttingDown?: boolean };

/**
 * One job's loop: runs the body at its interval, one run at a time; a wake-up during a run asks for one
 * more run right after it, so work committed meanwhile is not left to the next interval.
 */
function jobLoop(job: PollingJob): NodeJS.Timeout {
  let running = false;
  let again = false;
  const tick = async (): Promise<void> => {
    if (g.__sandpiperShuttingDown) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await runAsBackgroundWork(() => job.run());
      } while (again && !g.__sandpiperShuttingDown);
    } catch (error) {
      log.warn({ job: job.id, err: error instanceof Error ? error.message : String(error) }, "job run failed");
    } finally {
      running = false;
    }
  };
  onWake(job.id, () => void tick());
  return setInterval(() => void tick(), job.intervalMs());
}

/**
 * Starts the embedded driver (docs/architecture.md "Jobs"): polls each polling job of lib/jobs/registry.ts at its
 * interval (read once, here), in-process, and runs a job at once when this process wakes it (lib/notify/wake.ts). Each
 * run is background work (lib/db.ts `runAsBackgroundWork`: the jobs' own connections, never the API's).
 * The registry's event-driven jobs have no loop here: an announcement of their due event wakes the catch-up job
 * the event names (lib/notify/announce.ts), which runs every due item. Exactly one driver runs: nothing starts
 * when Inngest is configured (INNGEST_EVENT_KEY or INNGEST_DEV) or JOBS_DISABLED=1.
 */
export function startJobDriver(): void {
  if (g.__sandpiperDriver || inngestConfigured() || config().JOBS_DISABLED) return;
  g.__sandpiperDriver = POLLING_JOBS.map(jobLoop);
  log.info({ jobs: POLLING_JOBS.map((j) => j.id) }, "embedded job driver started");
}
