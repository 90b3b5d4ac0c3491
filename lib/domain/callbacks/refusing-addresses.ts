// Callback addresses that refuse connections, and how long their deliveries wait before the next try
// (docs/callbacks.md "An address that refuses connections"; docs/decisions/0191-deliveries-wait-while-an-address-refuses-connections.md).
// Kept in this process's memory: the wait itself is written on the deliveries (next_attempt_at), which every process
// reads, so a process without the entry still finds them not yet due.
import { later, type RealInstant } from "@/lib/platform/clock";
import { FAST_RETRY_DIVISOR, MIN_WAIT_MS, type RetrySpeed } from "@/lib/contract/callbacks/retry-schedule";

/** The longest wait of an address that keeps refusing, milliseconds (fast retries: divided by FAST_RETRY_DIVISOR). */
export const MAX_REFUSAL_WAIT_MS = 300_000;

/** An address's refusals in a row and the real time until which its deliveries wait. */
type Refusal = { refusals: number; until: RealInstant };

const refusing = new Map<string, Refusal>();

/**
 * The wait after an address's `refusals`-th refusal in a row, milliseconds: the retry schedule's shortest wait (30 s)
 * doubled at each further refusal, at most {@link MAX_REFUSAL_WAIT_MS} (5 min); with fast retries both divided by
 * FAST_RETRY_DIVISOR (0.5 s to 5 s).
 * @throws RangeError when `refusals` is not an integer >= 1
 */
export function refusalWaitMs(refusals: number, speed: RetrySpeed = { fastRetries: false }): number {
  if (!Number.isInteger(refusals) || refusals < 1) throw new RangeError("refusals must be an integer >= 1");
  const divisor = speed.fastRetries ? FAST_RETRY_DIVISOR : 1;
  return Math.min(MIN_WAIT_MS * 2 ** Math.min(refusals - 1, 20), MAX_REFUSAL_WAIT_MS) / divisor;
}

/**
 * Until when the deliveries to `url` wait because it refused a connection, or null when they may be sent now (no
 * refusal, or its wait has passed: the next attempt is the probe).
 */
export function refusingUntil(url: string, now: RealInstant): RealInstant | null {
  const entry = refusing.get(url);
  return entry && entry.until.getTime() > now.getTime() ? entry.until : null;
}

/**
 * Records that `url` refused a connection at `now` (a real attempt, recorded as such by the caller).
 * @returns until when its other deliveries wait ({@link refusalWaitMs} of the refusals in a row)
 */
export function recordRefusal(url: string, now: RealInstant, speed: RetrySpeed): RealInstant {
  const refusals = (refusing.get(url)?.refusals ?? 0) + 1;
  const until = later(now, refusalWaitMs(refusals, speed));
  refusing.set(url, { refusals, until });
  return until;
}

/** Records that `url` accepted a connection (whatever it answered): its deliveries are sent again at once. */
export function recordAccepted(url: string): void {
  refusing.delete(url);
}
