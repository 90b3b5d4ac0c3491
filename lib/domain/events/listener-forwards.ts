// Listener forwards on the service (docs/callbacks.md "Forwards on the service"): what `sandpiper listen` reports of
// each attempt to bring an event to the developer's receiver, recorded beside the event and shown with it. They are
// never deliveries: no delivery's state or attempts change.
import type { z } from "zod";
import { isBefore, later, realInstant, systemNow, type RealInstant } from "@/lib/platform/clock";
import { Prisma, type Db } from "@/lib/platform/db";
import { checkForwardToken, CLOCK_SKEW_MS } from "@/lib/domain/events/forward-token";
import { ListenerForward, type RecordForwards } from "@/lib/contract/schemas/api/events";
import { parseStored } from "@/lib/contract/schemas/stored/parse";

/** One listener forward of an event: its attempts and where it ended. */
export type ListenerForwardView = {
  id: string;
  kind: "event" | "redelivery";
  forwardTo: string;
  state: "DELIVERED" | "RETRYING" | "FAILED";
  attempts: { number: number; startedAt: string; durationMs: number; statusCode: number | null; error: string | null; nextAttemptAt: string | null }[];
};

const is2xx = (status: number | null) => status !== null && status >= 200 && status < 300;

/** An attempt of a batch that was not recorded, and why (`POST /v1/events/forwards` answer, member `refused`). */
export type RefusedForward = { index: number; forwardId: string; attempt: number; reason: string };

/**
 * Why an attempt that started at `started` cannot have been made by this listener session, or null when it can. Every
 * bound is real time, by type: the event's recording (`recorded_at`; null for events from before it was kept, which are
 * then bounded by the stream's opening only), the stream's opening, now and the token's end; a minute of clock skew
 * is allowed either way. The event's `created_at` is a SandboxInstant under a moved clock and cannot be passed here.
 */
function startedAtRefusal(started: RealInstant, bounds: { eventRecordedAt: RealInstant | null; openedAt: RealInstant; latest: RealInstant }): string | null {
  if (bounds.eventRecordedAt && isBefore(started, later(bounds.eventRecordedAt, -CLOCK_SKEW_MS))) {
    return `startedAt lies before the event was recorded (${bounds.eventRecordedAt.toISOString()}, real time)`;
  }
  if (isBefore(started, later(bounds.openedAt, -CLOCK_SKEW_MS))) return `startedAt lies before the stream opened (${bounds.openedAt.toISOString()})`;
  if (isBefore(bounds.latest, started)) return `startedAt lies after now or the forward token's end (${bounds.latest.toISOString()})`;
  return null;
}

/**
 * `POST /v1/events/forwards`: records a batch of forward attempts of the key's merchant (docs/callbacks.md
 * "Forwards on the service"), made by the listener session whose `forwardToken` the batch carries (issued to this
 * key in its stream's `ready` message). Attempts of events that are not the merchant's are left out and their ids
 * listed back; an attempt already recorded (the same forwardId and attempt) changes nothing. An attempt whose
 * startedAt (real time, the listener's clock) lies before its event was recorded or its stream opened, or after now
 * or the token's end (a minute of clock skew allowed), is refused alone: the rest of the batch is recorded and the
 * refused ones are listed back with the reason. A moved sandbox clock changes none of this: every bound is real time.
 * @throws ApiError 400 VALIDATION_ERROR when the forward token is not this key's or has expired
 *   ({@link checkForwardToken}); nothing of the batch is recorded then.
 * @param apiKeyId the reporting key: its listener secret signed the forwards (the signature debugger uses it).
 * @returns `{ recorded, duplicates, unknownEvents, refused }`.
 */
export async function recordForwards(db: Db, merchantId: string, apiKeyId: string, input: z.output<typeof RecordForwards>) {
  const now = systemNow();
  const session = await checkForwardToken(input.forwardToken, { apiKeyId, merchantId }, now);
  const ids = [...new Set(input.forwards.map((f) => f.eventId))];
  const events = await db.event.findMany({ where: { id: { in: ids }, merchantId }, select: { id: true, recordedAt: true } });
  // events.recorded_at is real time (docs/architecture.md "Which clock a column holds"); created_at is not.
  const recordedAt = new Map(events.map((e) => [e.id, e.recordedAt ? realInstant(e.recordedAt) : null]));
  const latest = isBefore(session.expiresAt, later(now, CLOCK_SKEW_MS)) ? session.expiresAt : later(now, CLOCK_SKEW_MS);
  const refused: RefusedForward[] = [];
  const rows = input.forwards.filter((f, index) => {
    const eventRecordedAt = recordedAt.get(f.eventId);
    if (eventRecordedAt === undefined) return false;
    const reason = startedAtRefusal(realInstant(f.startedAt), { eventRecordedAt, openedAt: session.openedAt, latest });
    if (reason) refused.push({ index, forwardId: f.forwardId, attempt: f.attempt, reason });
    return reason === null;
  });
  const recorded =
    rows.length === 0
      ? 0
      : (
          await db.listenerForward.createMany({
            data: rows.map((f) => ({
              merchantId,
              eventId: f.eventId,
              apiKeyId,
              forwardId: f.forwardId,
              cursor: BigInt(f.cursor),
              kind: f.kind,
              attempt: f.attempt,
              startedAt: new Date(f.startedAt),
              durationMs: f.durationMs,
              statusCode: f.statusCode,
              error: f.error,
              forwardTo: f.forwardTo,
              signedTimestamp: f.timestamp,
              signature: f.signature,
              responseSnippet: f.responseSnippet,
              nextAttemptAt: f.nextAttemptAt ? new Date(f.nextAttemptAt) : null,
            })),
            skipDuplicates: true,
          })
        ).count;
  return { recorded, duplicates: rows.length - recorded, unknownEvents: ids.filter((id) => !recordedAt.has(id)), refused };
}

/**
 * The listener forwards of one event, oldest first, each with its attempts: DELIVERED once an attempt got a 2xx,
 * RETRYING while the latest attempt names a next one, FAILED otherwise.
 */
export async function forwardsOf(db: Db, eventId: string): Promise<ListenerForwardView[]> {
  const rows = await db.listenerForward.findMany({ where: { eventId }, orderBy: [{ startedAt: "asc" }, { attempt: "asc" }] });
  const byForward = new Map<string, typeof rows>();
  for (const r of rows) byForward.set(r.forwardId, [...(byForward.get(r.forwardId) ?? []), r]);
  return [...byForward.entries()].map(([id, attempts]) => {
    const last = attempts.at(-1);
    if (!last) throw new Error(`listener forward ${id} listed without an attempt`);
    const state = attempts.some((a) => is2xx(a.statusCode)) ? "DELIVERED" : last.nextAttemptAt ? "RETRYING" : "FAILED";
    return {
      id,
      kind: parseStored(ListenerForward.shape.kind, last.kind, "listener_forwards.kind"),
      forwardTo: last.forwardTo,
      state,
      attempts: attempts.map((a) => ({
        number: a.attempt,
        startedAt: a.startedAt.toISOString(),
        durationMs: a.durationMs,
        statusCode: a.statusCode,
        error: a.error,
        nextAttemptAt: a.nextAttemptAt?.toISOString() ?? null,
      })),
    };
  });
}

/**
 * SQL condition: event `e` was delivered by a listener (some forward attempt got a 2xx). For the overview and the
 * callbacks chart, which count such an event as received rather than as needing attention.
 */
export const deliveredByListener = (event: Prisma.Sql) =>
  Prisma.sql`EXISTS (SELECT 1 FROM listener_forwards lf WHERE lf.event_id = ${event} AND lf.status_code BETWEEN 200 AND 299)`;

/**
 * The listener forward attempts of one event for the console's event pages, oldest first, with the headers each
 * sent (timestamp and signature: what the signature debugger checks) and the start of the receiver's answer.
 */
export function forwardAttemptsOf(db: Db, eventId: string) {
  return db.listenerForward.findMany({
    where: { eventId },
    orderBy: [{ startedAt: "asc" }, { attempt: "asc" }],
    select: {
      id: true,
      forwardId: true,
      kind: true,
      attempt: true,
      startedAt: true,
      durationMs: true,
      statusCode: true,
      error: true,
      forwardTo: true,
      signedTimestamp: true,
      signature: true,
      responseSnippet: true,
      nextAttemptAt: true,
    },
  });
}
