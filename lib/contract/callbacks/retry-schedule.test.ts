import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BASE_WAITS_SECONDS, FAST_RETRY_DIVISOR, MAX_ATTEMPTS, nextAttemptDelayMs, retryWaitsSeconds } from "./retry-schedule";
import { present } from "../../../scripts/harness/present";

const noJitter = () => 0.5;

describe("retry schedule", () => {
  it("has 8 attempts and the documented base waits", () => {
    expect(MAX_ATTEMPTS).toBe(8);
    expect(BASE_WAITS_SECONDS).toEqual([30, 120, 300, 600, 1200, 2400, 3600]);
  });

  it("gives the exact waits without jitter", () => {
    const waits = [1, 2, 3, 4, 5, 6, 7].map((n) => nextAttemptDelayMs(n, noJitter));
    expect(waits).toEqual([30_000, 120_000, 300_000, 600_000, 1_200_000, 2_400_000, 3_600_000]);
  });

  it("gives up after attempt 8", () => {
    expect(nextAttemptDelayMs(8, noJitter)).toBeNull();
    expect(nextAttemptDelayMs(9, noJitter)).toBeNull();
    let attempts = 1;
    while (nextAttemptDelayMs(attempts) !== null) attempts += 1;
    expect(attempts).toBe(8);
  });

  it("applies +/-10% jitter, clamped to [30 s, 1 h]", () => {
    expect(nextAttemptDelayMs(1, () => 0)).toBe(30_000); // 27 s clamped up
    expect(nextAttemptDelayMs(1, () => 0.999999)).toBeCloseTo(33_000, -1);
    expect(nextAttemptDelayMs(2, () => 0)).toBe(108_000);
    expect(nextAttemptDelayMs(2, () => 1)).toBe(132_000);
    expect(nextAttemptDelayMs(6, () => 1)).toBe(2_640_000);
    expect(nextAttemptDelayMs(7, () => 0)).toBe(3_240_000);
    expect(nextAttemptDelayMs(7, () => 0.999999)).toBe(3_600_000); // 66 min clamped down
    expect(nextAttemptDelayMs(1, () => -5)).toBe(30_000);
    expect(nextAttemptDelayMs(7, () => 5)).toBe(3_600_000);
  });

  it("stays within the jitter bounds for any random value", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const ms = nextAttemptDelayMs(attempt, () => r);
        const base = present(BASE_WAITS_SECONDS[attempt - 1], "the base wait") * 1000;
        expect(ms).not.toBeNull();
        expect(ms!).toBeGreaterThanOrEqual(Math.max(30_000, Math.floor(base * 0.9)));
        expect(ms!).toBeLessThanOrEqual(Math.min(3_600_000, Math.ceil(base * 1.1)));
        expect(Number.isInteger(ms)).toBe(true);
      }),
    );
  });

  it("grows from one attempt to the next", () => {
    for (let n = 1; n < 7; n++) {
      expect(nextAttemptDelayMs(n + 1, noJitter)!).toBeGreaterThan(nextAttemptDelayMs(n, noJitter)!);
    }
  });

  it("throws for invalid attempt numbers or random values", () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => nextAttemptDelayMs(bad)).toThrow(RangeError);
    expect(() => nextAttemptDelayMs(1, () => Number.NaN)).toThrow(RangeError);
  });
});

describe('fast retries (docs/callbacks.md "Fast retries")', () => {
  const fast = { fastRetries: true };

  it("is the same schedule divided by 60: same 8 attempts, waits from 0.5 s to 60 s", () => {
    expect(FAST_RETRY_DIVISOR).toBe(60);
    expect(retryWaitsSeconds(fast)).toEqual([0.5, 2, 5, 10, 20, 40, 60]);
    expect(retryWaitsSeconds()).toEqual([...BASE_WAITS_SECONDS]);
    const waits = [1, 2, 3, 4, 5, 6, 7].map((n) => nextAttemptDelayMs(n, noJitter, fast));
    expect(waits).toEqual([500, 2_000, 5_000, 10_000, 20_000, 40_000, 60_000]);
    expect(nextAttemptDelayMs(8, noJitter, fast)).toBeNull();
  });

  it("keeps the jitter and the clamps, divided too", () => {
    expect(nextAttemptDelayMs(1, () => 0, fast)).toBe(500); // 450 ms clamped up
    expect(nextAttemptDelayMs(7, () => 0.999999, fast)).toBe(60_000); // 66 s clamped down
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        expect(Math.abs(nextAttemptDelayMs(attempt, () => r, fast)! - nextAttemptDelayMs(attempt, () => r)! / 60)).toBeLessThanOrEqual(1);
      }),
    );
  });
});
