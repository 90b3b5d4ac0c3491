// Every background job, in one list (docs/architecture.md "Jobs"): the embedded driver (lib/application/jobs/driver.ts) and the
// Inngest functions (lib/application/jobs/inngest.ts) are both built from it. Several processes may run a body at once: the
// sweeps, catch-ups and attempts claim rows with FOR UPDATE SKIP LOCKED, the prunes delete in bounded batches.
import type { RealInstant } from "@/lib/platform/clock";
import { EXPIRE_SESSIONS_JOB_ID, expireDueSessions } from "@/lib/domain/checkout-sessions/expire";
import { deliverDueCallbacks, deliverOne } from "@/lib/domain/callbacks/deliver";
import { MAX_ATTEMPTS } from "@/lib/contract/callbacks/retry-schedule";
import { compactAndVacuum } from "@/lib/domain/payments/counts";
import { getDb } from "@/lib/platform/db";
import { EXPIRE_PAYMENTS_JOB_ID, expireDuePayments } from "@/lib/domain/payments/expire";
import { pruneRequestLog } from "@/lib/application/request-log/retention";
import { extendSeededRates } from "@/lib/domain/pricing/seeded-rates";
import { pruneEvents } from "@/lib/domain/events/retention";
import { pruneRiskCounters } from "@/lib/domain/risk/velocity-rules";
import { concludeDueScenarios } from "@/lib/domain/payments/conclude-scenarios";
import { handOffCheckout, runStoreHandoffs } from "@/lib/simulators/store/handoff";
import { DELIVERY_DUE, STORE_HANDOFF_DUE, type DueEvent, type DuePayload } from "@/lib/domain/notify/due-events";
import { config } from "@/lib/platform/config";

/** Which driver runs a job body: the embedded loop of this process, or Inngest (lib/domain/notify/mode.ts). */
export type JobDriver = "embedded" | "inngest";

/**
 * A job polled at an interval.
 * - `intervalMs()`: its period in milliseconds, read from the configuration (lib/platform/config.ts). The embedded driver
 *   reads it when it starts; the Inngest functions when they are built (lib/application/jobs/schedule.ts says how it is
 *   honoured there).
 * - `run(now, driver)`: the body; takes the clock of the run (default: the real clock; tests pass one) and the
 *   driver that runs it, and returns a small JSON-able summary (Inngest keeps it as the step's result).
 */
export type PollingJob = {
  kind: "polling";
  id: string;
  name: string;
  intervalMs: () => number;
  run: (now?: RealInstant, driver?: JobDriver) => Promise<unknown>;
};

/** One round of an event-driven job: its JSON-able result, and when to try again (null: nothing left to do). */
export type AttemptResult = { result: Record<string, unknown>; retryAt: Date | null };

/**
 * A job that answers a due event (lib/domain/notify/due-events.ts), one run per announced item, under Inngest only:
 * - `due`: the event it answers, with the payload's schema and the polling job that catches up what an
 *   announcement missed (`due.catchUpJobId`; the embedded driver serves announcements by waking that job).
 * - `attempt(payload, now)`: one round for the item; `retryAt` asks for another round at that time.
 * - `rounds`: at most this many rounds; then the item is left to the catch-up job.
 */
export type EventJob<P extends DuePayload = DuePayload> = {
  kind: "event";
  id: string;
  name: string;
  due: DueEvent<P>;
  rounds: number;
  attempt(payload: P, now: RealInstant): Promise<AttemptResult>;
};

/** A registry entry: a polling job or an event-driven job. */
export type Job = PollingJob | EventJob;

/**
 * An event-driven entry, type-checked against its own due event (`attempt` takes that event's payload). The list
 * holds entries with the payload type erased (a zod schema's type is invariant, so `EventJob<{ deliveryId }>` is
 * not an `EventJob<DuePayload>`); the Inngest function parses each payload with the entry's own schema first.
 */
function eventJob<P extends DuePayload>(job: EventJob<P>): EventJob {
  return job as unknown as EventJob;
}

/** docs/api.md "Limits": the expiry check runs every 30 seconds (EXPIRY_SWEEP_INTERVAL_MS overrides it in tests). */
const expirySweepIntervalMs = () => config().EXPIRY_SWEEP_INTERVAL_MS;

/** Rounds of `deliver-callback`: 8 attempts plus room for waiting out another worker's lease. */
const DELIVERY_ROUNDS = MAX_ATTEMPTS + 2;
/** Rounds of `store-handoff` before it leaves a still-queued checkout to its catch-up job. */
const STORE_HANDOFF_ROUNDS = 8;

/**
 * Every background job: the one list both drivers are built from. The embedded driver polls the polling entries
 * at their intervals; Inngest gets one function per entry, polling or event-driven (lib/application/jobs/inngest.ts).
 */
export const JOBS: readonly Job[] = [
  { kind: "polling", id: EXPIRE_PAYMENTS_JOB_ID, name: "Expire due payments", intervalMs: expirySweepIntervalMs, run: (now) => expireDuePayments({ now }) },
  {
    kind: "polling",
    id: EXPIRE_SESSIONS_JOB_ID,
    name: "Expire due checkout sessions",
    intervalMs: expirySweepIntervalMs,
    run: (now) => expireDueSessions({ now }),
  },
  {
    kind: "polling",
    id: DELIVERY_DUE.catchUpJobId,
    name: "Deliver due callbacks (catch-up)",
    // Callbacks due now (new events are also announced at once after commit; this poll catches retries).
    intervalMs: () => config().DELIVERY_POLL_INTERVAL_MS,
    run: async (now, driver = "embedded") => {
      const { outcomes: _outcomes, ...counts } = await deliverDueCallbacks({
        now,
        workerId: driver === "inngest" ? "inngest-catch-up" : `embedded-${process.pid}`,
      });
      return counts;
    },
  },
  {
    kind: "polling",
    id: "compact-payment-counts",
    name: "Compact payment counts",
    // Folds the payment count changes into payment_counts, so list totals sum few rows, and vacuums what it deleted.
    intervalMs: () => config().COUNT_COMPACT_INTERVAL_MS,
    run: () => compactAndVacuum(),
  },
  {
    kind: "polling",
    id: "prune-risk-counters",
    name: "Prune ended velocity windows",
    // Velocity counters of ended windows can never refuse anything again.
    intervalMs: () => config().RISK_PRUNE_INTERVAL_MS,
    run: (now) => pruneRiskCounters(getDb(), now),
  },
  {
    kind: "polling",
    id: "prune-request-log",
    name: "Prune the request log",
    // Requests older than REQUEST_LOG_RETENTION_DAYS (default 14) are deleted, 10,000 per run.
    intervalMs: () => config().REQUEST_LOG_PRUNE_INTERVAL_MS,
    run: (now) => pruneRequestLog(getDb(), now),
  },
  {
    kind: "polling",
    id: "prune-events",
    name: "Prune old events, deliveries and attempts",
    // docs/callbacks.md "Retention": events older than EVENT_RETENTION_DAYS (default 30) with nothing left to send.
    intervalMs: () => config().EVENT_PRUNE_INTERVAL_MS,
    run: (now) => pruneEvents(now),
  },
  {
    kind: "polling",
    id: "extend-seeded-rates",
    name: "Extend the seeded sandbox's FX rates",
    // docs/guides/operate-sandpiper.md "Seeded sandbox": the seeded pairs keep a rate for every day from 30 days back to 90 days past the
    // latest sandbox day (the real one or a merchant's moved clock); nothing on a database that was not seeded.
    // Each start extends it too, before the first request (instrumentation.ts).
    intervalMs: () => config().SEEDED_RATES_INTERVAL_MS,
    run: (now) => extendSeededRates(getDb(), { now }),
  },
  {
    kind: "polling",
    id: "conclude-scenarios",
    name: "Conclude payments by scenario rules",
    // docs/api.md "Scenario rules": due conclusions, concluded as a manual completion would.
    intervalMs: () => config().SCENARIO_POLL_INTERVAL_MS,
    run: (now) => concludeDueScenarios({ now }),
  },
  {
    kind: "polling",
    id: STORE_HANDOFF_DUE.catchUpJobId,
    name: "Hand off due store checkouts (catch-up)",
    // Queued store checkouts due now (new ones are also announced at once after commit; this poll catches retries).
    intervalMs: () => config().STORE_HANDOFF_POLL_INTERVAL_MS,
    run: (now) => runStoreHandoffs({ now }),
  },
  eventJob({
    kind: "event",
    id: "deliver-callback",
    name: "Deliver one callback",
    due: DELIVERY_DUE,
    rounds: DELIVERY_ROUNDS,
    // One attempt (signing, address checks, attempt record); while PENDING, again at the retry schedule's time.
    attempt: async ({ deliveryId }, now) => {
      const r = await deliverOne(deliveryId, { now, workerId: "inngest" });
      const nextAttemptAt = r.nextAttemptAt?.toISOString() ?? null;
      const result = { claimed: r.claimed, state: r.state, attempt: r.claimed ? r.attempt : null, nextAttemptAt };
      return { result, retryAt: r.state === "PENDING" ? r.nextAttemptAt : null };
    },
  }),
  eventJob({
    kind: "event",
    id: "store-handoff",
    name: "Hand off one store checkout",
    due: STORE_HANDOFF_DUE,
    rounds: STORE_HANDOFF_ROUNDS,
    // One signed handoff; while the checkout stays QUEUED, again at its retry time.
    attempt: async ({ paymentId }, now) => {
      const r = await handOffCheckout(paymentId, { now });
      const result = { outcome: r.outcome, state: r.state, nextHandoffAt: r.nextHandoffAt?.toISOString() ?? null };
      return { result, retryAt: r.state === "QUEUED" ? r.nextHandoffAt : null };
    },
  }),
];

/** The polling entries of JOBS, in order: the embedded driver's jobs. */
export const POLLING_JOBS: readonly PollingJob[] = JOBS.filter((job): job is PollingJob => job.kind === "polling");

/** The event-driven entries of JOBS, in order. */
export const EVENT_JOBS: readonly EventJob[] = JOBS.filter((job): job is EventJob => job.kind === "event");
