// Writes the request log (docs/api.md "Request log") off the request's path: the pipeline hands each finished
// /v1 request to recordRequest, which only queues it; a timer writes the queue in one INSERT per batch.
import { Prisma, query } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { redactBody, redactQuery, redactText } from "@/lib/platform/redaction/redact";
import { config } from "@/lib/platform/config";

/** One finished request as the pipeline saw it; bodies are raw here and redacted when written. */
export type RequestRecord = {
  requestId: string;
  merchantId: string;
  apiKeyId: string;
  keyPrefix: string;
  method: string;
  path: string;
  /** The query string without the `?`, or null. */
  query: string | null;
  status: number;
  errorCode: string | null;
  idempotencyKey: string | null;
  replayed: boolean;
  /** Milliseconds, rounded. */
  latencyMs: number;
  requestBody: string | null;
  responseBody: string | null;
  createdAt: Date;
};

/** What a request created or read, for links from the log: a payment, an event or a checkout session. */
export type RequestResource = { resourceType: "payment" | "event" | "checkout_session"; resourceId: string };

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const BY_PATH: [RegExp, RequestResource["resourceType"]][] = [
  [new RegExp(`^/v1/(?:sandbox/)?payments/(${UUID})(?:/|$)`, "i"), "payment"],
  [new RegExp(`^/v1/(?:sandbox/)?checkout-sessions/(${UUID})(?:/|$)`, "i"), "checkout_session"],
  [new RegExp(`^/v1/events/(${UUID})(?:/|$)`, "i"), "event"],
];
const CREATES: Record<string, RequestResource["resourceType"]> = {
  "/v1/payments": "payment",
  "/v1/store-payments": "payment",
  "/v1/checkout-sessions": "checkout_session",
};

/**
 * The record a request is about: the id in its path (`/v1/payments/{id}`, `/v1/sandbox/payments/{id}/...`,
 * `/v1/checkout-sessions/{id}`, `/v1/events/{id}/...`), or the id of what a successful create answered; null
 * otherwise (lists, errors of creates).
 */
export function resourceOf(method: string, path: string, status: number, responseBody: string | null): RequestResource | null {
  for (const [pattern, resourceType] of BY_PATH) {
    const id = pattern.exec(path)?.[1];
    if (id) return { resourceType, resourceId: id.toLowerCase() };
  }
  const created = CREATES[path];
  if (method === "POST" && created && status < 300 && responseBody) {
    const id = new RegExp(`^\\{"id":"(${UUID})"`, "i").exec(responseBody)?.[1];
    if (id) return { resourceType: created, resourceId: id };
  }
  return null;
}

/** Rows per INSERT. */
const BATCH = 200;
/** Requests kept in memory while the database does not take them; beyond this the oldest are dropped (logged). */
const MAX_QUEUED = 20_000;
/** Milliseconds between writes. */
const FLUSH_MS = 250;

/** Whether the request log is on (REQUEST_LOG=0 switches it off, e.g. to measure what it costs). */
export function requestLogEnabled(): boolean {
  return config().REQUEST_LOG;
}

/**
 * docs/api.md "Request log": where an error answer can be looked up, appended to its message. `recorded`: whether
 * this request goes into the log (it was sent with a valid key). Returns `message` unchanged when the log is off or
 * the request is not recorded; otherwise `message` ending with a full stop and
 * ` See GET /v1/requests/<requestId> or the console's Requests page.`
 */
export function withLogPointer(message: string, requestId: string, recorded: boolean): string {
  if (!recorded || !requestLogEnabled()) return message;
  const sentence = /[.!?]$/.test(message) ? message : `${message}.`;
  return `${sentence} See GET /v1/requests/${requestId} or the console's Requests page.`;
}

const queue: RequestRecord[] = [];
let timer: NodeJS.Timeout | null = null;
let writing: Promise<void> | null = null;
let dropped = 0;

/**
 * Queues one finished request for the log; returns at once (no I/O on the request's path). Written within about
 * 250 ms by {@link flushRequestLog}; a failed write is logged and its rows dropped (the log never fails a request).
 */
export function recordRequest(record: RequestRecord): void {
  if (!requestLogEnabled()) return;
  queue.push(record);
  if (queue.length > MAX_QUEUED) {
    dropped += queue.length - MAX_QUEUED;
    queue.splice(0, queue.length - MAX_QUEUED);
  }
  if (!timer) {
    timer = setTimeout(() => {
      timer = null;
      void flushRequestLog();
    }, FLUSH_MS);
    timer.unref();
  }
}

/** One INSERT of a batch (one round trip, one prepared statement): columns as arrays, unnested. */
async function insertRows(batch: RequestRecord[]): Promise<void> {
  const rows = batch.map((r) => ({ ...r, resource: resourceOf(r.method, r.path, r.status, r.responseBody) }));
  const column = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  await query(Prisma.sql`
    INSERT INTO request_logs (request_id, merchant_id, api_key_id, key_prefix, method, path, query, status, error_code, idempotency_key,
                              replayed, latency_ms, request_body, response_body, resource_type, resource_id, created_at)
    SELECT * FROM unnest(
      ${column((r) => r.requestId)}::uuid[], ${column((r) => r.merchantId)}::uuid[], ${column((r) => r.apiKeyId)}::uuid[],
      ${column((r) => r.keyPrefix)}::text[], ${column((r) => r.method)}::text[], ${column((r) => redactText(r.path))}::text[],
      ${column((r) => redactQuery(r.query))}::text[], ${column((r) => r.status)}::int[], ${column((r) => r.errorCode)}::text[],
      ${column((r) => (r.idempotencyKey === null ? null : redactText(r.idempotencyKey)))}::text[], ${column((r) => r.replayed)}::bool[], ${column((r) => r.latencyMs)}::int[],
      ${column((r) => redactBody(r.requestBody))}::text[], ${column((r) => redactBody(r.responseBody))}::text[],
      ${column((r) => r.resource?.resourceType ?? null)}::text[], ${column((r) => r.resource?.resourceId ?? null)}::uuid[],
      ${column((r) => r.createdAt.toISOString())}::timestamptz[])
    ON CONFLICT (request_id) DO NOTHING`);
}

/**
 * Writes every queued request now, in INSERTs of at most 200 rows, one round trip each (bodies redacted and
 * capped by redactBody; a request id already written is skipped). Resolves when the queue is empty or a write failed (logged).
 */
export async function flushRequestLog(): Promise<void> {
  if (writing) await writing;
  writing = (async () => {
    while (queue.length > 0) {
      const batch = queue.splice(0, BATCH);
      try {
        await insertRows(batch);
      } catch (error) {
        log.warn({ rows: batch.length, err: error instanceof Error ? error.message.slice(0, 300) : String(error) }, "request log rows not written");
      }
    }
    if (dropped > 0) {
      log.warn({ rows: dropped }, "request log rows dropped: the database did not keep up");
      dropped = 0;
    }
  })().finally(() => (writing = null));
  await writing;
}
