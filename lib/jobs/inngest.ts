// Inngest functions: the production driver of the background jobs (docs/architecture.md "Stack").
// They call the same job bodies as the embedded driver (lib/jobs/registry.ts); exactly one driver runs:
// these when Inngest is configured (INNGEST_EVENT_KEY or INNGEST_DEV), else the embedded driver.
import { systemNow } from "@/lib/clock";
import { deliverOne } from "@/lib/callbacks/deliver";
import { MAX_ATTEMPTS } from "@/lib/callbacks/retry-schedule";
import { DELIVERY_DUE_EVENT, inngest, STORE_HANDOFF_DUE_EVENT } from "@/lib/notify/inngest-client";
import { JOBS, SWEEPS } from "@/lib/jobs/registry";
import { handOffCheckout } from "@/lib/store/handoff";
import { isUuid } from "@/lib/schemas/common";

/** Rounds of the delivery function: 8 attempts plus room for waiting out another worker's lease. */
export const DELIVERY_ROUNDS = MAX_ATTEMPTS + 2;

/** Rounds of the store handoff function before it leaves a still-queued checkout to the catch-up cron. */
export const STORE_HANDOFF_ROUNDS = 8;

/** The part of Inngest's step tools that step-based retries use. */
type RetrySteps = {
  run: (id: string, fn: () => Promise<unknown>) => Promise<unknown>;
  sleepUntil: (id: string, time: string) => Promise<unknown>;
};

/**
 * Step-based retries: runs `attempt` as step `<name>-<n>` for n = 1..rounds; while it answers a retry time
 * (`retryAt`, ISO 8601), sleeps until then (step `wait-<n>`) and runs the next round.
 * @returns the result of the round that needed no retry, or null when the rounds ran out
 */
async function inRounds<R>(step: RetrySteps, name: string, rounds: number, attempt: () => Promise<{ result: R; retryAt: string | null }>): Promise<R | null> {
  for (let round = 1; round <= rounds; round++) {
    const { result, retryAt } = (await step.run(`${name}-${round}`, attempt)) as { result: R; retryAt: string | null };
    if (retryAt === null) return result;
    await step.sleepUntil(`wait-${round}`, retryAt);
  }
  return null;
}

/** A uuid member of an event's data, or null when it is absent or malformed. */
function uuidMember(data: unknown, member: string): string | null {
  const value = (data as Record<string, unknown> | null | undefined)?.[member];
  return typeof value === "string" && isUuid(value) ? value : null;
}

/**
 * An Inngest function on `event` whose `data[member]` (a uuid) names one row: step-based retries of
 * `attempt` (steps `<step>-<n>`, sleeps `wait-<n>`, see inRounds). Returns `{ [member], ...result }` of the
 * last round, `{ [member]: null, state: null }` for a missing or malformed id, or `{ [member], ...unfinished }`
 * when the rounds ran out (the catch-up cron takes over).
 */
function retryingFunction<R extends object>(opts: {
  id: string;
  name: string;
  event: string;
  member: string;
  step: string;
  rounds: number;
  unfinished: { state: string; handedTo: string };
  attempt: (id: string) => Promise<{ result: R; retryAt: string | null }>;
}) {
  return inngest.createFunction({ id: opts.id, name: opts.name, triggers: [{ event: opts.event }] }, async ({ event, step }) => {
    const id = uuidMember(event.data, opts.member);
    if (!id) return { [opts.member]: null, state: null };
    const last = await inRounds(step, opts.step, opts.rounds, () => opts.attempt(id));
    return { [opts.member]: id, ...(last ?? opts.unfinished) };
  });
}

/** Clock of the job bodies; tests pass a controllable one. */
export type Clock = () => Date;

/**
 * Builds the Inngest functions around a clock (default: the real clock):
 *
 * - `expiry-sweeps` (cron every minute): docs/api.md "Limits" asks for an expiry check every 30 seconds, and
 *   Inngest crons have one-minute resolution, so each run runs every sweep of `SWEEPS` (payments, checkout
 *   sessions; one step each), sleeps 30 s (`step.sleep`) and runs them again: sweeps at :00 and :30.
 * - `deliver-callback` (event `sandpiper/delivery.due`, `data: { deliveryId }`, sent after commit):
 *   step-based retries: step `attempt-<n>` runs one attempt (`deliverOne`), and while the delivery stays
 *   PENDING the function sleeps until its next attempt time (`step.sleepUntil("wait-<n>")`, the retry
 *   schedule of lib/callbacks/retry-schedule.ts) and tries again; it ends when the delivery is SUCCEEDED,
 *   FAILED or NOT_CONFIGURED. A step that throws (database down) is retried by Inngest.
 *
 * - `store-handoff` (event `sandpiper/store-handoff.due`, `data: { paymentId }`, sent after the store
 *   payment commits): step `handoff-<n>` runs one signed handoff (`handOffCheckout`); while the checkout
 *   stays QUEUED it sleeps until the retry time (`step.sleepUntil("wait-<n>")`), for at most 8 rounds.
 * - `store-handoffs` (cron every minute): catch-up; runs `runStoreHandoffs` for every due checkout.
 *
 * Every body claims rows with FOR UPDATE SKIP LOCKED and leases, so overlapping runs are safe.
 */
export function createInngestFunctions(clock: Clock = () => systemNow()) {
  const expirySweeps = inngest.createFunction(
    { id: "expiry-sweeps", name: "Expiry sweeps (every 30 s)", triggers: [{ cron: "* * * * *" }] },
    async ({ step }) => {
      const expired: Record<string, number> = {};
      const sweep = async (at: string) => {
        for (const job of SWEEPS) {
          const count = await step.run(`${job.id}-at-${at}`, async () => Number(await job.run(clock(), "inngest")));
          expired[job.id] = (expired[job.id] ?? 0) + count;
        }
      };
      await sweep("0s");
      await step.sleep("wait-30s", "30s");
      await sweep("30s");
      return expired;
    },
  );

  const deliverCallback = retryingFunction({
    id: "deliver-callback", name: "Deliver one callback", event: DELIVERY_DUE_EVENT, member: "deliveryId",
    step: "attempt", rounds: DELIVERY_ROUNDS, unfinished: { state: "PENDING", handedTo: "deliver-due-callbacks" },
    attempt: async (deliveryId) => {
      const r = await deliverOne(deliveryId, { now: clock(), workerId: "inngest" });
      const nextAttemptAt = r.nextAttemptAt?.toISOString() ?? null;
      return { result: { claimed: r.claimed, state: r.state, attempt: r.claimed ? r.attempt : null, nextAttemptAt }, retryAt: r.state === "PENDING" ? nextAttemptAt : null };
    },
  });

  const storeHandoff = retryingFunction({
    id: "store-handoff", name: "Hand off one store checkout", event: STORE_HANDOFF_DUE_EVENT, member: "paymentId",
    step: "handoff", rounds: STORE_HANDOFF_ROUNDS, unfinished: { state: "QUEUED", handedTo: "store-handoffs" },
    attempt: async (paymentId) => {
      const r = await handOffCheckout(paymentId, { now: clock() });
      const nextHandoffAt = r.nextHandoffAt?.toISOString() ?? null;
      return { result: { outcome: r.outcome, state: r.state, nextHandoffAt }, retryAt: r.state === "QUEUED" ? nextHandoffAt : null };
    },
  });

  // One catch-up function per registry job marked "cron", with the job's id, every minute.
  const crons = JOBS.filter((job) => job.inngest === "cron").map((job) =>
    inngest.createFunction({ id: job.id, name: job.name, triggers: [{ cron: "* * * * *" }] }, async ({ step }) =>
      step.run(job.id, async () => (await job.run(clock(), "inngest")) as Record<string, unknown> | number),
    ),
  );

  return [expirySweeps, deliverCallback, storeHandoff, ...crons];
}

/** The functions served at /api/inngest. */
export const inngestFunctions = createInngestFunctions();
