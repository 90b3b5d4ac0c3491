// `sandpiper listen`: follows a merchant's event stream and forwards each event to a receiver on the developer's
// machine as the real callback request (docs/callbacks.md "sandpiper listen"). Imports nothing of the service
// but the signing code and the chaos plan (node:crypto only), so it runs as a small separate process.
import { listenerSecret } from "@/lib/contract/callbacks/listener-secret";
import { MAX_ATTEMPTS, nextAttemptDelayMs, retryWaitsSeconds, type RetrySpeed } from "@/lib/contract/callbacks/retry-schedule";
import { standardWebhooksSecret } from "@/lib/contract/callbacks/signing";
import { Forwarder } from "./forwarder";
import { ByeMessage, ChaosMessage, ItemMessage, ListenerSigningMessage, parseMessage, ReadyMessage, type ListenerSigning } from "./messages";
import { Reporter } from "./reporter";
import { sleep } from "./sleep";
import { routeFor, routeLabel, type Route } from "./routes";
import { readSse, type SseEvent } from "./sse";
import { readState, writeState } from "./state";

/** Options of {@link Listener}. */
export type ListenOptions = {
  /** Service base URL, e.g. http://localhost:3000. */
  apiUrl: string;
  /** A sandbox API key with the payments:read scope. */
  apiKey: string;
  /**
   * Where events go (docs/callbacks.md "Routes and filters"): at most one route per event type and at most one
   * default route (type null) for the other types; an event with neither is skipped. At least one route.
   */
  routes: Route[];
  /** Event types to forward (the stream's filter); all when empty. */
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
  /** Attempts per event before giving up on it; 0 or undefined: until the receiver answers 2xx. */
  maxAttempts?: number;
  /**
   * Retry on the service's callback schedule (docs/callbacks.md "Delivery to your receiver"): the merchant's, with
   * its fast retries setting as read at start; null or undefined: the listener's own schedule (about 1 s doubling).
   */
  serviceSchedule?: RetrySpeed | null;
  /** Record forward attempts on the service (`POST /v1/events/forwards`); default true. */
  report?: boolean;
  /** The key's listener secret generations at start (`GET /v1/sandbox/listener-secret`); default generation 0. */
  signing?: ListenerSigning;
};

/**
 * The second line a listener prints for a secret of the old form (a key made before new keys started at generation 1,
 * never rotated): the same key written as Standard Webhooks libraries take it, and which library takes which form
 * (docs/callbacks.md "Standard Webhooks").
 */
export function standardFormLine(standard: string): string {
  return `Standard Webhooks libraries take the same secret written as: ${standard} (the standardwebhooks package and the others base64-decode it; your own check of X-Service-Signature takes the form above, as text; rotate the listener secret for one form both take)`;
}

/** The start line that says how a forward without a 2xx answer is retried. */
function retryLine(opts: Pick<ListenOptions, "maxAttempts" | "serviceSchedule">): string {
  if (opts.serviceSchedule) {
    const waits = retryWaitsSeconds(opts.serviceSchedule)
      .map((s) => `${s} s`)
      .join(", ");
    const attempts = opts.maxAttempts ? Math.min(opts.maxAttempts, MAX_ATTEMPTS) : MAX_ATTEMPTS;
    return `A forward without a 2xx answer is retried on the service's callback schedule${opts.serviceSchedule.fastRetries ? " with fast retries" : ""} (waits ${waits}, each within 10%), up to ${attempts} attempts, as the service would`;
  }
  return `A forward without a 2xx answer is retried (about 1 s, doubling to 30 s) ${opts.maxAttempts ? `up to ${opts.maxAttempts} attempts` : "until your receiver answers 2xx"}`;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ? `${cause.code}` : cause?.message || error.message;
}

/** The previous listener secret and its end while a rotation's overlap runs (docs/callbacks.md "Rotating the secret"). */
function previousOf(apiKey: string, signing: ListenerSigning): { secret: string; untilMs: number } | null {
  if (signing.previousGeneration === null || signing.previousUntil === null) return null;
  return { secret: listenerSecret(apiKey, signing.previousGeneration), untilMs: Date.parse(signing.previousUntil) };
}

/**
 * A running listener. `run()` connects to `GET /v1/events/stream` (server-sent events), hands every item to the
 * {@link Forwarder} of its route (each route its own queue: first attempts in feed order, retries with backoff until
 * the receiver answers 2xx; an item no route takes is skipped), records
 * each attempt on the service through a {@link Reporter}, and keeps in the state file the cursor up to which every
 * item was delivered plus the items after it that were delivered too, so a restart forwards exactly what was not
 * delivered. A silent connection is noticed by its missing heartbeats and opened again with backoff and jitter,
 * resuming after the last item received. Returns the process exit code: 0 after `stop()`, 1 when the service
 * refuses the key or scope.
 */
export class Listener {
  /** The listener secret forwards are signed with now (docs/callbacks.md "Rotating the secret"). */
  secret: string;
  /** During a rotation's overlap: the previous secret and when it stops signing (epoch ms); else null. */
  private previous: { secret: string; untilMs: number } | null = null;
  private generation: number;
  private readonly print: (line: string) => void;
  private readonly stopper = new AbortController();
  /** Last cursor received over the stream (where a reconnect resumes). */
  private received: bigint | null = null;
  /** Cursor up to which every item was delivered (what the state file keeps). */
  private committed: bigint | null = null;
  /** Items after `committed`, in cursor order, and whether each is delivered. */
  private readonly pending: { cursor: bigint; done: boolean }[] = [];
  /** Cursors delivered by an earlier run after its committed cursor (skipped on resume). */
  private deliveredBefore = new Set<string>();
  private serviceName = "Service";
  private chaos: boolean | null = null;
  /** The forward token of the stream followed now (null: the key may not record forwards; undefined: not connected yet). */
  private forwardToken: string | null | undefined = undefined;
  private saveTimer: NodeJS.Timeout | null = null;
  /** One forwarder per route, each with its own queue and retries: a failing route never holds up another. */
  private readonly forwarders = new Map<Route, Forwarder>();
  private readonly reporter: Reporter | null;
  /** Event types already reported as skipped for want of a route (one line per type). */
  private readonly unroutedTypes = new Set<string>();
  /** For tests and the summary at exit: `skipped` delivered by an earlier run, `unrouted` matching no route. */
  readonly counts = { reconnects: 0, skipped: 0, unrouted: 0 };

  constructor(private readonly opts: ListenOptions) {
    const signing = opts.signing ?? { generation: 0, previousGeneration: null, previousUntil: null };
    this.generation = signing.generation;
    this.secret = listenerSecret(opts.apiKey, signing.generation);
    this.previous = previousOf(opts.apiKey, signing);
    // A closed output (a pipe whose reader went away) must not stop the forwarding.
    process.stdout.on("error", () => undefined);
    this.print = opts.print ?? ((line) => process.stdout.write(`${line}\n`));
    this.reporter = opts.report === false ? null : new Reporter({ apiUrl: opts.apiUrl.replace(/\/$/, ""), apiKey: opts.apiKey, print: this.print });
    const [firstRoute] = opts.routes;
    if (!firstRoute) throw new Error("a listener needs at least one route");
    // With one default route the lines are as they always were; with several, each starts with its route's label.
    const labelled = opts.routes.length > 1 || firstRoute.type !== null;
    for (const route of opts.routes) {
      const label = routeLabel(route);
      this.forwarders.set(
        route,
        new Forwarder({
          forwardTo: route.url,
          secrets: () => ({ secret: this.secret, previousSecret: this.previous && this.previous.untilMs > Date.now() ? this.previous.secret : null }),
          maxAttempts: opts.maxAttempts,
          ...(opts.serviceSchedule
            ? { retryWaitMs: (attempt: number, random: () => number) => nextAttemptDelayMs(attempt, random, opts.serviceSchedule!) }
            : {}),
          timeoutMs: opts.forwardTimeoutMs ?? 10_000,
          serviceName: () => this.serviceName,
          print: labelled ? (line) => this.print(`${label}  ${line}`) : this.print,
          report: (attempt) => {
            if (this.forwardToken) this.reporter?.add(attempt, this.forwardToken);
          },
          settled: (cursor) => this.settle(cursor),
          resendCommand: (eventId) =>
            `sandpiper events resend ${eventId}${opts.apiUrl.replace(/\/$/, "") === "http://localhost:3000" ? "" : ` --api-url ${opts.apiUrl}`}`,
        }),
      );
    }
  }

  /** Stops after the forwards under way (at most 5 s); the cursor is saved. */
  stop(): void {
    this.stopper.abort();
  }

  /** Forwards delivered, retried, given up and chaos requests sent so far, over every route. */
  get forwardCounts() {
    const total = { delivered: 0, retries: 0, givenUp: 0, injected: 0 };
    for (const f of this.forwarders.values()) for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += f.counts[k];
    return total;
  }

  /** Items whose forward is not delivered yet, over every route. */
  private get outstanding(): number {
    let n = 0;
    for (const f of this.forwarders.values()) n += f.outstanding;
    return n;
  }

  /** The lines that say where events go. */
  private printRoutes(): void {
    const { routes, types } = this.opts;
    const only = types.length ? ` (${types.join(", ")})` : "";
    const [single] = routes;
    if (routes.length === 1 && single?.type === null) return this.print(`Forwarding events to ${single.url}${only}`);
    for (const r of routes) {
      this.print(`${routeLabel(r)}  Forwarding ${r.type === null ? `events of every other type${only}` : `${r.type} events`} to ${r.url}`);
    }
    if (!routes.some((r) => r.type === null)) this.print("Events of other types are skipped (no --forward-to)");
  }

  async run(): Promise<number> {
    const { opts } = this;
    const kept = opts.fromNow ? null : readState(opts.stateFile);
    if (kept) {
      this.received = this.committed = BigInt(kept.cursor);
      this.deliveredBefore = new Set(kept.delivered ?? []);
    }
    this.printRoutes();
    this.print(`Listener signing secret: ${this.secret} (the same on every run with this API key until it is rotated: configure your receiver with it)`);
    if (this.previous && this.previous.untilMs > Date.now())
      this.print(`A rotation's overlap runs: the previous secret ${this.previous.secret} also signs until ${new Date(this.previous.untilMs).toISOString()}`);
    const standard = standardWebhooksSecret(this.secret);
    if (standard !== this.secret) this.print(standardFormLine(standard));
    this.print(`Cursor kept in ${opts.stateFile}${kept ? `; resuming after position ${kept.cursor}` : ""}`);
    this.print(retryLine(opts));
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
          this.print(
            `The service refused the API key (${res.status} ${body.slice(0, 300)}). Use a valid sandbox key with the payments:read scope (--api-key or SANDPIPER_API_KEY).`,
          );
          await this.finish();
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
            if (event.event === "bye") reason = `the service closed the stream (${parseMessage(ByeMessage, "bye", event.data).reason})`;
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
    await this.finish();
    const c = this.forwardCounts;
    const outstanding = this.outstanding;
    this.print(
      `Stopped: ${c.delivered} delivered, ${c.retries} retries, ${c.givenUp} given up, ${c.injected} chaos requests` +
        (this.counts.unrouted > 0 ? `, ${this.counts.unrouted} skipped (no route for their type)` : "") +
        "." +
        (outstanding > 0 ? ` ${outstanding} not delivered yet: they are forwarded again on the next start.` : ""),
    );
    return 0;
  }

  /** Stops forwarding (requests under way get 5 s), records what is left on the service, saves the cursor. */
  private async finish(): Promise<void> {
    await Promise.all([...this.forwarders.values()].map((f) => f.stop(5000)));
    await this.reporter?.close(2000);
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.save();
  }

  /** Handles one server-sent event; returns the `ready` data when it is one. */
  private onEvent(event: SseEvent, reconnected: boolean): ReadyMessage | null {
    if (event.event === "ready") {
      const ready = parseMessage(ReadyMessage, "ready", event.data);
      this.serviceName = ready.headers.eventId.replace(/^X-/, "").replace(/-Event-Id$/, "");
      if (this.received !== null && BigInt(ready.cursor) < this.received) {
        // The service starts below the kept position: a cursor of another service, or of a service from before
        // positions were counted per merchant. Follow from where it starts; what is in flight still finishes.
        this.print(
          `${new Date().toISOString()}  the service's feed ends at position ${ready.cursor}, before the kept position ${this.received}: following from ${ready.cursor}`,
        );
        this.received = null;
        this.pending.length = 0;
        this.deliveredBefore.clear();
      }
      if (this.received === null) {
        this.received = this.committed = BigInt(ready.cursor);
        this.save();
      }
      this.print(
        `${new Date().toISOString()}  ${reconnected ? "Reconnected" : "Ready"}: following ${this.opts.apiUrl} after position ${ready.cursor}. Press Ctrl+C to stop.`,
      );
      if (ready.chaos !== undefined) this.onChaos(ready.chaos);
      if (ready.listenerSecret) this.onListenerSecret(ready.listenerSecret);
      if (this.reporter && !ready.forwardToken && this.forwardToken === undefined) {
        this.print(
          `${new Date().toISOString()}  forward attempts are not recorded on the service: the key lacks the sandbox:simulate scope (forwarding goes on)`,
        );
      }
      this.forwardToken = ready.forwardToken ?? null;
      return ready;
    }
    if (event.event === "chaos") this.onChaos(parseMessage(ChaosMessage, "chaos", event.data).enabled);
    if (event.event === "listener-secret") this.onListenerSecret(parseMessage(ListenerSigningMessage, "listener-secret", event.data));
    if (event.event === "item") {
      const item = parseMessage(ItemMessage, "item", event.data);
      const cursor = BigInt(item.cursor);
      if (this.received !== null && cursor <= this.received) return null;
      this.received = cursor;
      const delivered = this.deliveredBefore.delete(item.cursor);
      const pending = { cursor, done: delivered };
      this.pending.push(pending);
      const route = delivered ? null : routeFor(this.opts.routes, item.type);
      if (delivered) {
        this.counts.skipped++;
        this.advance();
      } else if (!route) {
        // No route takes this type: nothing to deliver, so the cursor may pass it.
        this.counts.unrouted++;
        pending.done = true;
        if (!this.unroutedTypes.has(item.type)) {
          this.unroutedTypes.add(item.type);
          this.print(
            `${new Date().toISOString()}  ${item.type} events match no route (no --forward ${item.type}=<url>, no --forward-to): skipped, counted in the summary at exit`,
          );
        }
        this.advance();
      } else {
        this.forwarders.get(route)!.add(item);
      }
    }
    return null;
  }

  /** Prints a line when the merchant's chaos mode is (or becomes) on, and when it goes off. */
  /** A rotation of the key's listener secret (or its overlap's end) takes effect from the next attempt, and is printed. */
  private onListenerSecret(signing: ListenerSigning): void {
    const previous = previousOf(this.opts.apiKey, signing);
    if (signing.generation !== this.generation) {
      this.generation = signing.generation;
      this.secret = listenerSecret(this.opts.apiKey, signing.generation);
      this.print(
        `${new Date().toISOString()}  Listener secret rotated. Listener signing secret: ${this.secret}${previous ? ` (the previous one also signs until ${signing.previousUntil}: X-${this.serviceName}-Signature with the previous, webhook-signature with both)` : ""}`,
      );
    } else if (this.previous && !previous) {
      this.print(`${new Date().toISOString()}  The previous listener secret no longer signs: only ${this.secret} does`);
    }
    this.previous = previous;
  }

  private onChaos(enabled: boolean): void {
    if (this.chaos === enabled || (this.chaos === null && !enabled)) {
      this.chaos = enabled;
      return;
    }
    this.chaos = enabled;
    this.print(
      `${new Date().toISOString()}  Chaos mode is ${enabled ? 'ON for this merchant: forwards now get duplicates, delays, forged and stale requests (docs/callbacks.md "Chaos mode")' : "OFF: forwards are plain again"}`,
    );
  }

  /** An item's event got a 2xx: mark it delivered and move the committed cursor. */
  private settle(cursor: bigint): void {
    const entry = this.pending.find((p) => p.cursor === cursor);
    if (entry) entry.done = true;
    this.advance();
  }

  /** Moves the committed cursor over every leading delivered item and saves it soon. */
  private advance(): void {
    for (let head = this.pending[0]; head?.done; head = this.pending[0]) {
      this.pending.shift();
      this.committed = head.cursor;
    }
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = null;
      this.save();
    }, 100);
  }

  private save(): void {
    if (this.committed === null) return;
    // Items delivered after the committed cursor (behind one still failing), so a restart does not send them again;
    // the newest 10,000 at most (beyond that a restart may send some twice, which receivers accept).
    const delivered = this.pending.filter((p) => p.done).map((p) => p.cursor.toString());
    writeState(this.opts.stateFile, {
      apiUrl: this.opts.apiUrl,
      cursor: this.committed.toString(),
      ...(delivered.length > 0 ? { delivered: delivered.slice(-10_000) } : {}),
      updatedAt: new Date().toISOString(),
    });
  }
}
