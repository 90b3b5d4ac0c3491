// Chaos mode: what a merchant's receiver is put through on top of normal delivery, so that it can be made
// robust against what real delivery does (docs/callbacks.md "Chaos mode"). The plan of an event is a pure
// function of its id and the target, so the service's delivery worker and the `sandpiper listen` process
// agree on it without talking to each other, and a test can predict it.
import { createHash } from "node:crypto";

/**
 * The kinds of injected request, and what a receiver that follows the receiver rules answers to each:
 * - `duplicate`: the same event again, correctly signed (answer 2xx, process nothing a second time);
 * - `delay`: the real request is held back, so later events of other payments arrive first (reordering);
 *   the request itself is genuine (answer 2xx);
 * - `bad_signature`: the real body with a signature made with another key (refuse: 4xx);
 * - `stale_timestamp`: the real body correctly signed, but with a timestamp 10 minutes old, outside the
 *   300-second tolerance (refuse: 4xx).
 */
export const CHAOS_KINDS = ["duplicate", "delay", "bad_signature", "stale_timestamp"] as const;
export type ChaosKind = (typeof CHAOS_KINDS)[number];

/** What a correct receiver answers to an injected request of each kind. */
export const CHAOS_EXPECTED: Record<ChaosKind, "2xx" | "refuse"> = {
  duplicate: "2xx",
  delay: "2xx",
  bad_signature: "refuse",
  stale_timestamp: "refuse",
};

/** Age of the timestamp of a `stale_timestamp` request, seconds (twice the 300-second tolerance). */
export const STALE_TIMESTAMP_AGE_SECONDS = 600;

/** Where an event is sent: the merchant's configured callback address, or a `sandpiper listen` process. */
export type ChaosTarget = "callback" | "listener";

/** The injections of one event for one target. `delayMs` is 0 unless `kinds` includes `delay`. */
export type ChaosPlan = { kinds: ChaosKind[]; delayMs: number };

/**
 * The chaos plan of one event for one target (docs/callbacks.md "Chaos mode"): deterministic in
 * (eventId, target), so retries of the service and restarts of a listener inject the same things.
 * About 3 events in 10 get a duplicate, 3 in 10 a delay of 0.5 to 3 s, 1 in 10 a request with a bad
 * signature and 1 in 10 a request with a stale timestamp; kinds combine independently.
 * @param eventId the event's id (a UUID).
 * @param target "callback" for configured-address deliveries, "listener" for listener forwards.
 * @returns `{ kinds, delayMs }` with kinds in {@link CHAOS_KINDS} order.
 */
export function chaosPlan(eventId: string, target: ChaosTarget): ChaosPlan {
  const digest = createHash("sha256").update(`${target}:${eventId}`).digest();
  const kinds: ChaosKind[] = [];
  if (digest.readUInt8(0) % 10 < 3) kinds.push("duplicate");
  const delayed = digest.readUInt8(1) % 10 < 3;
  if (delayed) kinds.push("delay");
  if (digest.readUInt8(2) % 10 < 1) kinds.push("bad_signature");
  if (digest.readUInt8(3) % 10 < 1) kinds.push("stale_timestamp");
  const delayMs = delayed ? 500 + (digest.readUInt16BE(4) % 2501) : 0;
  return { kinds, delayMs };
}
