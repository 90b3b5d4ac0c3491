import { describe, expect, it } from "vitest";
import { InngestTestEngine } from "@inngest/test";
import { createInngestFunctions } from "@/lib/application/jobs/inngest";
import { POLLING_JOBS, type PollingJob } from "@/lib/application/jobs/registry";
import { mockedWaits } from "../support/inngest";
import { realInstant } from "@/lib/platform/clock";
import { assertPresent } from "../../scripts/harness/present";

// docs/architecture.md "Jobs": under Inngest every polling job of the registry runs at its interval. Each job's
// function, as served, runs in @inngest/test's engine with its real body against the real database; only the sleeps
// are mocked steps, so nothing waits. The bodies run on a clock in 2001, so they find nothing due and leave the
// rows of tests running meanwhile alone (compaction does not read the clock and folds whatever is pending).

const MINUTE = 60_000;
const PAST = realInstant("2001-01-01T00:00:00Z");

/** Runs `fn` once with every sleep it reaches mocked (at most 60 body runs a minute, so 59 sleeps). */
async function runOnce(fn: ReturnType<typeof createInngestFunctions>[number], ts = Date.now()) {
  return new InngestTestEngine({ function: fn }).execute({
    events: [{ name: "inngest/scheduled.timer", data: { cron: "" }, ts }],
    steps: mockedWaits(59),
  });
}

describe("Inngest honours every polling job's interval", () => {
  it("the registry's intervals are what the contract asks: the expiry sweeps every 30 s, the others from the configuration", () => {
    const interval = Object.fromEntries(POLLING_JOBS.map((job) => [job.id, job.intervalMs()]));
    expect(interval).toEqual({
      "expire-due-payments": 30_000,
      "expire-checkout-sessions": 30_000,
      "deliver-due-callbacks": 1_000,
      "compact-payment-counts": 2_000,
      "prune-risk-counters": MINUTE,
      "prune-request-log": 10 * MINUTE,
      "prune-events": 10 * MINUTE,
      "extend-seeded-rates": 60 * MINUTE,
      "conclude-scenarios": 1_000,
      "store-handoffs": 1_000,
    });
  });

  for (const job of POLLING_JOBS) {
    const intervalMs = job.intervalMs();
    it(`${job.id} (every ${intervalMs} ms)`, async () => {
      const fn = createInngestFunctions(() => PAST).find((f) => f.opts.id === job.id)!;
      const { result, ctx, error } = await runOnce(fn);
      expect(error).toBeUndefined();
      const runs = (ctx.step.run.mock.calls as unknown[][]).map((call) => call[0]);
      const sleeps = ctx.step.sleep.mock.calls as unknown[][];
      if (intervalMs < MINUTE) {
        // A cron every minute whose run runs the body floor(60 s / interval) times, sleeping the interval between.
        const perMinute = Math.floor(MINUTE / intervalMs);
        expect(fn.opts.triggers).toEqual([{ cron: "* * * * *" }]);
        expect(runs).toEqual(Array.from({ length: perMinute }, (_, i) => `run-${i + 1}`));
        expect(sleeps).toEqual(Array.from({ length: perMinute - 1 }, (_, i) => [`wait-${i + 1}`, intervalMs]));
      } else {
        // A cron every N minutes (N = the interval in whole minutes), or every H hours for whole hours, one body run each.
        const n = Math.ceil(intervalMs / MINUTE);
        const hours = n / 60;
        const cron = n === 1 ? "* * * * *" : hours === 1 ? "0 * * * *" : Number.isInteger(hours) && 24 % hours === 0 ? `0 */${hours} * * *` : `*/${n} * * * *`;
        expect(fn.opts.triggers).toEqual([{ cron }]);
        expect(runs).toEqual(["run-1"]);
        expect(sleeps).toEqual([]);
      }
      // One summary per body run, each the body's own.
      expect(result).toHaveLength(runs.length);
    });
  }

  it("an interval of whole minutes no cron repeats (7 min): every minute's run is gated to every 7th minute", async () => {
    let bodyRuns = 0;
    const job: PollingJob = { kind: "polling", id: "every-7-minutes", name: "Every 7 minutes", intervalMs: () => 7 * MINUTE, run: async () => ++bodyRuns };
    const [fn] = createInngestFunctions(() => PAST, [job]);
    assertPresent(fn, "fn");
    expect(fn?.opts.triggers).toEqual([{ cron: "* * * * *" }]);
    const minute = 7 * 4_200_000; // a multiple of 7 minutes since the Unix epoch
    const ran: number[] = [];
    for (let m = minute; m < minute + 15; m++) {
      const { result, error } = await runOnce(fn, m * MINUTE + 2_000); // the run starts 2 s into its minute
      expect(error).toBeUndefined();
      if ((result as number[]).length > 0) ran.push(m - minute);
    }
    expect(ran).toEqual([0, 7, 14]);
    expect(bodyRuns).toBe(3);
  });
});
