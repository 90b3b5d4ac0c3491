// Inngest functions: the production driver of the background jobs (docs/architecture.md "Jobs"). They are built
// from the entries of lib/application/jobs/registry.ts, one function per entry, and call the same job bodies as the embedded
// driver; exactly one driver runs: these when Inngest is configured (INNGEST_EVENT_KEY or INNGEST_DEV), else the
// embedded driver.
import { systemNow, type RealInstant } from "@/lib/platform/clock";
import { runAsBackgroundWork } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { inngest } from "@/lib/domain/notify/inngest-client";
import { JOBS, type EventJob, type Job, type PollingJob } from "@/lib/application/jobs/registry";
import { inngestSchedule, runsAt } from "@/lib/application/jobs/schedule";

/** Clock of the job bodies; tests pass a controllable one. */
export type Clock = () => RealInstant;

/** A body's summary as Inngest stores it (a step's JSON result). */
type Summary = Record<string, unknown> | number;

/**
 * The function of a polling job: id and name of the entry, a cron trigger, and the body run at the job's interval
 * as lib/application/jobs/schedule.ts `inngestSchedule` says: step `run-<n>` runs the body (n = 1..runs) and step `wait-<n>`
 * sleeps `sleepMs` between two runs (`step.sleep`). A gated schedule (an interval of whole minutes that no cron
 * expression repeats) skips the body unless the cron event's minute is due (`runsAt`).
 * The interval is read here, once: under Inngest a changed interval variable takes effect when the functions are
 * built again (a restart of the process that serves them).
 * @returns the run's summaries, one per body run (none when the gate skipped this minute)
 */
function pollingFunction(job: PollingJob, clock: Clock) {
  const schedule = inngestSchedule(job.intervalMs());
  return inngest.createFunction({ id: job.id, name: job.name, triggers: [{ cron: schedule.cron }] }, async ({ event, step }) => {
    const summaries: Summary[] = [];
    if (!runsAt(schedule, new Date(event.ts ?? clock().getTime()))) return summaries;
    for (let n = 1; n <= schedule.runs; n++) {
      if (n > 1) await step.sleep(`wait-${n - 1}`, schedule.sleepMs);
      summaries.push(await step.run(`run-${n}`, async () => (await runAsBackgroundWork(() => job.run(clock(), "inngest"))) as Summary));
    }
    return summaries;
  });
}

/**
 * The function of an event-driven job: id and name of the entry, triggered by its due event, with step-based
 * retries. The event's `data` is parsed with the due event's payload schema; a malformed payload is refused
 * with `{ <each payload member>: null, state: null }` and nothing runs. Otherwise step `attempt-<n>` runs one
 * round (`job.attempt`, n = 1..rounds); while a round answers a retry time, the function sleeps until then
 * (`step.sleepUntil("wait-<n>")`) and runs the next round. A step that throws (database down) is retried by
 * Inngest.
 * @returns `{ ...payload, ...result }` of the round that needed no retry, or `{ ...payload, ...result of the
 *   last round, handedTo: <catch-up job id> }` when the rounds ran out (the catch-up job takes over)
 */
function eventFunction(job: EventJob, clock: Clock) {
  return inngest.createFunction({ id: job.id, name: job.name, triggers: [{ event: job.due.name }] }, async ({ event, step }) => {
    const parsed = job.due.payload.safeParse(event.data);
    if (!parsed.success) {
      log.warn(
        { job: job.id, event: job.due.name, problems: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`) },
        "malformed due event refused",
      );
      return { ...Object.fromEntries(job.due.members.map((member) => [member, null])), state: null };
    }
    const payload = parsed.data;
    let last: Record<string, unknown> = {};
    for (let round = 1; round <= job.rounds; round++) {
      const { result, retryAt } = await step.run(`attempt-${round}`, async () => {
        const r = await runAsBackgroundWork(() => job.attempt(payload, clock()));
        return { result: r.result, retryAt: r.retryAt?.toISOString() ?? null };
      });
      if (retryAt === null) return { ...payload, ...result };
      last = result;
      if (round < job.rounds) await step.sleepUntil(`wait-${round}`, retryAt);
    }
    return { ...payload, ...last, handedTo: job.due.catchUpJobId };
  });
}

/**
 * Builds the Inngest functions, one per entry of `jobs` (default: the registry, lib/application/jobs/registry.ts), in its
 * order: a cron function per polling job (`pollingFunction`: the interval honoured as lib/application/jobs/schedule.ts says),
 * an event function per event-driven job (`eventFunction`). Overlapping runs are safe: the sweeps, catch-ups and
 * attempts claim rows with FOR UPDATE SKIP LOCKED and leases, the prunes delete in bounded batches. Every body runs as
 * background work (lib/platform/db.ts `runAsBackgroundWork`: the jobs' own connections).
 * @param clock the clock of the job bodies (default: the real clock)
 */
export function createInngestFunctions(clock: Clock = () => systemNow(), jobs: readonly Job[] = JOBS) {
  return jobs.map((job) => (job.kind === "polling" ? pollingFunction(job, clock) : eventFunction(job, clock)));
}

/** The functions served at /api/inngest. */
export const inngestFunctions = createInngestFunctions();
