// Retry schedule of callback delivery attempts. docs/callbacks.md (Delivery, "Fast retries") and "Limits" (Callback).

/** At most this many delivery attempts per event; after the last one the delivery is FAILED. */
export const MAX_ATTEMPTS = 8;

/**
 * Base wait in seconds after attempt n, at index n - 1 (attempts 1 to 7):
 * 30 s, 2 min, 5 min, 10 min, 20 min, 40 min, 60 min. Total 8,250 s (about 2 h 17 min 30 s)
 * from the first to the eighth attempt, before jitter.
 */
export const BASE_WAITS_SECONDS: readonly number[] = Object.freeze([30, 120, 300, 600, 1200, 2400, 3600]);

/**
 * Fast retries (docs/callbacks.md "Fast retries", a merchant's sandbox setting): the same schedule with every wait,
 * and both clamps, divided by this: 0.5 s, 2 s, 5 s, 10 s, 20 s, 40 s, 60 s (137.5 s from the first to the eighth
 * attempt, before jitter). Seconds instead of minutes; the number of attempts does not change.
 */
export const FAST_RETRY_DIVISOR = 60;

/** Each wait is multiplied by a uniform factor in [1 - JITTER, 1 + JITTER]. */
export const JITTER = 0.1;
/** The clamps of every wait of the normal schedule (fast retries: divided by FAST_RETRY_DIVISOR), in milliseconds. */
export const MIN_WAIT_MS = 30_000;
export const MAX_WAIT_MS = 3_600_000;

/** A merchant's choice of schedule: the normal one, or fast retries (`merchants.fast_retries`). */
export type RetrySpeed = { fastRetries: boolean };

/**
 * The base waits in seconds of a merchant's schedule, attempts 1 to 7 (what docs, console and API show).
 * @returns BASE_WAITS_SECONDS, or each divided by FAST_RETRY_DIVISOR with fast retries.
 */
export function retryWaitsSeconds(speed: RetrySpeed = { fastRetries: false }): number[] {
  return BASE_WAITS_SECONDS.map((s) => (speed.fastRetries ? s / FAST_RETRY_DIVISOR : s));
}

/**
 * Wait before the next callback attempt, in milliseconds, or null when no attempt is left.
 *
 * docs/callbacks.md (Delivery): at most 8 attempts, waits growing from 30 seconds to 1 hour.
 *
 * | after attempt | base wait | with fast retries |
 * |---|---|---|
 * | 1 | 30 s | 0.5 s |
 * | 2 | 2 min | 2 s |
 * | 3 | 5 min | 5 s |
 * | 4 | 10 min | 10 s |
 * | 5 | 20 min | 20 s |
 * | 6 | 40 min | 40 s |
 * | 7 | 60 min | 60 s |
 * | 8 (or more) | null: give up, delivery FAILED | null |
 *
 * Jitter: the base wait is multiplied by a uniform factor in [0.9, 1.1]
 * (`1 + (2 * random() - 1) * 0.1`), rounded to whole milliseconds, then clamped to
 * [30 s, 1 h], so the first wait is never below 30 s and no wait exceeds 1 h. With fast retries
 * (docs/callbacks.md "Fast retries") the base wait and the clamps are divided by FAST_RETRY_DIVISOR: [0.5 s, 60 s].
 *
 * @param attemptNumber the 1-based number of the attempt that just failed.
 * @param random source of uniform numbers in [0, 1); values outside are clamped into it. `() => 0.5` gives no jitter.
 * @param speed the merchant's choice (default: the normal schedule).
 * @returns milliseconds to wait, or null after attempt MAX_ATTEMPTS.
 * @throws RangeError when attemptNumber is not an integer >= 1 or random() returns a non-finite number.
 */
export function nextAttemptDelayMs(attemptNumber: number, random: () => number = Math.random, speed: RetrySpeed = { fastRetries: false }): number | null {
  if (!Number.isInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError("attemptNumber must be an integer >= 1");
  }
  const base = BASE_WAITS_SECONDS[attemptNumber - 1];
  if (attemptNumber >= MAX_ATTEMPTS || base === undefined) return null;
  const r = random();
  if (!Number.isFinite(r)) throw new RangeError("random() must return a finite number");
  const divisor = speed.fastRetries ? FAST_RETRY_DIVISOR : 1;
  const factor = 1 + (2 * Math.min(Math.max(r, 0), 1) - 1) * JITTER;
  const ms = Math.round((base * 1000 * factor) / divisor);
  return Math.min(Math.max(ms, MIN_WAIT_MS / divisor), MAX_WAIT_MS / divisor);
}

/**
 * What a delivery that waits for its callback address says (GET /v1/events/{id} `waiting`, the console), docs/callbacks.md
 * "An address that refuses connections": `address refused connections since <since>`.
 * @param since the real time the address's refusals in a row began, as the caller shows times (ISO 8601 in the API,
 *   the console's Dubai time there)
 */
export function addressWaitText(since: string): string {
  return `address refused connections since ${since}`;
}
