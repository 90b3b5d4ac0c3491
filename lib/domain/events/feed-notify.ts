// Wake-ups for open event streams (docs/callbacks.md "sandpiper listen"). A commit in this process wakes them at
// once (notifyFeed after commit); commits in other processes or instances are seen by one shared poll of the
// feed head, run only while at least one stream is open. Either way a stream re-reads its merchant's feed.
import { z } from "zod";
import { getDb, parseRows, type Db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { config } from "@/lib/platform/config";
import { processState } from "@/lib/platform/process-state";

type Waiter = () => void;

/** The row of `event_sequence` (int8 as BigInt). */
const FeedHeadRow = z.object({ last: z.bigint() });

/**
 * The last feed position handed out (0 before the first event): where a new follower starts. Every position
 * up to it is committed and visible (positions are assigned at commit, in order).
 * @throws ZodError when the row does not match {@link FeedHeadRow} (a schema drift)
 */
export async function feedHead(db: Db): Promise<bigint> {
  const [row] = parseRows(FeedHeadRow, await db.$queryRaw<Record<string, unknown>[]>`SELECT last FROM event_sequence WHERE id = 1`);
  return row?.last ?? BigInt(0);
}

/** A merchant's row of `event_feed_positions`. */
const MerchantHeadRow = z.object({ last: z.bigint() });

/**
 * The last feed position handed out to one merchant's events and redeliveries (0 before its first): where a new
 * follower of its feed starts. Every position up to it is committed and visible.
 * @throws ZodError when the row does not match (a schema drift)
 */
export async function merchantFeedHead(db: Db, merchantId: string): Promise<bigint> {
  const [row] = parseRows(
    MerchantHeadRow,
    await db.$queryRaw<Record<string, unknown>[]>`SELECT last FROM event_feed_positions WHERE merchant_id = ${merchantId}::uuid`,
  );
  return row?.last ?? BigInt(0);
}

const state = processState();
const waiters = (state.feedWaiters ??= new Set<Waiter>());

/** Interval of the shared feed-head poll while streams are open, milliseconds (FEED_POLL_INTERVAL_MS, default 200). */
function pollIntervalMs(): number {
  return config().FEED_POLL_INTERVAL_MS;
}

/** Wakes every open stream of this process (called after a commit that added events or redeliveries). */
export function notifyFeed(): void {
  for (const wake of [...waiters]) wake();
}

function startPoll(): void {
  if (state.feedPoll) return;
  const tick = async () => {
    try {
      const head = await feedHead(getDb());
      if (state.feedHead !== undefined && head !== state.feedHead) notifyFeed();
      state.feedHead = head;
    } catch (error) {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, "event feed poll failed; retrying");
    }
    if (waiters.size > 0) state.feedPoll = setTimeout(tick, pollIntervalMs());
    else state.feedPoll = null;
  };
  state.feedPoll = setTimeout(tick, 0);
}

/**
 * Resolves when the feed may have grown (a wake-up) or after `timeoutMs`, whichever comes first, or at once when
 * `signal` is aborted. Returns true for a wake-up, false for a timeout or an abort.
 */
export function waitForFeed(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const done = (woken: boolean) => {
      clearTimeout(timer);
      waiters.delete(wake);
      signal?.removeEventListener("abort", onAbort);
      resolve(woken);
    };
    const wake = () => done(true);
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(false), timeoutMs);
    waiters.add(wake);
    signal?.addEventListener("abort", onAbort, { once: true });
    startPoll();
  });
}
