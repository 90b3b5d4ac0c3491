// The listener's record of its forwards on the service (docs/callbacks.md "sandpiper listen", "Forwards on the
// service"): every attempt is sent to `POST /v1/events/forwards` in batches, off the forwarding path, so the
// merchant sees listener forwards beside deliveries and the signature debugger can check them.
import { z } from "zod";
import { jsonOrNull, refusalOf } from "../client";
import type { ForwardReport } from "./forwarder";

/** The members of the service's answer that the reporter reads: the attempts it refused, if any. */
const Recorded = z.object({ refused: z.array(z.object({ forwardId: z.string(), attempt: z.number(), reason: z.string() })).optional() });

/** Attempts per request (the endpoint takes at most 50). */
const BATCH = 50;
/** Bytes of JSON per request: under the service's 32 KiB body limit, with room for the envelope and the token. */
const MAX_BATCH_BYTES = 28 * 1024;

/** A queued attempt with the forward token of the stream it was made under (the service checks the two together). */
type Queued = { report: ForwardReport; token: string };

/** How many of the first reports fit one request: at most BATCH and MAX_BATCH_BYTES of JSON, at least one. */
export function batchSize(queue: readonly ForwardReport[]): number {
  let bytes = 0;
  for (let i = 0; i < Math.min(queue.length, BATCH); i++) {
    bytes += Buffer.byteLength(JSON.stringify(queue[i]), "utf8") + 1;
    if (bytes > MAX_BATCH_BYTES) return Math.max(1, i);
  }
  return Math.min(queue.length, BATCH);
}
/** Attempts kept while the service cannot take them; older ones are dropped first. */
const MAX_QUEUED = 5_000;

/** Options of {@link Reporter}. */
export type ReporterOptions = {
  apiUrl: string;
  apiKey: string;
  print: (line: string) => void;
  /** Milliseconds between flushes (default 500). */
  intervalMs?: number;
};

/**
 * Sends forward attempts to the service in batches of at most 50 (and 28 KiB of JSON), every `intervalMs`. A batch the service does not
 * take (no connection, 5xx, 429) is kept and sent again later (after `Retry-After` for a 429); a service without the
 * endpoint (404) or a refused batch (400) is reported once and dropped: forwarding never waits for reporting.
 */
export class Reporter {
  private queue: Queued[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private pausedUntil = 0;
  private disabled = false;
  private warned = false;
  private dropped = 0;

  constructor(private readonly opts: ReporterOptions) {}

  /**
   * Queues one attempt made under the stream whose `ready` gave `token` (docs/callbacks.md "Forwards on the service");
   * it is sent within about `intervalMs`, in a batch of attempts with the same token.
   */
  add(report: ForwardReport, token: string): void {
    if (this.disabled) return;
    this.queue.push({ report, token });
    if (this.queue.length > MAX_QUEUED) {
      this.dropped += this.queue.length - MAX_QUEUED;
      this.queue.splice(0, this.queue.length - MAX_QUEUED);
    }
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.opts.intervalMs ?? 500);
  }

  /** Sends what is queued now (one batch after another); resolves when done or when the service does not take them. */
  async flush(): Promise<void> {
    if (this.sending) return this.sending;
    this.sending = (async () => {
      while (this.queue.length > 0 && !this.disabled && Date.now() >= this.pausedUntil) {
        const token = this.queue[0]!.token;
        const sameToken = this.queue.findIndex((q) => q.token !== token);
        const candidates = (sameToken === -1 ? this.queue : this.queue.slice(0, sameToken)).map((q) => q.report);
        const batch = candidates.slice(0, batchSize(candidates));
        const outcome = await this.send(batch, token);
        if (outcome === "retry") break;
        this.queue.splice(0, batch.length);
      }
    })().finally(() => (this.sending = null));
    await this.sending;
    if (this.queue.length > 0 && !this.disabled) {
      this.timer ??= setTimeout(
        () => {
          this.timer = null;
          void this.flush();
        },
        Math.max(this.opts.intervalMs ?? 500, this.pausedUntil - Date.now(), 2000),
      );
    }
  }

  /** Sends what is left, for at most `graceMs`, and stops the timer. */
  async close(graceMs: number): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pausedUntil = 0;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.flush(), new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    if (this.timer) clearTimeout(this.timer);
    if (this.dropped > 0 || this.queue.length > 0) {
      this.opts.print(
        `${new Date().toISOString()}  ${this.dropped + this.queue.length} forward attempts were not recorded on the service (it could not be reached)`,
      );
    }
  }

  /**
   * Prints one line when the service recorded a batch but refused some of its attempts (the answer's `refused`,
   * docs/callbacks.md "Forwards on the service"): how many, and the first one's forward, attempt and reason.
   */
  private printRefused(sent: number, text: string): void {
    const refused = Recorded.safeParse(jsonOrNull(text)).data?.refused ?? [];
    const [first] = refused;
    if (!first) return;
    const more = refused.length > 1 ? ` (and ${refused.length - 1} more)` : "";
    this.opts.print(
      `${new Date().toISOString()}  the service did not record ${refused.length} of ${sent} forward attempts: attempt ${first.attempt} of forward ${first.forwardId}: ${first.reason}${more}; forwarding goes on`,
    );
  }

  private async send(batch: ForwardReport[], forwardToken: string): Promise<"done" | "retry"> {
    try {
      const res = await fetch(`${this.opts.apiUrl}/v1/events/forwards`, {
        method: "POST",
        headers: { authorization: `Bearer ${this.opts.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ forwardToken, forwards: batch }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text().catch(() => "");
      if (res.ok) {
        this.printRefused(batch.length, text);
        return "done";
      }
      if (res.status === 429) {
        this.pausedUntil = Date.now() + Number(res.headers.get("retry-after") ?? "5") * 1000;
        return "retry";
      }
      if (res.status >= 500) return "retry";
      if (res.status === 404 || res.status === 405) {
        this.disabled = true;
        this.opts.print(`${new Date().toISOString()}  this service does not record listener forwards (${res.status}); forwarding goes on`);
        return "done";
      }
      if (!this.warned) {
        this.warned = true;
        this.opts.print(
          `${new Date().toISOString()}  the service did not record ${batch.length} forward attempts (${refusalOf(res, text).detail()}); forwarding goes on`,
        );
      }
      return "done";
    } catch {
      return "retry";
    }
  }
}
