import { describe, expect, it } from "vitest";
import { MAX_RETRY_MS, retryDelayMs } from "./forwarder";

describe('retryDelayMs (docs/callbacks.md "Delivery to your receiver")', () => {
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

describe("batchSize (the listener's reports stay under the service's 32 KiB body limit)", () => {
  it("takes up to 50 small reports, and fewer when they are large; never none", async () => {
    const { batchSize } = await import("./reporter");
    const report = (snippet: number) => ({
      eventId: "e",
      forwardId: "f",
      cursor: "1",
      kind: "event" as const,
      attempt: 1,
      startedAt: "t",
      durationMs: 1,
      statusCode: 200,
      error: null,
      forwardTo: `http://localhost:4000/${"x".repeat(snippet)}`,
      timestamp: "1",
      signature: "s",
      responseSnippet: null,
      nextAttemptAt: null,
    });
    expect(batchSize(Array.from({ length: 80 }, () => report(10)))).toBe(50);
    const large = Array.from({ length: 50 }, () => report(2000));
    const n = batchSize(large);
    expect(n).toBeLessThan(50);
    expect(JSON.stringify({ forwards: large.slice(0, n) }).length).toBeLessThan(32 * 1024);
    expect(batchSize([report(40_000)])).toBe(1);
  });
});
