// One HTTP POST of a callback attempt to a pinned address. docs/callbacks.md (Delivery) and "Limits" (Callback).
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";

/** Hard overall time limit of one attempt, milliseconds (docs/api.md "Limits": timeout 5 s). */
export const DEFAULT_TIMEOUT_MS = 5000;
/** Most response bytes read from a receiver (docs/api.md "Limits": response at most 64 KiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 65536;
/** Most characters of the response kept as a snippet. */
export const RESPONSE_SNIPPET_CHARS = 1024;
// Enough bytes for RESPONSE_SNIPPET_CHARS characters of UTF-8 (at most 4 bytes each).
const SNIPPET_BYTES = RESPONSE_SNIPPET_CHARS * 4;

export interface SendCallbackInput {
  /** Target checked by checkCallbackUrl; supplies scheme, host name (Host header, TLS SNI), port and path. */
  url: URL;
  /** The address to connect to, as returned by checkCallbackUrl (no second DNS lookup). */
  address: string;
  family: 4 | 6;
  /** Request headers, e.g. from buildCallbackHeaders. Content-Length, Host and Connection are set here. */
  headers: Record<string, string>;
  /** The exact signed body bytes. */
  body: string | Buffer;
  /** Overall limit covering connect, request and response, milliseconds. Default 5000. */
  timeoutMs?: number;
  /** Response bytes read at most before the connection is closed. Default 65536. */
  maxResponseBytes?: number;
}

export interface SendCallbackResult {
  /** True only for a 2xx status received within the time limit. */
  ok: boolean;
  statusCode: number | null;
  /** Wall time of the attempt, milliseconds. */
  durationMs: number;
  /** Human-readable failure ("timeout after 5000 ms", "redirect not followed", "connect ECONNREFUSED ..."), null when ok. */
  error: string | null;
  /** First at most 1024 characters of the response body read (UTF-8). */
  responseSnippet: string;
  /** True when the receiver answered 3xx (never followed). */
  redirected: boolean;
  /** True when the address refused the connection (ECONNREFUSED: nothing listens there); absent otherwise. */
  refused?: true;
}

function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

/** Whether a request's error is the address refusing the connection (nothing listens on the port). */
function isRefusal(err: unknown): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === "ECONNREFUSED";
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return "request failed";
  const code = (err as NodeJS.ErrnoException).code;
  if (code && !err.message.includes(code)) return `${code}: ${err.message}`;
  return err.message || code || "request failed";
}

/**
 * Sends one callback attempt: POST of `body` to `url`, connecting only to `address`.
 *
 * docs/callbacks.md (Delivery): time-out 5 seconds; redirects are not followed; non-2xx or a
 * connection failure counts as failed (the caller schedules a retry). docs/api.md "Limits": response
 * read up to 64 KiB. docs/architecture.md "Callbacks": connect to the address resolved by the URL policy.
 *
 * - node:http / node:https `request` with a `lookup` that returns the pinned address, a fresh
 *   connection (no agent, `Connection: close`), TLS verification on and SNI = url.hostname.
 * - One timer of `timeoutMs` covers connect, TLS, upload and response; on expiry the request is
 *   destroyed and the error is "timeout after <timeoutMs> ms".
 * - A 3xx answer is not followed: ok false, redirected true, error "redirect not followed".
 * - At most `maxResponseBytes` are read; then the socket is destroyed. Only the snippet is kept.
 * - Never throws and never logs: every failure is returned in `error`.
 *
 * @returns `{ ok, statusCode, durationMs, error, responseSnippet, redirected }`.
 * @throws never.
 */
export function sendCallbackRequest(input: SendCallbackInput): Promise<SendCallbackResult> {
  const { url, address, family, headers, body } = input;
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxResponseBytes = input.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const started = performance.now();

  return new Promise<SendCallbackResult>((resolvePromise) => {
    let req: http.ClientRequest | undefined;
    let settled = false;
    let statusCode: number | null = null;
    let redirected = false;
    const kept: Buffer[] = [];
    let keptBytes = 0;

    const finish = (error: string | null, refused = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req?.destroy();
      const ok = error === null && statusCode !== null && statusCode >= 200 && statusCode < 300;
      resolvePromise({
        ok,
        statusCode,
        durationMs: Math.round(performance.now() - started),
        error: ok ? null : (error ?? `HTTP ${statusCode ?? "no status"}`),
        responseSnippet: Buffer.concat(kept).toString("utf8").slice(0, RESPONSE_SNIPPET_CHARS),
        redirected,
        ...(refused && statusCode === null ? { refused: true as const } : {}),
      });
    };
    const timer = setTimeout(() => finish(`timeout after ${timeoutMs} ms`), timeoutMs);

    try {
      const payload = typeof body === "string" ? Buffer.from(body, "utf8") : body;
      const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
      const isHttps = url.protocol === "https:";
      const options: https.RequestOptions = {
        method: "POST",
        hostname,
        port: url.port === "" ? (isHttps ? 443 : 80) : Number(url.port),
        path: `${url.pathname}${url.search}`,
        family,
        lookup: pinnedLookup(address, family),
        agent: false,
        headers: { ...headers, Host: url.host, "Content-Length": String(payload.length), Connection: "close" },
      };
      if (isHttps && isIP(hostname) === 0) options.servername = hostname;

      req = (isHttps ? https : http).request(options, (res) => {
        statusCode = res.statusCode ?? null;
        if (statusCode !== null && statusCode >= 300 && statusCode < 400) {
          redirected = true;
          finish("redirect not followed");
          return;
        }
        let readBytes = 0;
        res.on("data", (chunk: Buffer) => {
          const take = Math.min(chunk.length, maxResponseBytes - readBytes);
          if (keptBytes < SNIPPET_BYTES) {
            const keep = chunk.subarray(0, Math.min(take, SNIPPET_BYTES - keptBytes));
            kept.push(Buffer.from(keep));
            keptBytes += keep.length;
          }
          readBytes += take;
          if (readBytes >= maxResponseBytes) finish(null);
        });
        res.on("end", () => finish(null));
        res.on("error", (err) => finish(describeError(err)));
        res.on("aborted", () => finish("response aborted"));
      });
      req.on("error", (err) => finish(describeError(err), isRefusal(err)));
      req.end(payload);
    } catch (err) {
      finish(describeError(err));
    }
  });
}
