// lib/application/jobs/schedule.ts: how a polling job's interval is honoured under Inngest (docs/architecture.md "Jobs").
import { describe, expect, it } from "vitest";
import { inngestSchedule, runsAt } from "@/lib/application/jobs/schedule";

const MINUTE = 60_000;

describe("an interval under a minute: a cron every minute that runs the body floor(60 s / interval) times", () => {
  it.each([
    [30_000, 2, 30_000],
    [2_000, 30, 2_000],
    [1_000, 60, 1_000],
    [25_000, 2, 25_000],
    [45_000, 1, 0],
    [59_999, 1, 0],
  ])("%i ms: %i runs, %i ms apart", (intervalMs, runs, sleepMs) => {
    expect(inngestSchedule(intervalMs)).toEqual({ cron: "* * * * *", runs, sleepMs, gateMinutes: null });
  });

  it("an interval under a second is run every second (each sleep is a round trip; a run holds at most 1,000 steps)", () => {
    expect(inngestSchedule(50)).toEqual({ cron: "* * * * *", runs: 60, sleepMs: 1_000, gateMinutes: null });
    expect(inngestSchedule(999)).toEqual(inngestSchedule(1_000));
  });
});

describe("an interval of a minute or more: every N minutes, N rounded up", () => {
  it.each([
    [MINUTE, "* * * * *"],
    [MINUTE + 1, "*/2 * * * *"],
    [10 * MINUTE, "*/10 * * * *"],
    [30 * MINUTE, "*/30 * * * *"],
    [60 * MINUTE, "0 * * * *"],
    [120 * MINUTE, "0 */2 * * *"],
    [8 * 60 * MINUTE, "0 */8 * * *"],
    [24 * 60 * MINUTE, "0 0 * * *"],
  ])("%i ms: the cron %s", (intervalMs, cron) => {
    expect(inngestSchedule(intervalMs)).toEqual({ cron, runs: 1, sleepMs: 0, gateMinutes: null });
  });

  it.each([
    [7 * MINUTE, 7],
    [90 * MINUTE, 90],
    [5 * 60 * MINUTE, 300],
    [6.5 * MINUTE, 7],
  ])("%i ms: no cron repeats it, so a cron every minute gated to every %i minutes", (intervalMs, gateMinutes) => {
    expect(inngestSchedule(intervalMs)).toEqual({ cron: "* * * * *", runs: 1, sleepMs: 0, gateMinutes });
  });

  it("refuses an interval that is not a positive number", () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => inngestSchedule(bad)).toThrow(RangeError);
  });
});

describe("runsAt: the gate", () => {
  const gated = inngestSchedule(7 * MINUTE);
  const at = (minutes: number, extraMs = 0) => new Date(minutes * MINUTE + extraMs);

  it("runs at every minute whose count since the Unix epoch is a multiple of N, and only then", () => {
    const start = 7 * 4_000_000;
    const due = Array.from({ length: 30 }, (_, i) => start + i).filter((m) => runsAt(gated, at(m)));
    expect(due).toEqual([start, start + 7, start + 14, start + 21, start + 28]);
  });

  it("counts a run that starts a little late or early as its minute", () => {
    expect(runsAt(gated, at(7_000, 20_000))).toBe(true);
    expect(runsAt(gated, at(7_000, -5_000))).toBe(true);
    expect(runsAt(gated, at(7_001, 20_000))).toBe(false);
  });

  it("always runs without a gate", () => {
    expect(runsAt(inngestSchedule(30_000), at(7_001))).toBe(true);
    expect(runsAt(inngestSchedule(10 * MINUTE), at(7_001))).toBe(true);
  });
});
