// The share of time background batches take while this process answers requests (docs/architecture.md "Jobs",
// "Background work never stalls the API"): the cost-based pause of a sweep or catch-up between two batches.
import { config } from "@/lib/platform/config";
import { processState } from "@/lib/platform/process-state";

/** The longest pause between two batches, milliseconds: a backlog still moves under unbroken load. */
export const MAX_PAUSE_MS = 2_000;

const state = processState();

/**
 * Requests this process is answering now, long-lived event streams aside (server.mjs counts them); 0 in a process
 * that serves no HTTP (a test calling a job body, a script).
 */
export function requestsInFlight(): number {
  return state.requestsInFlight?.() ?? 0;
}

/**
 * How long to pause after a batch of background work that ran `batchMs` milliseconds, so that while requests are in
 * flight the batches take at most BACKGROUND_SHARE_PERCENT of the time: `batchMs × (100 / share − 1)`, at most
 * {@link MAX_PAUSE_MS}; 0 when no request is in flight (an idle service drains a backlog at full speed) or the share
 * is 100.
 * @returns milliseconds, a whole number
 */
export function pauseAfterBatch(batchMs: number, inFlight: number = requestsInFlight()): number {
  const share = config().BACKGROUND_SHARE_PERCENT;
  if (inFlight === 0 || share >= 100 || batchMs <= 0) return 0;
  return Math.min(MAX_PAUSE_MS, Math.round(batchMs * (100 / share - 1)));
}

/**
 * Call between two batches of a sweep or catch-up, with the `performance.now()` at which the batch started: gives
 * the event loop to requests for {@link pauseAfterBatch} milliseconds, or for one turn when none are in flight.
 * The pauses of all jobs of this process add up on one schedule (its `backgroundResumeAt`): a batch's pause starts
 * where the pauses already owed end, and every job waits until the last one owed has passed, so the expiry sweep and
 * the callback catch-up at work together take BACKGROUND_SHARE_PERCENT of the time between them, not each
 * (docs/architecture.md "Jobs"). Never throws.
 */
export async function yieldToRequests(batchStartedMs: number): Promise<void> {
  const now = performance.now();
  const pauseMs = pauseAfterBatch(now - batchStartedMs);
  if (pauseMs === 0) {
    await new Promise((resolve) => setImmediate(resolve));
    return;
  }
  state.backgroundResumeAt = Math.max(state.backgroundResumeAt ?? 0, now) + pauseMs;
  // Another job's batch may push the schedule further while this one waits; a process that is stopping waits no more
  // (docs/operating.md "Stopping": its jobs finish what they hold while it drains).
  for (let wait = state.backgroundResumeAt - now; wait > 0 && !state.shuttingDown; wait = (state.backgroundResumeAt ?? 0) - performance.now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait, MAX_PAUSE_MS)));
  }
}

/** Items {@link mapInTurns} maps between two turns of the event loop. */
export const ITEMS_PER_TURN = 100;

/**
 * `items.map(fn)`, in turns of {@link ITEMS_PER_TURN} items with one turn of the event loop given to requests between
 * two (setImmediate), so a batch of background work never holds the event loop for long (docs/architecture.md "Jobs").
 * Up to ITEMS_PER_TURN items are mapped at once, without a pause.
 * @returns the mapped items, in order
 * @throws whatever `fn` throws
 */
export async function mapInTurns<T, R>(items: readonly T[], fn: (item: T) => R): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += ITEMS_PER_TURN) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const item of items.slice(i, i + ITEMS_PER_TURN)) out.push(fn(item));
  }
  return out;
}
