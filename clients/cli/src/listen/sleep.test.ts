import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { sleep } from "./sleep";

// The listener's waits share one stop signal for its whole run: each wait must leave no abort listener behind.
const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);
afterEach(() => {
  process.off("warning", onWarning);
  warnings.length = 0;
});

describe("sleep", () => {
  it("100 waits on one signal leave no abort listener and no MaxListenersExceededWarning", async () => {
    process.on("warning", onWarning);
    const stopper = new AbortController();
    for (let i = 0; i < 100; i++) await sleep(1, stopper.signal);
    expect(getEventListeners(stopper.signal, "abort")).toHaveLength(0);
    // Concurrent waits: each listener is removed as its own timer fires.
    await Promise.all(Array.from({ length: 5 }, (_, i) => sleep(i + 1, stopper.signal)));
    expect(getEventListeners(stopper.signal, "abort")).toHaveLength(0);
    await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
  });

  it("waits the time given without a signal", async () => {
    const started = performance.now();
    // waits on purpose: the sleep under test
    await sleep(50);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it("ends at once when the signal aborts, or has aborted, and leaves no listener", async () => {
    const stopper = new AbortController();
    const started = performance.now();
    const waiting = sleep(60_000, stopper.signal);
    expect(getEventListeners(stopper.signal, "abort")).toHaveLength(1);
    setTimeout(() => stopper.abort(), 10);
    await waiting;
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(getEventListeners(stopper.signal, "abort")).toHaveLength(0);
    const again = performance.now();
    // waits on purpose: the sleep under test, with a signal that has aborted
    await sleep(60_000, stopper.signal);
    expect(performance.now() - again).toBeLessThan(1_000);
    expect(getEventListeners(stopper.signal, "abort")).toHaveLength(0);
  });
});
