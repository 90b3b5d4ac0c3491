import { expireDueSessions } from "@/lib/checkout-sessions/expire";
import { deliverDueCallbacks } from "@/lib/callbacks/deliver";
import { DELIVERY_JOB_ID } from "@/lib/notify/announce";
import { compactAndVacuum } from "@/lib/payments/counts";
import { getDb } from "@/lib/db";
import { expireDuePayments } from "@/lib/payments/expire";
import { pruneRequestLog } from "@/lib/request-log/retention";
import { pruneRiskCounters } from "@/lib/risk/velocity-rules";
import { concludeDueScenarios } from "@/lib/payments/conclude-scenarios";
import { runStoreHandoffs } from "@/lib/store/handoff";
import { STORE_HANDOFF_JOB_ID } from "@/lib/notify/announce";
import { config } from "@/lib/config";

/** Which driver runs a job body: the embedded loop of this process, or Inngest (lib/notify/mode.ts). */
export type JobDriver = "embedded" | "inngest";

/**
 * A background job body, how often the embedded driver polls it, and how the Inngest driver schedules it.
 * `run(now, driver)` takes the clock of the run (default: the real clock; tests pass one) and the driver that
 * runs it; it returns a small JSON-able summary (Inngest keeps it as the step's result).
 * `inngest`: "sweep" = run by the Inngest function `expiry-sweeps` at :00 and :30 of every minute; "cron" =
 * its own Inngest function with the job's id, every minute (for work that is also announced by an event, the
 * catch-up of what an announcement missed).
 */
export type Job = {
  id: string;
  name: string;
  intervalMs: () => number;
  run: (now?: Date, driver?: JobDriver) => Promise<unknown>;
  inngest: "sweep" | "cron";
};

/** docs/api.md "Limits": the expiry check runs every 30 seconds (EXPIRY_SWEEP_INTERVAL_MS overrides it in tests). */
const expirySweepIntervalMs = () => config().EXPIRY_SWEEP_INTERVAL_MS;

/**
 * Every background job: the one list both drivers are built from. The embedded driver (lib/jobs/driver.ts)
 * polls each body at its interval; the Inngest functions (lib/jobs/inngest.ts) are made from the same entries
 * (`inngest`), plus the per-row functions that announcements trigger. Each body claims rows with FOR UPDATE
 * SKIP LOCKED, so several processes may run it at once.
 */
export const JOBS: readonly Job[] = [
  { id: "expire-due-payments", name: "Expire due payments", intervalMs: expirySweepIntervalMs, inngest: "sweep", run: (now) => expireDuePayments({ now }) },
  { id: "expire-checkout-sessions", name: "Expire due checkout sessions", intervalMs: expirySweepIntervalMs, inngest: "sweep", run: (now) => expireDueSessions({ now }) },
  {
    id: DELIVERY_JOB_ID,
    name: "Deliver due callbacks (catch-up)",
    // Callbacks due now (new events are also announced at once after commit; this poll catches retries).
    intervalMs: () => config().DELIVERY_POLL_INTERVAL_MS,
    inngest: "cron",
    run: async (now, driver = "embedded") => {
      const { outcomes: _outcomes, ...counts } = await deliverDueCallbacks({ now, workerId: driver === "inngest" ? "inngest-catch-up" : `embedded-${process.pid}` });
      return counts;
    },
  },
  {
    id: "compact-payment-counts",
    name: "Compact payment counts",
    // Folds the payment count changes into payment_counts, so list totals sum few rows, and vacuums what it deleted.
    intervalMs: () => config().COUNT_COMPACT_INTERVAL_MS,
    inngest: "cron",
    run: () => compactAndVacuum(),
  },
  {
    id: "prune-risk-counters",
    name: "Prune ended velocity windows",
    // Velocity counters of ended windows can never refuse anything again.
    intervalMs: () => config().RISK_PRUNE_INTERVAL_MS,
    inngest: "cron",
    run: (now) => pruneRiskCounters(getDb(), now),
  },
  {
    id: "prune-request-log",
    name: "Prune the request log",
    // Requests older than REQUEST_LOG_RETENTION_DAYS (default 14) are deleted, 10,000 per run.
    intervalMs: () => config().REQUEST_LOG_PRUNE_INTERVAL_MS,
    inngest: "cron",
    run: (now) => pruneRequestLog(getDb(), now),
  },
  {
    id: "conclude-scenarios",
    name: "Conclude payments by scenario rules",
    // docs/api.md "Scenario rules": due conclusions, concluded as a manual completion would.
    intervalMs: () => config().SCENARIO_POLL_INTERVAL_MS,
    inngest: "cron",
    run: (now) => concludeDueScenarios({ now }),
  },
  {
    id: STORE_HANDOFF_JOB_ID,
    name: "Hand off due store checkouts (catch-up)",
    // Queued store checkouts due now (new ones are also announced at once after commit; this poll catches retries).
    intervalMs: () => config().STORE_HANDOFF_POLL_INTERVAL_MS,
    inngest: "cron",
    run: (now) => runStoreHandoffs({ now }),
  },
];

/** The 30-second sweeps: polled every EXPIRY_SWEEP_INTERVAL_MS embedded; run by `expiry-sweeps` on Inngest. */
export const SWEEPS: readonly Job[] = JOBS.filter((job) => job.inngest === "sweep");
