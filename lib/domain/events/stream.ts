// The event stream that `sandpiper listen` follows (docs/callbacks.md "sandpiper listen"): the merchant's feed
// items after a cursor, as server-sent events with heartbeats, or as one JSON page for simple pollers.
import { realInstant, systemNow } from "@/lib/platform/clock";
import { z } from "zod";
import { parseRows, type Db } from "@/lib/platform/db";
import type { EventType } from "@/lib/domain/events/outbox";
import { readFeed, type FeedItem } from "@/lib/domain/events/feed";
import { merchantFeedHead, waitForFeed } from "@/lib/domain/events/feed-notify";
import { callbackHeaderNames } from "@/lib/contract/callbacks/signing";
import { issueForwardToken } from "@/lib/domain/events/forward-token";
import { listenerSigningOf, type ListenerSigning } from "@/lib/contract/callbacks/listener-secret";
import { countStream } from "@/lib/platform/metrics/metrics";
import type { SseWriter } from "@/lib/platform/sse";
import { processState } from "@/lib/platform/process-state";

/** Seconds between heartbeats on an idle stream; a listener that hears nothing for 3 of them reconnects. */
export const HEARTBEAT_SECONDS = 5;
/** A stream is closed after this long (the listener reconnects at once); keeps connections balanced across instances. */
const MAX_STREAM_MS = 10 * 60 * 1000;
/** Items read per query. */
const BATCH = 100;

export type StreamOptions = { cursor?: bigint; types?: readonly EventType[]; chaos: boolean };

/**
 * How often a stream reads the merchant's chaos mode and its key's authority again, milliseconds (a switch reaches
 * listeners this fast; a revoked key's stream ends this fast).
 */
const CHAOS_CHECK_MS = 1000;

/** A row of a raw read of a merchant's `chaos_mode` column (here and in the console's switch, lib/domain/callbacks/manage-callbacks.ts). */
export const ChaosModeRow = z.object({ chaosMode: z.boolean() });

/** Why a stream's authority ended (the `bye` reason): the key revoked or expired, its owner or merchant deactivated, its scope removed. */
export type AuthorityEnd = "key_revoked" | "key_expired" | "access_changed" | "merchant_inactive" | "scope_removed";

/** Who a stream serves: the key it was opened with and the scope the stream needs. */
export type StreamAuthority = {
  apiKeyId: string;
  scope: string;
  /** The key may record listener forwards: `ready` then carries a forward token (lib/domain/events/forward-token.ts). */
  mayRecordForwards: boolean;
};

const AuthorityRow = z.object({
  chaosMode: z.boolean(),
  listenerSecretGeneration: z.number().int(),
  previousListenerSecretUntil: z.date().nullable(),
  merchantStatus: z.string(),
  revokedAt: z.date().nullable(),
  expiresAt: z.date(),
  scopes: z.array(z.string()),
  ownerActive: z.boolean(),
});

/**
 * The merchant's chaos mode now (docs/callbacks.md "Chaos mode") and, when the stream's key no longer allows it, why
 * (docs/callbacks.md "sandpiper listen": a stream ends with its authority). One statement; an unknown key ends it.
 */
async function authorityOf(
  db: Db,
  authority: StreamAuthority,
  now: Date,
): Promise<{ chaos: boolean; end: AuthorityEnd | null; listenerSecret: ListenerSigning | null }> {
  const [row] = parseRows(
    AuthorityRow,
    await db.$queryRaw<Record<string, unknown>[]>`
      SELECT m.chaos_mode, m.status::text AS merchant_status, k.revoked_at, k.expires_at, k.scopes, u.active AS owner_active,
        k.listener_secret_generation, k.previous_listener_secret_until
      FROM api_keys k JOIN merchants m ON m.id = k.merchant_id JOIN console_users u ON u.id = k.owner_id
      WHERE k.id = ${authority.apiKeyId}::uuid`,
  );
  if (!row) return { chaos: false, end: "key_revoked", listenerSecret: null };
  const end: AuthorityEnd | null = row.revokedAt
    ? "key_revoked"
    : row.expiresAt <= now
      ? "key_expired"
      : row.merchantStatus !== "ACTIVE"
        ? "merchant_inactive"
        : !row.ownerActive
          ? "access_changed"
          : !row.scopes.includes(authority.scope)
            ? "scope_removed"
            : null;
  return { chaos: row.chaosMode, end, listenerSecret: listenerSigningOf(row, now) };
}

function shuttingDown(): boolean {
  return processState().shuttingDown === true;
}

/**
 * Writes the merchant's feed to `out` as server-sent events until the client goes away, the service shuts down
 * or 10 minutes pass: first `ready` `{ cursor, heartbeatSeconds, headers, chaos, forwardToken, listenerSecret }` (the
 * position it starts after: the given cursor, else the newest; the callback header names to sign forwards with;
 * whether chaos mode is on; the token that lets this session record its forwards, null when the key may not; the
 * listener secret generations that sign, {@link ListenerSigning}), `listener-secret` (a new ListenerSigning) within
 * about a second of a rotation or an overlap's end,
 * then one `item` event per feed item (the FeedItem; the SSE id is its cursor) as they commit, `chaos`
 * `{ enabled }` within about a second of the merchant's chaos mode being switched (items after it carry chaos
 * plans, or none), a `heartbeat` `{ cursor, time }` every {@link HEARTBEAT_SECONDS} seconds, and `bye`
 * `{ cursor, reason }` when the service closes the stream ("shutdown" or "rotate": reconnect with the cursor; or,
 * within about a second, an {@link AuthorityEnd} when `authority`'s key no longer allows the stream).
 */
export async function streamFeed(
  db: Db,
  merchantId: string,
  authority: StreamAuthority,
  opts: StreamOptions,
  out: SseWriter,
  signal: AbortSignal,
): Promise<void> {
  countStream(1);
  try {
    await followFeed(db, merchantId, authority, opts, out, signal);
  } finally {
    countStream(-1);
  }
}

/** streamFeed's loop. */
async function followFeed(db: Db, merchantId: string, authority: StreamAuthority, opts: StreamOptions, out: SseWriter, signal: AbortSignal): Promise<void> {
  let cursor = await startCursor(db, merchantId, opts.cursor);
  const started = systemNow().getTime();
  let chaos = opts.chaos;
  let chaosCheckedAt = systemNow().getTime();
  const forwardToken = authority.mayRecordForwards
    ? await issueForwardToken({ apiKeyId: authority.apiKeyId, merchantId, openedAt: realInstant(started) })
    : null;
  let signing = (await authorityOf(db, authority, systemNow())).listenerSecret;
  out.send("ready", {
    cursor: cursor.toString(),
    heartbeatSeconds: HEARTBEAT_SECONDS,
    headers: callbackHeaderNames(),
    chaos,
    forwardToken,
    ...(signing ? { listenerSecret: signing } : {}),
  });
  let lastBeat = systemNow().getTime();
  while (!out.closed) {
    if (shuttingDown() || systemNow().getTime() - started > MAX_STREAM_MS) {
      out.send("bye", { cursor: cursor.toString(), reason: shuttingDown() ? "shutdown" : "rotate" });
      return;
    }
    if (systemNow().getTime() - chaosCheckedAt >= CHAOS_CHECK_MS) {
      chaosCheckedAt = systemNow().getTime();
      const now = await authorityOf(db, authority, systemNow());
      if (now.end) {
        out.send("bye", { cursor: cursor.toString(), reason: now.end });
        return;
      }
      if (now.chaos !== chaos) out.send("chaos", { enabled: (chaos = now.chaos) });
      if (now.listenerSecret && JSON.stringify(now.listenerSecret) !== JSON.stringify(signing)) out.send("listener-secret", (signing = now.listenerSecret));
    }
    const items = await readFeed(db, merchantId, { cursor, limit: BATCH, types: opts.types, chaos });
    for (const item of items) {
      out.send("item", item, item.cursor);
      cursor = BigInt(item.cursor);
    }
    if (items.length === BATCH) continue;
    const sinceBeat = systemNow().getTime() - lastBeat;
    if (sinceBeat >= HEARTBEAT_SECONDS * 1000) {
      out.send("heartbeat", { cursor: cursor.toString(), time: systemNow().toISOString() });
      lastBeat = systemNow().getTime();
    }
    await waitForFeed(Math.min(1000, Math.max(50, HEARTBEAT_SECONDS * 1000 - (systemNow().getTime() - lastBeat))), signal);
  }
}

/**
 * Where a follower starts: after `requested`, or after the merchant's newest position when none is given or when
 * `requested` lies past it (a cursor from another service, or from before positions were counted per merchant): the
 * answer's cursor then shows where it starts, and the listener follows from there.
 */
async function startCursor(db: Db, merchantId: string, requested: bigint | undefined): Promise<bigint> {
  const head = await merchantFeedHead(db, merchantId);
  return requested === undefined || requested > head ? head : requested;
}

/**
 * One JSON page of the feed after `cursor` (default: the newest position), waiting up to `waitSeconds` for a
 * first item when there is none. Returns `{ items, cursor }`, `cursor` being where to read on.
 */
export async function feedPage(
  db: Db,
  merchantId: string,
  opts: StreamOptions & { waitSeconds: number },
  signal: AbortSignal,
): Promise<{ items: FeedItem[]; cursor: string }> {
  const cursor = await startCursor(db, merchantId, opts.cursor);
  const deadline = systemNow().getTime() + opts.waitSeconds * 1000;
  for (;;) {
    const items = await readFeed(db, merchantId, { cursor, limit: BATCH, types: opts.types, chaos: opts.chaos });
    const remaining = deadline - systemNow().getTime();
    if (items.length > 0 || remaining <= 0 || signal.aborted || shuttingDown()) {
      return { items, cursor: items.at(-1)?.cursor ?? cursor.toString() };
    }
    await waitForFeed(Math.min(1000, remaining), signal);
  }
}
