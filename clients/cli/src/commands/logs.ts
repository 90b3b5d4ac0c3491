// `sandpiper logs tail` (docs/api.md "Request log"): follows the merchant's request log from the command line,
// one line per API request as it is answered.
import { COMMON_HELP, HELP, connection, intOption, parseCommandLine, usage, type Connection, type Env } from "../args";
import type { RequestLogView } from "@/lib/contract/schemas/api/requests";
import { RequestLogList } from "../answers";
import { request } from "../client";

export const LOGS_TAIL_HELP = `Usage: sandpiper logs tail [options]

Prints your merchant's API requests as they are answered (GET /v1/requests, polled every second), one line
each: time, method, path, status, latency, requestId, Idempotency-Key and whether it was a replay, the error
code. Requests made before it starts are not printed; the command's own reads of the log are left out.
Stop it with Ctrl+C.

Options:
  --status <class>      only these answers: 2xx, 4xx, 5xx (or one status, e.g. 409)
  --path <prefix>       only paths starting with this, e.g. /v1/payments
  --method <method>     only this method (GET, POST, PUT)
  --error-code <code>   only error answers with this code, e.g. VALIDATION_ERROR
  --interval <seconds>  seconds between polls, 1 to 60 (default 1)
${COMMON_HELP}

The key needs the payments:read scope. A request's bodies are in GET /v1/requests/<requestId> (redacted).`;

export type LogsTailArgs = {
  connection: Connection;
  filters: Record<string, string>;
  intervalMs: number;
};

/**
 * Parses the arguments after `logs tail`. Returns HELP for --help.
 * @throws UsageError (one line) for a malformed option.
 */
export function parseLogsTail(argv: string[], env: Env): LogsTailArgs | typeof HELP {
  const parsed = parseCommandLine(
    "logs tail",
    argv,
    { status: { type: "string" }, path: { type: "string" }, method: { type: "string" }, "error-code": { type: "string" }, interval: { type: "string" } },
    0,
  );
  if (parsed === HELP) return HELP;
  const { values } = parsed;
  const filters: Record<string, string> = {};
  const status = values.status;
  if (status !== undefined) {
    if (!/^([2-5]xx|[1-5]\d\d)$/.test(status)) throw usage("logs tail", `--status must be a class (2xx, 4xx, 5xx) or a status such as 409, not "${status}"`);
    filters.status = status;
  }
  const path = values.path;
  if (path !== undefined) {
    if (!path.startsWith("/v1/")) throw usage("logs tail", `--path must start with /v1/, e.g. /v1/payments`);
    filters.path = path;
  }
  const method = values.method?.toUpperCase();
  if (method !== undefined) {
    if (!["GET", "POST", "PUT", "PATCH", "DELETE"].includes(method)) throw usage("logs tail", `--method must be GET, POST, PUT, PATCH or DELETE`);
    filters.method = method;
  }
  const code = values["error-code"];
  if (code !== undefined) {
    if (!/^[A-Z_]{2,64}$/.test(code)) throw usage("logs tail", `--error-code must be an error code such as VALIDATION_ERROR`);
    filters.errorCode = code;
  }
  const interval = intOption("logs tail", "interval", values.interval, 1, 60) ?? 1;
  return { connection: connection("logs tail", values, env), filters, intervalMs: interval * 1000 };
}

/** One logged request as `GET /v1/requests` answers it, with the members the line shows. */
export type LoggedRequest = Pick<
  RequestLogView,
  "requestId" | "createdAt" | "method" | "path" | "query" | "status" | "errorCode" | "idempotencyKey" | "replayed" | "latencyMs"
>;

/** The line `logs tail` prints for one request. */
export function formatRequestLine(r: LoggedRequest): string {
  const parts = [r.createdAt, r.method.padEnd(4), `${r.path}${r.query ? `?${r.query}` : ""}`, String(r.status), `${r.latencyMs} ms`, `req ${r.requestId}`];
  if (r.idempotencyKey) parts.push(`idem ${r.idempotencyKey}${r.replayed ? " (replayed)" : ""}`);
  if (r.errorCode) parts.push(r.errorCode);
  return parts.join("  ");
}

/** The requests of the command's own polls, which it never prints. */
const isOwnRead = (r: LoggedRequest) => r.method === "GET" && r.path.startsWith("/v1/requests");

/**
 * `sandpiper logs tail`: polls `GET /v1/requests?since=...` every `intervalMs` and prints each new request once,
 * oldest first, until SIGINT or SIGTERM (`stop`, for tests).
 * @returns 0 when stopped
 * @throws ServiceError when the service refuses the key or cannot be reached at start
 */
export async function runLogsTail(args: LogsTailArgs, stop: AbortSignal = signalOfProcess()): Promise<number> {
  const seen = new Set<string>();
  const read = async (since: string | null) => {
    const query = new URLSearchParams({ ...args.filters, limit: "100" });
    if (since) query.set("since", since);
    return (await request(args.connection, "GET", `/v1/requests?${query}`, RequestLogList)).items;
  };
  // What is already in the log is the starting point: remembered, not printed.
  const start = await read(null);
  start.forEach((r) => seen.add(r.requestId));
  let since = start[0]?.createdAt ?? new Date(Date.now() - 1000).toISOString();
  console.log(
    `Following the request log of ${args.connection.apiUrl}${Object.keys(args.filters).length ? ` (${new URLSearchParams(args.filters)})` : ""}. Press Ctrl+C to stop.`,
  );
  while (!stop.aborted) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, args.intervalMs);
      function done() {
        clearTimeout(timer);
        stop.removeEventListener("abort", done);
        resolve();
      }
      stop.addEventListener("abort", done, { once: true });
    });
    if (stop.aborted) break;
    let items: LoggedRequest[];
    try {
      items = await read(since);
    } catch (error) {
      console.error(`sandpiper logs tail: ${error instanceof Error ? error.message : String(error)}; trying again`);
      continue;
    }
    for (const r of [...items].reverse()) {
      if (seen.has(r.requestId)) continue;
      seen.add(r.requestId);
      if (r.createdAt > since) since = r.createdAt;
      if (!isOwnRead(r)) console.log(formatRequestLine(r));
    }
    if (seen.size > 50_000) seen.clear();
  }
  return 0;
}

/** Aborted at the process's first SIGINT or SIGTERM. */
function signalOfProcess(): AbortSignal {
  const controller = new AbortController();
  for (const s of ["SIGINT", "SIGTERM"] as const) process.once(s, () => controller.abort());
  return controller.signal;
}

/** The `logs` subcommands, by name. */
export const LOGS_COMMANDS = {
  tail: { help: LOGS_TAIL_HELP, parse: parseLogsTail, run: (args: LogsTailArgs) => runLogsTail(args) },
} as const;
