// How long the event log keeps an event with its deliveries and their attempts (docs/callbacks.md "Retention"), and
// the job body that prunes them. Idempotency records are never pruned (docs/api.md "Idempotency").
import { systemNow } from "@/lib/platform/clock";
import { yieldToRequests } from "@/lib/platform/background";
import { config } from "@/lib/platform/config";
import { IdRow, parseRows, transaction } from "@/lib/platform/db";

/** Events one prune batch deletes, each with everything that hangs from it, in one short transaction. */
export const EVENT_PRUNE_BATCH = 500;
/** The most batches one run deletes (the job runs again at its interval). */
const MAX_BATCHES = 20;

/** What a prune deleted: events, their deliveries, and the deliveries' attempts. */
export type PrunedEvents = { events: number; deliveries: number; attempts: number };

/**
 * Job body `prune-events` (docs/callbacks.md "Retention"): deletes events created more than EVENT_RETENTION_DAYS
 * before `now` (default 30 days) whose every delivery has ended (SUCCEEDED, FAILED or NOT_CONFIGURED: nothing is left
 * to send), with their deliveries, delivery attempts, chaos injections, redeliveries and listener forward records,
 * oldest first, in batches of {@link EVENT_PRUNE_BATCH}, each its own short transaction (several processes may run
 * it: the events are claimed FOR UPDATE SKIP LOCKED). An event with a PENDING delivery is kept whatever its age.
 * Events of a merchant whose sandbox clock is moved carry sandbox times, so they are kept until the real clock
 * passes their time too. The console's delivery charts count from their own daily figures and keep them.
 * @returns how many events, deliveries and attempts were deleted.
 */
export async function pruneEvents(now: Date = systemNow()): Promise<PrunedEvents> {
  const before = new Date(now.getTime() - config().EVENT_RETENTION_DAYS * 86_400_000);
  const total: PrunedEvents = { events: 0, deliveries: 0, attempts: 0 };
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const started = performance.now();
    const pruned = await transaction(async (tx) => {
      const events = parseRows(
        IdRow,
        await tx.$queryRaw<Record<string, unknown>[]>`
        SELECT e.id FROM events e
        WHERE e.created_at < ${before} AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.state = 'PENDING')
        ORDER BY e.created_at LIMIT ${EVENT_PRUNE_BATCH} FOR UPDATE SKIP LOCKED`,
      ).map((r) => r.id);
      if (events.length === 0) return { events: 0, deliveries: 0, attempts: 0 };
      const deliveries = parseRows(
        IdRow,
        await tx.$queryRaw<Record<string, unknown>[]>`SELECT id FROM deliveries WHERE event_id = ANY(${events}::uuid[]) FOR UPDATE`,
      ).map((r) => r.id);
      await tx.$executeRaw`DELETE FROM chaos_injections WHERE delivery_id = ANY(${deliveries}::uuid[])`;
      const attempts = await tx.$executeRaw`DELETE FROM delivery_attempts WHERE delivery_id = ANY(${deliveries}::uuid[])`;
      await tx.$executeRaw`DELETE FROM event_redeliveries WHERE event_id = ANY(${events}::uuid[])`;
      await tx.$executeRaw`DELETE FROM listener_forwards WHERE event_id = ANY(${events}::uuid[])`;
      await tx.$executeRaw`DELETE FROM deliveries WHERE id = ANY(${deliveries}::uuid[])`;
      await tx.$executeRaw`DELETE FROM events WHERE id = ANY(${events}::uuid[])`;
      return { events: events.length, deliveries: deliveries.length, attempts };
    });
    total.events += pruned.events;
    total.deliveries += pruned.deliveries;
    total.attempts += pruned.attempts;
    if (pruned.events < EVENT_PRUNE_BATCH) break;
    await yieldToRequests(started);
  }
  return total;
}
