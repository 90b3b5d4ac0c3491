import { describe, expect, it } from "vitest";
import { MAX_RETRY_MS, retryDelayMs } from "./forwarder";

describe("retryDelayMs (docs/callbacks.md \"Delivery to your receiver\")", () => {
  it("starts at about 1 s and doubles, with at most 20% jitter either way", () => {
    expect(retryDelayMs(1, () => 0.5)).toBe(1000);
    expect(retryDelayMs(2, () => 0.5)).toBe(2000);
    expect(retryDelayMs(3, () => 0.5)).toBe(4000);
    expect(retryDelayMs(1, () => 0)).toBe(800);
    expect(retryDelayMs(1, () => 0.999999)).toBe(1200);
  });

  it("never waits more than 30 s, however many attempts failed", () => {
    for (const retry of [6, 7, 20, 1000]) {
      for (const r of [0, 0.5, 0.999999]) {
        const ms = retryDelayMs(retry, () => r);
        expect(ms).toBeLessThanOrEqual(MAX_RETRY_MS);
        expect(ms).toBeGreaterThanOrEqual(0.8 * MAX_RETRY_MS);
      }
    }
  });
});
