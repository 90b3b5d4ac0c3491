// `sandpiper listen`: follows a merchant's event stream and forwards each event to a receiver on the developer's
// machine as the real callback request (docs/callbacks.md "sandpiper listen"). Imports nothing of the service
// but the signing code and the chaos plan (node:crypto only), so it runs as a small separate process.
import { randomBytes } from "node:crypto";
import { STALE_TIMESTAMP_AGE_SECONDS, type ChaosKind, type ChaosPlan } from "../events/chaos";
import { listenerSecret } from "../events/listener-secret";
import { buildCallbackHeaders } from "../events/signing";
import { readSse, type SseEvent } from "./sse";
import { readState, writeState } from "./state";

/** Options of {@link Listener}. */
export type ListenOptions = {
  /** Service base URL, e.g. http://localhost:3000. */
  apiUrl: string;
  /** A sandbox API key with the payments:read scope. */
  apiKey: string;
  /** The receiver's URL, e.g. http://localhost:4000/hook. */
  forwardTo: string;
  /** Event types to forward; all when empty. */
  types: string[];
  /** Where the cursor is kept between runs. */
  stateFile: string;
  /** Ignore a kept cursor and start with new events. */
  fromNow: boolean;
  /** Writes one line of output (default: stdout). */
  print?: (line: string) => void;
  /** Milliseconds without a byte from the service after which the connection counts as dead (default: 3 heartbeats). */
  watchdogMs?: number;
  /** Time limit of one forward to the receiver, milliseconds (default 10000). */
  forwardTimeoutMs?: number;
  /** Tries of one forward to a receiver that cannot be reached (default 5). */ maxAttempts?: number;
};

/** One item of the service's event stream (the FeedItem of the Events API). */
type FeedItem = {
  cursor: string;
  kind: "event" | "redelivery";
  eventId: string;
  type: string;
  paymentId: string | null;
  reference: string | null;
  body: string;
  chaos: ChaosPlan | null;
};

type Ready = { cursor: string; heartbeatSeconds: number; headers: { eventId: string } };

/** A forward's result: the receiver's status, or why there was none; latency in milliseconds. */
type Forwarded = { status: number | null; error: string | null; latencyMs: number };

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ? `${cause.code}` : cause?.message || error.message;
}

/**
 * A running listener. `run()` connects to `GET /v1/events/stream` (server-sent events), forwards every item to the
 * receiver signed with the listener secret (same body bytes, the three callback headers), prints one line per
 * forward, keeps the cursor in the state file once an item and every item before it are forwarded, notices a
 * silent connection by its missing heartbeats and reconnects with backoff and jitter, resuming after the last
 * item it received. Returns the process exit code: 0 after `stop()`, 1 when the service refuses the key or scope.
 */
export class Listener {
  readonly secret: string;
  private readonly print: (line: string) => void;
  private readonly stopper = new AbortController();
  /** Last cursor received over the stream (where a reconnect resumes). */
  private received: bigint | null = null;
  /** Cursor up to which every item was forwarded (what the state file keeps). */
  private committed: bigint | null = null;
  private readonly pending: { cursor: bigint; done: boolean }[] = [];
  private chain: Promise<void> = Promise.resolve();
  private readonly running = new Set<Promise<void>>();
  private serviceName = "Service";
  private saveTimer: NodeJS.Timeout | null = null;
  /** Forwards made, for tests and the summary at exit. */
  readonly counts = { forwarded: 0, failed: 0, injected: 0, reconnects: 0 };

  constructor(private readonly opts: ListenOptions) {
    this.secret = listenerSecret(opts.apiKey);
    // A closed output (a pipe whose reader went away) must not stop the forwarding.
    process.stdout.on("error", () => undefined);
    this.print = opts.print ?? ((line) => process.stdout.write(`${line}\n`));
  }

  /** Stops after the forwards under way (at most 5 s); the cursor is saved. */
  stop(): void {
    this.stopper.abort();
  }

  async run(): Promise<number> {
    const { opts } = this;
    const kept = opts.fromNow ? null : readState(opts.stateFile);
    if (kept) this.received = this.committed = BigInt(kept.cursor);
    this.print(`Forwarding events to ${opts.forwardTo}${opts.types.length ? ` (${opts.types.join(", ")})` : ""}`);
    this.print(`Listener signing secret: ${this.secret} (the same on every run with this API key: configure your receiver with it)`);
    this.print(`Cursor kept in ${opts.stateFile}${kept ? `; resuming after position ${kept.cursor}` : ""}`);
    let failures = 0;
    let connectedOnce = false;
    while (!this.stopper.signal.aborted) {
      const connection = new AbortController();
      const onStop = () => connection.abort();
      this.stopper.signal.addEventListener("abort", onStop, { once: true });
      let reason = "the service closed the stream";
      // The watchdog runs from the connect on: a connection that hangs before or after the answer starts, or that
      // stops carrying heartbeats, is dropped and opened again.
      let lastByte = Date.now();
      let watchdogMs = opts.watchdogMs ?? 15_000;
      const watchdog = setInterval(() => {
        if (Date.now() - lastByte > watchdogMs) connection.abort(new Error(`no heartbeat for ${Math.round(watchdogMs / 1000)} s`));
      }, 500);
      try {
        const query = new URLSearchParams();
        if (this.received !== null) query.set("cursor", this.received.toString());
        if (opts.types.length) query.set("types", opts.types.join(","));
        const res = await fetch(`${opts.apiUrl.replace(/\/$/, "")}/v1/events/stream?${query}`, {
          headers: { authorization: `Bearer ${opts.apiKey}`, accept: "text/event-stream" },
          signal: connection.signal,
        });
        if (res.status === 401 || res.status === 403) {
          const body = await res.text();
          this.print(`The service refused the API key (${res.status} ${body.slice(0, 300)}). Use a valid sandbox key with the payments:read scope (--api-key or SANDPIPER_API_KEY).`);
          return 1;
        }
        if (res.status === 429) {
          const wait = Number(res.headers.get("retry-after") ?? "5");
          reason = `rate limited (429); waiting ${wait} s as Retry-After asks`;
          await res.body?.cancel();
          throw Object.assign(new Error(reason), { waitMs: wait * 1000 });
        }
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        lastByte = Date.now();
        await readSse(
          res.body,
          (event) => {
            const ready = this.onEvent(event, connectedOnce);
            if (ready) {
              connectedOnce = true;
              failures = 0;
              watchdogMs = opts.watchdogMs ?? Math.max(3 * ready.heartbeatSeconds * 1000, 5000);
            }
            if (event.event === "bye") reason = `the service closed the stream (${(JSON.parse(event.data) as { reason: string }).reason})`;
          },
          () => (lastByte = Date.now()),
        );
      } catch (error) {
        if (this.stopper.signal.aborted) break;
        const abortReason = connection.signal.reason;
        reason = abortReason instanceof Error ? abortReason.message : describe(error);
        const waitMs = (error as { waitMs?: number }).waitMs;
        if (waitMs) {
          this.print(`${new Date().toISOString()}  ${reason}`);
          await sleep(waitMs, this.stopper.signal);
          continue;
        }
      } finally {
        clearInterval(watchdog);
        this.stopper.signal.removeEventListener("abort", onStop);
      }
      if (this.stopper.signal.aborted) break;
      failures++;
      this.counts.reconnects++;
      // Exponential backoff with full jitter: 0.5 s doubling up to 10 s; a clean rotation reconnects at once.
      const ceiling = reason.includes("(rotate)") ? 0 : Math.min(10_000, 500 * 2 ** (failures - 1));
      const delay = Math.round(Math.random() * ceiling);
      this.print(`${new Date().toISOString()}  connection lost to ${this.opts.apiUrl} (${reason}); reconnecting in ${Math.round(delay / 100) / 10} s`);
      await sleep(delay, this.stopper.signal);
    }
    await Promise.race([Promise.all([this.chain, ...this.running]), sleep(5000)]);
    this.save();
    this.print(`Stopped: ${this.counts.forwarded} forwarded, ${this.counts.failed} not delivered, ${this.counts.injected} chaos requests.`);
    return 0;
  }

  /** Handles one server-sent event; returns the `ready` data when it is one. */
  private onEvent(event: SseEvent, reconnected: boolean): Ready | null {
    if (event.event === "ready") {
      const ready = JSON.parse(event.data) as Ready;
      this.serviceName = ready.headers.eventId.replace(/^X-/, "").replace(/-Event-Id$/, "");
      if (this.received === null) {
        this.received = this.committed = BigInt(ready.cursor);
        this.save();
      }
      this.print(`${new Date().toISOString()}  ${reconnected ? "Reconnected" : "Ready"}: following ${this.opts.apiUrl} after position ${ready.cursor}. Press Ctrl+C to stop.`);
      return ready;
    }
    if (event.event === "item") {
      const item = JSON.parse(event.data) as FeedItem;
      const cursor = BigInt(item.cursor);
      if (this.received !== null && cursor <= this.received) return null;
      this.received = cursor;
      const entry = { cursor, done: false };
      this.pending.push(entry);
      const finish = () => {
        entry.done = true;
        this.advance();
      };
      const delay = item.chaos?.kinds.includes("delay") ? item.chaos.delayMs : 0;
      if (delay > 0) {
        // Held back: later items overtake it (chaos mode's reordering); it does not block the queue.
        const task = sleep(delay).then(() => this.forwardItem(item)).then(finish);
        this.running.add(task);
        void task.finally(() => this.running.delete(task));
      } else {
        this.chain = this.chain.then(() => this.forwardItem(item)).then(finish);
      }
    }
    return null;
  }

  /** Moves the committed cursor over every leading forwarded item and saves it soon. */
  private advance(): void {
    while (this.pending.length > 0 && this.pending[0].done) this.committed = this.pending.shift()!.cursor;
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = null;
      this.save();
    }, 100);
  }

  private save(): void {
    if (this.committed === null) return;
    writeState(this.opts.stateFile, { apiUrl: this.opts.apiUrl, cursor: this.committed.toString(), updatedAt: new Date().toISOString() });
  }

  /** Forwards one item (and what chaos mode injects with it), printing a line for each request. */
  private async forwardItem(item: FeedItem): Promise<void> {
    const tags = [item.kind === "redelivery" ? "redelivery" : null, item.chaos?.kinds.includes("delay") ? `chaos: delayed ${item.chaos.delayMs} ms` : null].filter(Boolean);
    const result = await this.forwardWithRetry(item, this.secret, Date.now);
    this.line(item, result, tags.length ? ` [${tags.join("; ")}]` : "");
    if (result.status !== null && result.status >= 200 && result.status < 300) this.counts.forwarded++;
    else this.counts.failed++;
    for (const kind of item.chaos?.kinds ?? []) {
      if (kind === "delay") continue;
      await this.inject(item, kind);
    }
  }

  /** One request chaos mode adds (docs/callbacks.md "Chaos mode"), with what a correct receiver answers. */
  private async inject(item: FeedItem, kind: Exclude<ChaosKind, "delay">): Promise<void> {
    const secret = kind === "bad_signature" ? `whsec_${randomBytes(32).toString("base64url")}` : this.secret;
    const clock = kind === "stale_timestamp" ? () => Date.now() - STALE_TIMESTAMP_AGE_SECONDS * 1000 : Date.now;
    const result = await this.send(item, secret, clock);
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const expected = kind === "duplicate" ? "2xx" : "refuse";
    const asExpected = expected === "2xx" ? ok : result.status !== null && !ok;
    this.counts.injected++;
    this.line(item, result, ` [chaos: ${kind}; a correct receiver ${expected === "2xx" ? "answers 2xx" : "refuses it"}: ${asExpected ? "it did" : "IT DID NOT"}]`);
  }

  private line(item: FeedItem, result: Forwarded, suffix: string): void {
    const answer = result.status !== null ? String(result.status) : `no answer (${result.error})`;
    this.print(`${new Date().toISOString()}  ${item.type.padEnd(17)}  ${item.eventId}  ${item.reference ?? "-"}  -> ${answer}  ${result.latencyMs} ms${suffix}`);
  }

  /** Sends with up to 5 tries while the receiver cannot be reached (not while it answers, whatever the status). */
  private async forwardWithRetry(item: FeedItem, secret: string, clock: () => number): Promise<Forwarded> {
    let result = await this.send(item, secret, clock);
    for (let attempt = 1; result.status === null && attempt < 5 && !this.stopper.signal.aborted; attempt++) {
      const wait = 500 * 2 ** (attempt - 1);
      this.print(`${new Date().toISOString()}  receiver not reachable at ${this.opts.forwardTo} (${result.error}); trying again in ${wait / 1000} s`);
      await sleep(wait, this.stopper.signal);
      result = await this.send(item, secret, clock);
    }
    if (result.status === null) {
      this.print(`${new Date().toISOString()}  gave up forwarding ${item.eventId}; send it again with POST /v1/events/${item.eventId}/redeliver once the receiver runs`);
    }
    return result;
  }

  /** One POST of the item's exact body, signed as a callback with `secret` at the time `clock()` gives. */
  private async send(item: FeedItem, secret: string, clock: () => number): Promise<Forwarded> {
    const started = performance.now();
    const headers = buildCallbackHeaders({ eventId: item.eventId, rawBody: item.body, secret, nowMs: clock(), serviceName: this.serviceName });
    try {
      const res = await fetch(this.opts.forwardTo, {
        method: "POST",
        headers,
        body: Buffer.from(item.body, "utf8"),
        redirect: "manual",
        signal: AbortSignal.timeout(this.opts.forwardTimeoutMs ?? 10_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      return { status: res.status, error: null, latencyMs: Math.round(performance.now() - started) };
    } catch (error) {
      return { status: null, error: describe(error), latencyMs: Math.round(performance.now() - started) };
    }
  }
}
