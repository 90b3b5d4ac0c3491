import { runAsBackgroundWork } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { POLLING_JOBS, type PollingJob } from "@/lib/application/jobs/registry";
import { inngestConfigured } from "@/lib/domain/notify/mode";
import { onWake } from "@/lib/domain/notify/wake";
import { config } from "@/lib/platform/config";
import { systemNow } from "@/lib/platform/clock";
import { observeJobRun } from "@/lib/platform/metrics/metrics";
import { inSpan } from "@/lib/platform/tracing/tracing";
import { processState, type JobState } from "@/lib/platform/process-state";

export type { JobState };

const proc = processState();

/**
 * One job's loop: runs the body at its interval, one run at a time; a wake-up during a run asks for one
 * more run right after it, so work committed meanwhile is not left to the next interval. `state` records the end of
 * each run (its lag is read by /readyz) and the run under way; each run is counted in the metrics with how late it
 * started after its interval (lib/platform/metrics).
 */
function jobLoop(job: PollingJob, state: JobState): NodeJS.Timeout {
  let again = false;
  const runs = async (): Promise<void> => {
    let failed = false;
    const lagMs = systemNow().getTime() - state.lastRunAt.getTime() - state.intervalMs;
    try {
      do {
        again = false;
        await runAsBackgroundWork(() => inSpan(`job ${job.id}`, { "sandpiper.job": job.id }, () => job.run()));
      } while (again && !proc.shuttingDown && !proc.jobsPaused);
    } catch (error) {
      failed = true;
      log.warn({ job: job.id, err: error instanceof Error ? error.message : String(error) }, "job run failed");
    } finally {
      observeJobRun(job.id, lagMs, failed);
      state.lastRunAt = systemNow();
      state.running = null;
    }
  };
  const tick = (): void => {
    // Paused while the sandbox package's reset() empties the tables (lib/platform/process-state.ts jobsPaused).
    if (proc.shuttingDown || proc.jobsPaused) return;
    if (state.running) {
      again = true;
      return;
    }
    state.running = runs();
  };
  onWake(job.id, tick);
  return setInterval(tick, state.intervalMs);
}

/**
 * Starts the embedded driver (docs/architecture.md "Jobs"): polls each polling job of lib/application/jobs/registry.ts at its
 * interval (read once, here), in-process, and runs a job at once when this process wakes it (lib/domain/notify/wake.ts). Each
 * run is background work (lib/platform/db.ts `runAsBackgroundWork`: the jobs' own connections, never the API's).
 * The registry's event-driven jobs have no loop here: an announcement of their due event wakes the catch-up job
 * the event names (lib/domain/notify/announce.ts), which runs every due item. Exactly one driver runs: nothing starts
 * when Inngest is configured (INNGEST_EVENT_KEY or INNGEST_DEV) or JOBS_DISABLED=1. After SIGTERM no run starts
 * (no row is claimed) and `processState().jobsIdle()` resolves when the runs under way have ended; while
 * `processState().jobsPaused` is set (the @sandpiper/sandbox package's reset()) no run starts either.
 */
export function startJobDriver(): void {
  if (proc.jobDriver || inngestConfigured() || config().JOBS_DISABLED) return;
  const started = systemNow();
  const loops = POLLING_JOBS.map((job): { job: PollingJob; state: JobState } => ({
    job,
    state: { id: job.id, intervalMs: job.intervalMs(), lastRunAt: started, running: null },
  }));
  const states = loops.map((l) => l.state);
  proc.jobStates = states;
  proc.jobsIdle = async () => {
    await Promise.all(states.map((s) => s.running));
  };
  proc.jobDriver = loops.map(({ job, state }) => jobLoop(job, state));
  log.info({ jobs: POLLING_JOBS.map((j) => j.id) }, "embedded job driver started");
}

/** The embedded driver's jobs (id, interval, end of the last run, run under way), or null when it does not run in this process. */
export function jobStates(): readonly JobState[] | null {
  return proc.jobStates ?? null;
}
