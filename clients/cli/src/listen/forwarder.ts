// How `sandpiper listen` brings one feed item to the developer's receiver (docs/callbacks.md "sandpiper listen",
// "Delivery to your receiver"): at least once, retried with backoff and jitter until the receiver answers 2xx,
// without holding later items back; a forward address that refuses connections is probed every second and gets its
// waiting items as soon as it listens. Imports node:crypto, node:net and the contract's callback code only (the
// listener is a small process of its own).
import { randomBytes, randomUUID } from "node:crypto";
import { PROBE_INTERVAL_MS, probeConnects } from "@/lib/contract/callbacks/address-probe";
import { STALE_TIMESTAMP_AGE_SECONDS, type ChaosKind } from "@/lib/contract/callbacks/chaos";
import { buildCallbackHeaders, signedHeaderValues } from "@/lib/contract/callbacks/signing";
import type { ItemMessage } from "./messages";

/** One item of the service's event stream (the FeedItem of the Events API), as clients/cli/src/listen/messages.ts parses it. */
export type FeedItem = ItemMessage;

/** One request to the receiver and how it ended; times in milliseconds. */
export type SendResult = {
  startedAt: Date;
  status: number | null;
  error: string | null;
  latencyMs: number;
  /** The first 256 characters of the receiver's answer. */
  responseSnippet: string | null;
  /** The timestamp and signature headers sent. */
  timestamp: string;
  signature: string;
};

/** One attempt of a forward as the listener reports it to the service (`POST /v1/events/forwards`). */
export type ForwardReport = {
  eventId: string;
  forwardId: string;
  cursor: string;
  kind: "event" | "redelivery";
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  forwardTo: string;
  timestamp: string;
  signature: string;
  responseSnippet: string | null;
  nextAttemptAt: string | null;
};

/** First retry after about 1 s (docs/callbacks.md "Delivery to your receiver"). */
export const FIRST_RETRY_MS = 1_000;
/** Retries never wait longer than this. */
export const MAX_RETRY_MS = 30_000;

/**
 * Wait before retry number `retry` (1 = the wait after the first attempt): 1 s doubling to at most 30 s, each
 * multiplied by a jitter factor between 0.8 and 1.2 (`random()` in [0, 1)), capped at 30 s. Milliseconds.
 */
export function retryDelayMs(retry: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, retry - 1));
  return Math.min(MAX_RETRY_MS, Math.round(base * (0.8 + 0.4 * random())));
}

/** Milliseconds as seconds with one decimal, e.g. 1234 -> "1.2". */
const seconds = (ms: number) => {
  const tenths = Math.round(ms / 100);
  return `${Math.floor(tenths / 10)}.${tenths % 10}`;
};

const ok = (status: number | null) => status !== null && status >= 200 && status < 300;

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError") return "timed out";
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ? `${cause.code}` : cause?.message || error.message;
}

/** Options of {@link Forwarder}. */
export type ForwarderOptions = {
  forwardTo: string;
  /**
   * The listener secret to sign with now and, during a rotation's overlap, the previous one (docs/callbacks.md
   * "Rotating the secret"): read at every attempt, so a rotation applies from the next one.
   */
  secrets: () => { secret: string; previousSecret: string | null };
  /** Attempts per item before giving up; 0 or undefined: until the receiver answers 2xx (or `retryWaitMs` stops). */
  maxAttempts?: number;
  /**
   * The wait before the next attempt after attempt `attempt` failed, milliseconds, or null to give up (default
   * {@link retryDelayMs}, never null): the service's callback schedule under `--retry-schedule service`.
   */
  retryWaitMs?: (attempt: number, random: () => number) => number | null;
  /** Time limit of one request to the receiver, milliseconds. */
  timeoutMs: number;
  /** The service's header name (`Service` in `X-Service-Event-Id`). */
  serviceName: () => string;
  /** Prints one line. */
  print: (line: string) => void;
  /** Called with every attempt (for the service's record of listener forwards). */
  report: (attempt: ForwardReport) => void;
  /** Called once when an item is settled: delivered (a 2xx) or not; a given-up item is not settled. */
  settled: (cursor: bigint) => void;
  /** The command that sends an event again, for the given-up line. */
  resendCommand: (eventId: string) => string;
  random?: () => number;
};

type Forward = { item: FeedItem; cursor: bigint; forwardId: string; attempts: number; timer: NodeJS.Timeout | null; done: boolean };

/**
 * Forwards feed items to the receiver. `add(item)` makes the first attempt in the order items are added (one at a
 * time, so receivers see events in feed order); a forward that gets no 2xx (an error status, a refused connection,
 * a time-out) is retried on its own timer with {@link retryDelayMs}, while later items go on. An item is settled
 * (its cursor may be committed) only once some forward of its event got a 2xx: a later redelivery of the same
 * event that gets through settles the earlier, failing one too. With `maxAttempts`, an item that used them all is
 * given up: a line says how to send it again, and it stays unsettled, so a restarted listener forwards it again.
 */
export class Forwarder {
  private chain: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();
  /** Forwards not yet delivered, by event id (a redelivery that gets through settles them all). */
  private readonly open = new Map<string, Set<Forward>>();
  private stopped = false;
  /** Since when the forward address refuses connections (its probe runs), or null. */
  private refusedSince: Date | null = null;
  private probe: NodeJS.Timeout | null = null;
  readonly counts = { delivered: 0, retries: 0, givenUp: 0, injected: 0 };

  constructor(private readonly opts: ForwarderOptions) {}

  /** Queues the first attempt of `item` behind the first attempts of the items added before it. */
  add(item: FeedItem): void {
    const forward: Forward = { item, cursor: BigInt(item.cursor), forwardId: randomUUID(), attempts: 0, timer: null, done: false };
    let forwards = this.open.get(item.eventId);
    if (!forwards) this.open.set(item.eventId, (forwards = new Set()));
    forwards.add(forward);
    const delay = item.chaos?.kinds.includes("delay") ? item.chaos.delayMs : 0;
    if (delay > 0) {
      // Held back (chaos mode's reordering): later items overtake it; it does not block the queue.
      forward.timer = setTimeout(() => this.track(this.attempt(forward)), delay);
    } else {
      this.chain = this.chain.then(() => this.attempt(forward));
    }
  }

  /** Items whose forward is not delivered yet (retrying, or given up). */
  get outstanding(): number {
    let n = 0;
    for (const set of this.open.values()) n += set.size;
    return n;
  }

  /** Cancels every scheduled retry and waits (at most `graceMs`) for the requests under way. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    this.endWait();
    for (const set of this.open.values()) for (const f of set) if (f.timer) clearTimeout(f.timer);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([this.chain, ...this.inFlight]), new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
  }

  private track(task: Promise<void>): void {
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
  }

  /** One attempt of `forward`; schedules the next one, or settles the item. */
  private async attempt(forward: Forward): Promise<void> {
    forward.timer = null;
    if (this.stopped || forward.done) return;
    forward.attempts++;
    const { item } = forward;
    const result = await this.send(item, this.opts.secrets(), Date.now);
    const delivered = ok(result.status);
    const max = this.opts.maxAttempts ?? 0;
    const scheduled = delivered ? null : (this.opts.retryWaitMs ?? retryDelayMs)(forward.attempts, this.opts.random ?? Math.random);
    const exhausted = !delivered && ((max > 0 && forward.attempts >= max) || scheduled === null);
    const waitMs = exhausted ? null : scheduled;
    const tags = [
      item.kind === "redelivery" ? "redelivery" : null,
      forward.attempts === 1 && item.chaos?.kinds.includes("delay") ? `chaos: delayed ${item.chaos.delayMs} ms` : null,
    ].filter(Boolean);
    const progress = delivered
      ? `attempt ${forward.attempts}`
      : exhausted
        ? `attempt ${forward.attempts}${max > 0 ? ` of ${max}` : ""}, giving up`
        : `attempt ${forward.attempts}${max > 0 ? ` of ${max}` : ""}, next in ${seconds(waitMs!)} s`;
    this.line(item, result, `  ${progress}${tags.length ? ` [${tags.join("; ")}]` : ""}`);
    this.opts.report({
      eventId: item.eventId,
      forwardId: forward.forwardId,
      cursor: item.cursor,
      kind: item.kind,
      attempt: forward.attempts,
      startedAt: result.startedAt.toISOString(),
      durationMs: result.latencyMs,
      statusCode: result.status,
      error: result.error,
      forwardTo: this.opts.forwardTo,
      timestamp: result.timestamp,
      signature: result.signature,
      responseSnippet: result.responseSnippet,
      nextAttemptAt: waitMs === null ? null : new Date(Date.now() + waitMs).toISOString(),
    });
    if (forward.attempts === 1) {
      for (const kind of item.chaos?.kinds ?? []) if (kind !== "delay") await this.inject(item, kind);
    }
    if (delivered) this.endWait();
    else if (result.error === "ECONNREFUSED" && !exhausted) this.startWait();
    if (delivered) {
      this.counts.delivered++;
      this.settleEvent(item.eventId);
    } else if (forward.done) {
      // Another forward of the same event got through meanwhile: nothing left to do.
    } else if (exhausted) {
      this.counts.givenUp++;
      this.opts.print(
        `${new Date().toISOString()}  gave up forwarding ${item.eventId} after ${forward.attempts} attempts; it is forwarded again when the listener restarts, or now with: ${this.opts.resendCommand(item.eventId)}`,
      );
    } else if (!this.stopped) {
      this.counts.retries++;
      forward.timer = setTimeout(() => this.track(this.attempt(forward)), waitMs!);
    }
  }

  /**
   * The forward address refused a connection: says so once (`waiting: <address> refused connections since <time>`)
   * and probes it every {@link PROBE_INTERVAL_MS} with a TCP connect, nothing sent (docs/callbacks.md "An address
   * that refuses connections"). When a probe connects, every forward waiting for a retry is sent at once, in feed
   * order, instead of at its retry time.
   */
  private startWait(): void {
    if (this.refusedSince || this.stopped) return;
    const since = (this.refusedSince = new Date());
    this.opts.print(
      `${since.toISOString()}  waiting: ${this.opts.forwardTo} refused connections since ${since.toISOString()}; probing it every second, the waiting events go as soon as it listens`,
    );
    const url = new URL(this.opts.forwardTo);
    const target = { address: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port || (url.protocol === "https:" ? 443 : 80)) };
    let probing = false;
    this.probe = setInterval(() => {
      if (probing) return;
      probing = true;
      void probeConnects(target).then((accepted) => {
        probing = false;
        if (accepted && this.refusedSince === since) this.releaseWaiting();
      });
    }, PROBE_INTERVAL_MS);
    this.probe.unref();
  }

  /** Ends the address's wait (it answered, or the forwarder stops): no more probes. */
  private endWait(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    this.refusedSince = null;
  }

  /** The address listens again: the forwards waiting for a retry are sent now, oldest position first. */
  private releaseWaiting(): void {
    this.endWait();
    const waiting = [...this.open.values()]
      .flatMap((set) => [...set])
      .filter((f) => f.timer !== null && f.attempts > 0 && !f.done)
      .sort((a, b) => (a.cursor < b.cursor ? -1 : a.cursor > b.cursor ? 1 : 0));
    this.opts.print(`${new Date().toISOString()}  ${this.opts.forwardTo} accepts connections again: forwarding the ${waiting.length} waiting now`);
    for (const f of waiting) {
      clearTimeout(f.timer!);
      f.timer = null;
      this.chain = this.chain.then(() => this.attempt(f));
    }
  }

  /**
   * The event reached the receiver: every open forward of it that was tried (retrying, or given up) is settled and
   * its retries cancelled. One not tried yet (a redelivery queued behind) is still sent: it was asked for.
   */
  private settleEvent(eventId: string): void {
    const forwards = this.open.get(eventId);
    if (!forwards) return;
    for (const f of forwards) {
      if (f.attempts === 0) continue;
      forwards.delete(f);
      f.done = true;
      if (f.timer) clearTimeout(f.timer);
      this.opts.settled(f.cursor);
    }
    if (forwards.size === 0) this.open.delete(eventId);
  }

  /** One request chaos mode adds (docs/callbacks.md "Chaos mode"), with what a correct receiver answers. */
  private async inject(item: FeedItem, kind: Exclude<ChaosKind, "delay">): Promise<void> {
    const secret = kind === "bad_signature" ? { secret: `whsec_${randomBytes(32).toString("base64url")}`, previousSecret: null } : this.opts.secrets();
    const clock = kind === "stale_timestamp" ? () => Date.now() - STALE_TIMESTAMP_AGE_SECONDS * 1000 : Date.now;
    const result = await this.send(item, secret, clock);
    const expected = kind === "duplicate" ? "2xx" : "refuse";
    const asExpected = expected === "2xx" ? ok(result.status) : result.status !== null && !ok(result.status);
    this.counts.injected++;
    this.line(
      item,
      result,
      `  [chaos: ${kind}; a correct receiver ${expected === "2xx" ? "answers 2xx" : "refuses it"}: ${asExpected ? "it did" : "IT DID NOT"}]`,
    );
  }

  private line(item: FeedItem, result: SendResult, suffix: string): void {
    const answer = result.status !== null ? String(result.status) : `no answer (${result.error})`;
    this.opts.print(
      `${new Date().toISOString()}  ${item.type.padEnd(17)}  ${item.eventId}  ${item.reference ?? "-"}  -> ${answer}  ${result.latencyMs} ms${suffix}`,
    );
  }

  /** One POST of the item's exact body, signed as a callback with `secrets` at the time `clock()` gives. */
  private async send(item: FeedItem, secrets: { secret: string; previousSecret: string | null }, clock: () => number): Promise<SendResult> {
    const startedAt = new Date();
    const started = performance.now();
    const serviceName = this.opts.serviceName();
    const headers = buildCallbackHeaders({ eventId: item.eventId, rawBody: item.body, ...secrets, nowMs: clock(), serviceName });
    const sent = { startedAt, ...signedHeaderValues(headers, serviceName) };
    try {
      const res = await fetch(this.opts.forwardTo, {
        method: "POST",
        headers,
        body: Buffer.from(item.body, "utf8"),
        redirect: "manual",
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      const text = await res.text().catch(() => "");
      return { ...sent, status: res.status, error: null, latencyMs: Math.round(performance.now() - started), responseSnippet: text.slice(0, 256) || null };
    } catch (error) {
      return { ...sent, status: null, error: describeError(error), latencyMs: Math.round(performance.now() - started), responseSnippet: null };
    }
  }
}
