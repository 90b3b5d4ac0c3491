import { expireDueSessions } from "@/lib/checkout-sessions/expire";
import { deliverDueCallbacks } from "@/lib/events/deliver";
import { DELIVERY_JOB_ID } from "@/lib/jobs/announce";
import { compactPaymentCounts } from "@/lib/payments/counts";
import { expireDuePayments } from "@/lib/payments/expire";
import "@/lib/store/expiry"; // store checkouts expire with their payment (onPaymentExpired hook)
import { runStoreHandoffs } from "@/lib/store/handoff";
import { STORE_HANDOFF_JOB_ID } from "@/lib/store/handoff-announce";

/**
 * A background job body and how often the embedded driver polls it. `run(now)` takes the clock of the run
 * (default: the real clock); the drivers pass none, tests pass one.
 */
export type Job = { id: string; intervalMs: () => number; run: (now?: Date) => Promise<unknown> };

/** SPEC "Limits": the expiry check runs every 30 seconds (EXPIRY_SWEEP_INTERVAL_MS overrides it in tests). */
const expirySweepIntervalMs = () => Number(process.env.EXPIRY_SWEEP_INTERVAL_MS ?? 30_000);

/**
 * The 30-second sweeps: the embedded driver polls them every EXPIRY_SWEEP_INTERVAL_MS; the Inngest cron
 * `expiry-sweeps` runs each of them at :00 and :30 of every minute.
 */
export const SWEEPS: Job[] = [
  { id: "expire-due-payments", intervalMs: expirySweepIntervalMs, run: (now) => expireDuePayments({ now }) },
  { id: "expire-checkout-sessions", intervalMs: expirySweepIntervalMs, run: (now) => expireDueSessions({ now }) },
];

/**
 * Every background job. The embedded driver (lib/jobs/driver.ts) polls these; the Inngest functions
 * (lib/jobs/inngest.ts) call the same bodies. Each body claims rows with FOR UPDATE SKIP LOCKED, so
 * several processes may run it at once.
 */
export const JOBS: Job[] = [
  ...SWEEPS,
  {
    id: DELIVERY_JOB_ID,
    // Callbacks due now (new events are also announced at once after commit; this poll catches retries).
    intervalMs: () => Number(process.env.DELIVERY_POLL_INTERVAL_MS ?? 1_000),
    run: (now) => deliverDueCallbacks({ now, workerId: `embedded-${process.pid}` }),
  },
  {
    id: "compact-payment-counts",
    // Folds the payment count changes into payment_counts, so list totals sum few rows.
    intervalMs: () => Number(process.env.COUNT_COMPACT_INTERVAL_MS ?? 2_000),
    run: () => compactPaymentCounts(),
  },
  {
    id: STORE_HANDOFF_JOB_ID,
    // Queued store checkouts due now (new ones are also announced at once after commit; this poll catches retries).
    intervalMs: () => Number(process.env.STORE_HANDOFF_POLL_INTERVAL_MS ?? 1_000),
    run: () => runStoreHandoffs(),
  },
];
