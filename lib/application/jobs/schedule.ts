// How a polling job's interval is honoured under Inngest (docs/architecture.md "Jobs"): Inngest crons have
// one-minute resolution, so an interval under a minute is run inside a run that sleeps between body runs, and an
// interval of a minute or more becomes a cron. Pure: lib/application/jobs/inngest.ts builds the functions from it.

/** One minute in milliseconds: the resolution of Inngest crons. */
export const MINUTE_MS = 60_000;

/**
 * Shortest interval honoured under Inngest, in milliseconds: each sleep is a round trip through Inngest, and a run may
 * hold at most 1,000 steps (body runs and sleeps), so a shorter configured interval is run every second.
 */
export const MIN_INNGEST_INTERVAL_MS = 1_000;

/**
 * A polling job's schedule under Inngest.
 * - `cron`: the function's trigger (five fields, UTC).
 * - `runs`: body runs per triggered run, `sleepMs` apart (`step.sleep` between two runs; 0 when `runs` is 1).
 * - `gateMinutes`: null when every triggered run runs the body; otherwise the cron fires every minute and a run
 *   runs the body only when its scheduled minute, counted from the Unix epoch, is a multiple of `gateMinutes`.
 */
export type InngestSchedule = { cron: string; runs: number; sleepMs: number; gateMinutes: number | null };

const EVERY_MINUTE = "* * * * *";

/**
 * The Inngest schedule of a job polled every `intervalMs` milliseconds.
 *
 * - Under a minute: a cron every minute whose run runs the body, sleeps the interval, runs it again, ..., so the
 *   body runs floor(60 s / interval) times a minute at the interval (30 s: at :00 and :30; 2 s: 30 times). An
 *   interval that does not divide the minute leaves a longer gap before the next minute's first run (45 s: once a
 *   minute). Each sleep starts when the body has ended, so the body's own time is added to each period. Intervals
 *   under MIN_INNGEST_INTERVAL_MS are run every second.
 * - A minute or more: N = the interval rounded up to whole minutes, and the body runs once at every minute whose
 *   count since the Unix epoch (UTC) is a multiple of N, i.e. exactly every N minutes. When N is under 60 and divides it, the cron
 *   says so (`*\/N * * * *`; 1: `* * * * *`); when N is whole hours H that divide 24, `0 *\/H * * *` (1 hour:
 *   `0 * * * *`, a day: `0 0 * * *`). Otherwise (N does not divide 60 or is over 60 minutes without dividing a day,
 *   e.g. 7 or 90 minutes) no cron expression repeats every N minutes, so the cron fires every minute and the run
 *   skips the body unless its minute is such a multiple (`gateMinutes` = N; see `runsAt`).
 * @param intervalMs a positive whole number of milliseconds (the job's `intervalMs()`)
 * @throws RangeError when `intervalMs` is not a positive finite number
 */
export function inngestSchedule(intervalMs: number): InngestSchedule {
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) throw new RangeError(`interval must be a positive number of milliseconds, got ${intervalMs}`);
  if (intervalMs < MINUTE_MS) {
    const every = Math.max(intervalMs, MIN_INNGEST_INTERVAL_MS);
    const runs = Math.floor(MINUTE_MS / every);
    return { cron: EVERY_MINUTE, runs, sleepMs: runs > 1 ? every : 0, gateMinutes: null };
  }
  const minutes = Math.ceil(intervalMs / MINUTE_MS);
  const once = { runs: 1, sleepMs: 0, gateMinutes: null };
  if (minutes < 60 && 60 % minutes === 0) return { cron: minutes === 1 ? EVERY_MINUTE : `*/${minutes} * * * *`, ...once };
  const hours = minutes / 60;
  if (Number.isInteger(hours) && 24 % hours === 0) return { cron: hours === 1 ? "0 * * * *" : hours === 24 ? "0 0 * * *" : `0 */${hours} * * *`, ...once };
  return { cron: EVERY_MINUTE, runs: 1, sleepMs: 0, gateMinutes: minutes };
}

/**
 * True when a run of `schedule` triggered at `at` runs the body: always without a gate; with one, when `at`
 * (rounded to the nearest minute, so a run that starts a little late still counts as its minute) is a whole
 * multiple of `gateMinutes` minutes since the Unix epoch.
 * @param at the trigger's time (the cron event's `ts`)
 */
export function runsAt(schedule: InngestSchedule, at: Date): boolean {
  return schedule.gateMinutes === null || Math.round(at.getTime() / MINUTE_MS) % schedule.gateMinutes === 0;
}
