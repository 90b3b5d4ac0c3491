// Retry schedule of callback delivery attempts. docs/callbacks.md (Delivery) and "Limits" (Callback).

/** At most this many delivery attempts per event; after the last one the delivery is FAILED. */
export const MAX_ATTEMPTS = 8;

/**
 * Base wait in seconds after attempt n, at index n - 1 (attempts 1 to 7):
 * 30 s, 2 min, 5 min, 10 min, 20 min, 40 min, 60 min. Total 8,250 s (about 2 h 17 min 30 s)
 * from the first to the eighth attempt, before jitter.
 */
export const BASE_WAITS_SECONDS: readonly number[] = Object.freeze([30, 120, 300, 600, 1200, 2400, 3600]);

const JITTER = 0.1;
const MIN_WAIT_MS = 30_000;
const MAX_WAIT_MS = 3_600_000;

/**
 * Wait before the next callback attempt, in milliseconds, or null when no attempt is left.
 *
 * docs/callbacks.md (Delivery): at most 8 attempts, waits growing from 30 seconds to 1 hour.
 *
 * | after attempt | base wait |
 * |---|---|
 * | 1 | 30 s |
 * | 2 | 2 min |
 * | 3 | 5 min |
 * | 4 | 10 min |
 * | 5 | 20 min |
 * | 6 | 40 min |
 * | 7 | 60 min |
 * | 8 (or more) | null: give up, delivery FAILED |
 *
 * Jitter: the base wait is multiplied by a uniform factor in [0.9, 1.1]
 * (`1 + (2 * random() - 1) * 0.1`), rounded to whole milliseconds, then clamped to
 * [30 s, 1 h], so the first wait is never below 30 s and no wait exceeds 1 h.
 *
 * @param attemptNumber the 1-based number of the attempt that just failed.
 * @param random source of uniform numbers in [0, 1); values outside are clamped into it. `() => 0.5` gives no jitter.
 * @returns milliseconds to wait, or null after attempt MAX_ATTEMPTS.
 * @throws RangeError when attemptNumber is not an integer >= 1 or random() returns a non-finite number.
 */
export function nextAttemptDelayMs(attemptNumber: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError("attemptNumber must be an integer >= 1");
  }
  if (attemptNumber >= MAX_ATTEMPTS) return null;
  const r = random();
  if (!Number.isFinite(r)) throw new RangeError("random() must return a finite number");
  const factor = 1 + (2 * Math.min(Math.max(r, 0), 1) - 1) * JITTER;
  const ms = Math.round(BASE_WAITS_SECONDS[attemptNumber - 1] * 1000 * factor);
  return Math.min(Math.max(ms, MIN_WAIT_MS), MAX_WAIT_MS);
}
