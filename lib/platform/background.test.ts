import { afterEach, describe, expect, it } from "vitest";
import { ITEMS_PER_TURN, mapInTurns, MAX_PAUSE_MS, pauseAfterBatch, requestsInFlight, yieldToRequests } from "@/lib/platform/background";
import { processState } from "@/lib/platform/process-state";

const state = processState();

afterEach(() => {
  delete state.requestsInFlight;
  delete state.backgroundResumeAt;
  delete process.env.BACKGROUND_SHARE_PERCENT;
});

describe("background work yields to requests", () => {
  it("pauses four times a batch's length at the default 20% share while requests are in flight", () => {
    expect(pauseAfterBatch(50, 3)).toBe(200);
    expect(pauseAfterBatch(12.4, 1)).toBe(50);
  });

  it("does not pause when no request is in flight, so an idle service drains a backlog at full speed", () => {
    expect(pauseAfterBatch(500, 0)).toBe(0);
  });

  it("follows BACKGROUND_SHARE_PERCENT: 50% pauses as long as the batch ran, 100% never pauses", () => {
    process.env.BACKGROUND_SHARE_PERCENT = "50";
    expect(pauseAfterBatch(80, 2)).toBe(80);
    process.env.BACKGROUND_SHARE_PERCENT = "100";
    expect(pauseAfterBatch(80, 2)).toBe(0);
  });

  it("never pauses longer than MAX_PAUSE_MS, so a backlog still moves under unbroken load", () => {
    expect(pauseAfterBatch(60_000, 5)).toBe(MAX_PAUSE_MS);
  });

  it("reads the requests in flight that server.mjs counts, and 0 outside the server", () => {
    expect(requestsInFlight()).toBe(0);
    state.requestsInFlight = () => 7;
    expect(requestsInFlight()).toBe(7);
    expect(pauseAfterBatch(10)).toBe(40);
  });

  it("yieldToRequests waits out the pause while requests are in flight, and only one turn without them", async () => {
    const idleStart = performance.now();
    await yieldToRequests(performance.now() - 100);
    expect(performance.now() - idleStart).toBeLessThan(300);

    state.requestsInFlight = () => 1;
    const busyStart = performance.now();
    await yieldToRequests(performance.now() - 100);
    expect(performance.now() - busyStart).toBeGreaterThanOrEqual(395);
  });

  it("two jobs pausing together share one budget: each waits out both pauses, not only its own", async () => {
    state.requestsInFlight = () => 1;
    const started = performance.now();
    const ended: number[] = [];
    // Two batches of 100 ms ending together: 400 ms owed by each, 800 ms in all before either runs again.
    await Promise.all([yieldToRequests(started - 100), yieldToRequests(started - 100)].map((p) => p.then(() => ended.push(performance.now() - started))));
    expect(ended).toHaveLength(2);
    for (const ms of ended) expect(ms).toBeGreaterThanOrEqual(795);
  });

  it("a process that is stopping does not wait out the schedule: its jobs finish what they hold while it drains", async () => {
    state.requestsInFlight = () => 1;
    state.shuttingDown = true;
    try {
      const started = performance.now();
      await yieldToRequests(started - 400); // 1,600 ms owed
      expect(performance.now() - started).toBeLessThan(400);
    } finally {
      delete state.shuttingDown;
    }
  });

  it("mapInTurns maps in order and gives the event loop a turn between two turns of items, none within one", async () => {
    const items = Array.from({ length: ITEMS_PER_TURN * 2 + 1 }, (_, i) => i);
    const seen: string[] = [];
    let turns = 0;
    const ticker = setInterval(() => undefined, 1); // keeps the loop turning
    const counter = () => setImmediate(() => (turns++, turns < 10 && counter()));
    counter();
    const mapped = await mapInTurns(items, (i) => {
      if (i % ITEMS_PER_TURN === 0) seen.push(`item ${i} after ${turns} turns`);
      return i * 2;
    });
    clearInterval(ticker);
    expect(mapped).toEqual(items.map((i) => i * 2));
    // The first turn of items runs at once; each later one after at least one more turn of the loop.
    expect(seen).toEqual([
      "item 0 after 0 turns",
      expect.stringMatching(new RegExp(`^item ${ITEMS_PER_TURN} after [1-9]`)),
      expect.stringMatching(new RegExp(`^item ${ITEMS_PER_TURN * 2} after [2-9]`)),
    ]);
    expect(await mapInTurns([], (i: number) => i)).toEqual([]);
  });
});
