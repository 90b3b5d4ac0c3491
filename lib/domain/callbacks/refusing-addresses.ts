// Callback addresses that refuse connections: how long their deliveries wait, and the probe that ends the wait as soon
// as the address accepts a connection again (docs/callbacks.md "An address that refuses connections";
// docs/decisions/0197-a-probe-ends-an-address-s-wait-as-soon-as-it-listens.md).
// Kept in this process's memory: the wait itself is written on the deliveries (next_attempt_at, waiting_since), which
// every process reads, so a process without the entry still finds them not yet due.
import { isBefore, later, systemNow, type RealInstant } from "@/lib/platform/clock";
import { FAST_RETRY_DIVISOR, MIN_WAIT_MS, type RetrySpeed } from "@/lib/contract/callbacks/retry-schedule";
import { PROBE_INTERVAL_MS, probeConnects, type ProbeTarget } from "@/lib/contract/callbacks/address-probe";

/** The longest wait of an address that keeps refusing, milliseconds (fast retries: divided by FAST_RETRY_DIVISOR). */
export const MAX_REFUSAL_WAIT_MS = 300_000;
/** Addresses kept at most; past it the one whose refusals began longest ago is forgotten (its deliveries keep their wait). */
export const MAX_REFUSING_ADDRESSES = 10_000;

/** Where a probe connects: the address a refused attempt connected to (after the address rule's DNS check) and its port. */
export type { ProbeTarget };

/**
 * What ends a wait: called once when a probe of `url` connects, after the entry is gone (new deliveries are sent at
 * once). It releases the deliveries that wait for `url` (lib/domain/callbacks/deliver.ts) and logs its own errors:
 * the probe loop ignores a rejection.
 */
export type Release = (url: string) => Promise<void>;

/**
 * An address's refusals in a row: their number, the real time the first of them happened, the real time until which
 * its deliveries wait, where to probe, and what to call when a probe connects.
 */
type Refusal = { refusals: number; since: RealInstant; until: RealInstant; target: ProbeTarget | null; release: Release; probing: boolean };

const refusing = new Map<string, Refusal>();
let probeTimer: NodeJS.Timeout | null = null;

/**
 * The wait after an address's `refusals`-th refusal in a row, milliseconds: the retry schedule's shortest wait (30 s)
 * doubled at each further refusal, at most {@link MAX_REFUSAL_WAIT_MS} (5 min); with fast retries both divided by
 * FAST_RETRY_DIVISOR (0.5 s to 5 s). A probe that connects ends the wait earlier.
 * @throws RangeError when `refusals` is not an integer >= 1
 */
export function refusalWaitMs(refusals: number, speed: RetrySpeed = { fastRetries: false }): number {
  if (!Number.isInteger(refusals) || refusals < 1) throw new RangeError("refusals must be an integer >= 1");
  const divisor = speed.fastRetries ? FAST_RETRY_DIVISOR : 1;
  return Math.min(MIN_WAIT_MS * 2 ** Math.min(refusals - 1, 20), MAX_REFUSAL_WAIT_MS) / divisor;
}

/** Why and since when an address's deliveries wait: the real time its refusals in a row began, and the wait's end. */
export type AddressWait = { since: RealInstant; until: RealInstant };

/**
 * Whether the deliveries to `url` wait because it refused a connection: `{ since, until }` while an earlier refusal's
 * wait lasts at `now` (real time) and no probe has connected since, or null when they may be sent now (no refusal, a
 * probe connected, or the wait has passed: the next attempt is then sent as the probe).
 */
export function refusingUntil(url: string, now: RealInstant): AddressWait | null {
  const entry = refusing.get(url);
  return entry && isBefore(now, entry.until) ? { since: entry.since, until: entry.until } : null;
}

/**
 * Records that `url` refused a connection at `now` (a real attempt, recorded as such by the caller), and probes it from
 * then on, every {@link PROBE_INTERVAL_MS} while its wait lasts: a TCP connect to `target` with nothing sent and no
 * database write. The first probe that connects forgets the refusal and calls `release` once.
 * @param target where the refused attempt connected (null: the address is not probed, its wait simply runs out)
 * @returns the wait: since when the address refuses (the first refusal in a row) and until when its other deliveries
 *   wait ({@link refusalWaitMs} of the refusals in a row)
 */
export function recordRefusal(url: string, now: RealInstant, speed: RetrySpeed, target: ProbeTarget | null, release: Release): AddressWait {
  const previous = refusing.get(url);
  const refusals = (previous?.refusals ?? 0) + 1;
  const since = previous?.since ?? now;
  const until = later(now, refusalWaitMs(refusals, speed));
  refusing.delete(url); // re-inserted last: the map's order is the order in which addresses last refused
  refusing.set(url, { refusals, since, until, target: target ?? previous?.target ?? null, release, probing: false });
  if (refusing.size > MAX_REFUSING_ADDRESSES) refusing.delete(refusing.keys().next().value!);
  startProbing();
  return { since, until };
}

/**
 * Whether `url`'s refusals in a row are still on record: true from its refusal until a connection to it is accepted
 * (a probe or an attempt), also after its wait has run out; false once it accepted one (or it never refused).
 */
export function stillRefuses(url: string): boolean {
  return refusing.has(url);
}

/**
 * Records that `url` accepted a connection (whatever it answered): its deliveries are sent again at once.
 * @returns true when this ended a wait that still lasted (the caller releases the deliveries that wait for `url`)
 */
export function recordAccepted(url: string, now: RealInstant): boolean {
  const entry = refusing.get(url);
  refusing.delete(url);
  return entry !== undefined && isBefore(now, entry.until);
}

/** Starts the probe loop of this process if it is not running: one timer, not holding the process open. */
function startProbing(): void {
  if (probeTimer) return;
  probeTimer = setInterval(probeAll, PROBE_INTERVAL_MS);
  probeTimer.unref();
}

/**
 * One round of the probe loop: each address whose wait still lasts and that is not being probed already gets one
 * connect; one that connects is forgotten and released. The loop stops when no address waits.
 */
function probeAll(): void {
  const now = systemNow();
  let waiting = 0;
  for (const [url, entry] of refusing) {
    if (!entry.target || !isBefore(now, entry.until)) continue;
    waiting++;
    if (entry.probing) continue;
    entry.probing = true;
    void probeConnects(entry.target)
      .then(async (accepted) => {
        entry.probing = false;
        // A later refusal replaced the entry meanwhile (a new run of refusals): the probe answers for the old one only.
        if (!accepted || refusing.get(url) !== entry) return;
        refusing.delete(url);
        await entry.release(url);
      })
      .catch(() => undefined); // a release logs its own errors (Release)
  }
  if (waiting === 0 && probeTimer) {
    clearInterval(probeTimer);
    probeTimer = null;
  }
}
