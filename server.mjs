// Sandpiper HTTP server: Next.js behind node:http, so the source IP comes from the socket
// (docs/architecture.md "Request pipeline") and SIGTERM drains in-flight requests.
import cluster from "node:cluster";
import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";
import next from "next";
import { loopbackRefusal } from "./lib/domain/addresses/loopback-rule.mjs";
import { configCheck } from "./lib/platform/compiled.mjs";
import { directRoutes } from "./lib/application/http/direct-routes.mjs";
import {
  dropUntrustedForwardedHost,
  hasConsoleSession,
  isCustomerAction,
  malformedPath,
  pagePost,
  pagePostSizeRefusal,
  secureAnswers,
  sessionRefusal,
  trustedProxies,
} from "./lib/application/http/front.mjs";

const root = path.dirname(fileURLToPath(import.meta.url));
/** This process's state (lib/platform/process-state.ts), shared with the service's modules: its log and page POST budget once start-up ran. */
const shared = (globalThis.__sandpiper ??= {});
const PEER_HEADER = "x-sandpiper-peer";
// The request target as it arrived (lib/application/http/json.ts requestQuery): Next.js rebuilds request.url from a parsed
// query object and loses a parameter named "__proto__", which must reach validation as an unknown name.
const TARGET_HEADER = "x-sandpiper-target";
// X-Forwarded-For as the client sent it (lib/domain/auth/ip.ts sourceIp): Next.js fills X-Forwarded-For with the socket
// address when a request has none, so only this copy tells whether a proxy forwarded the request.
const FORWARDED_HEADER = "x-sandpiper-forwarded-for";
/** The variables of the one configuration (lib/platform/config.ts, docs/operating.md "Environment") that this file and the scripts use. */
const SETTINGS = [
  "DATABASE_URL",
  "PORT",
  "HOST",
  "SANDPIPER_WORKERS",
  "SANDPIPER_EMBEDDED",
  "SANDPIPER_DATA_DIR",
  "REDIS_URL",
  "RATE_LIMIT_STORE",
  "NEXTAUTH_SECRET",
  "NEXTAUTH_URL",
  "CALLBACK_ALLOW_LOOPBACK",
  "SHUTDOWN_DELAY_MS",
  "SHUTDOWN_DRAIN_MS",
  "METRICS_TOKEN",
  "TRUSTED_PROXIES",
  "PUBLIC_BASE_URL",
];
/** Checked configurations by the values of SETTINGS they were checked with (the start sets some of them as it goes). */
const checked = new Map();
/** The check of this process ({@link useConfigCheck}), or null until the first check loads the compiled one. */
let configCheckFn = null;

/**
 * Checks the configuration with `check(env, names)` from now on instead of the clone's compiled lib/platform/config-values.ts
 * (lib/platform/compiled.mjs): for a process that carries that module bundled, such as the @sandpiper/sandbox package's
 * (docs/guides/test-in-your-own-suite.md "How it works"). `check` answers `{ values, accepts }` and ends the process
 * with exit code 1 on a refused variable, as lib/platform/config-values.ts `checkedValues` does.
 */
export function useConfigCheck(check) {
  configCheckFn = check;
  checked.clear();
}

/**
 * The configuration as `env` holds it now, checked in this process by lib/platform/config.ts (compiled to JavaScript by
 * lib/platform/compiled.mjs: no TypeScript loader in the serving process). Checked again only when one of SETTINGS has
 * changed since (the start sets NEXTAUTH_SECRET from the database and the embedded database's variables). A refused
 * variable ends the process with exit code 1 after one line per variable on stderr (`Sandpiper refuses to start:
 * NAME: got "value"; expected ...`, a secret's value never printed); a check that cannot load at all (not compiled,
 * and no esbuild to compile it) says so in one line and ends it too.
 * @returns `{ values, accepts }`: the typed values of SETTINGS (PORT a number, HOST a string or undefined,
 *   SANDPIPER_WORKERS a number or "auto", the flags booleans, ...) and what each accepts
 */
function checkedSettings(env) {
  const key = settingsKey(env);
  let result = checked.get(key);
  if (!result) {
    try {
      configCheckFn ??= configCheck();
    } catch (error) {
      console.error(`Sandpiper could not check its configuration: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
    result = configCheckFn(env, SETTINGS);
    checked.set(key, result);
  }
  return result;
}

/** The cache key of checkedSettings: the values of SETTINGS in `env`. */
function settingsKey(env) {
  return JSON.stringify(SETTINGS.map((name) => env[name] ?? null));
}

/**
 * Sets `name` in process.env to `value`, a value the start made and the configuration accepts, whose typed value is
 * `typed` (the database's NEXTAUTH_SECRET, the served PORT, the default NEXTAUTH_URL, the embedded database's
 * DATABASE_URL): recorded as checked, so the start does not check the configuration again for it.
 */
export function setChecked(name, value, typed) {
  const before = checkedSettings(process.env);
  process.env[name] = value;
  checked.set(settingsKey(process.env), { ...before, values: { ...before.values, [name]: typed } });
}

/**
 * The configuration's values of the variables this file uses, as `env` holds them now (see checkedSettings).
 * @returns PORT a number, HOST a string or undefined, SANDPIPER_WORKERS a number or "auto", SANDPIPER_EMBEDDED and
 *   CALLBACK_ALLOW_LOOPBACK booleans, the rest (DATABASE_URL among them: the scripts read it here) strings or undefined
 */
export function settings(env = process.env) {
  return checkedSettings(env).values;
}

/**
 * Why this process must not serve with `env`, or null: a sandbox token (the process state's sandboxToken, set only by
 * the @sandpiper/sandbox package's process before it starts the service: lib/application/http/sandbox-token.ts) under
 * NODE_ENV=production (docs/decisions/0198-a-merchant-per-test-over-a-sandbox-token.md).
 */
export function sandboxTokenRefusal(env = process.env) {
  const state = (globalThis.__sandpiper ??= {});
  return state.sandboxToken !== undefined && env.NODE_ENV === "production"
    ? "a sandbox token is set under NODE_ENV=production: POST /v1/sandbox/merchants makes merchants without an API key and exists only in the @sandpiper/sandbox package"
    : null;
}

/**
 * Exits with a clear message when the environment is unsafe to serve: CALLBACK_ALLOW_LOOPBACK=1 with
 * NODE_ENV=production (the one rule: lib/domain/addresses/loopback-rule.mjs; instrumentation.ts applies it again for
 * `next start`), or a sandbox token under NODE_ENV=production ({@link sandboxTokenRefusal}).
 */
export function refuseUnsafeStart(env = process.env) {
  const refusal = loopbackRefusal(settings(env).CALLBACK_ALLOW_LOOPBACK, env.NODE_ENV) ?? sandboxTokenRefusal(env);
  if (refusal) {
    console.error(`Sandpiper refuses to start: ${refusal}`);
    process.exit(1);
  }
}

/** The embedded install's data folder: `SANDPIPER_DATA_DIR`, default `<repo>/.data` (git-ignored). Exits on a refused configuration ({@link settings}). */
export function dataDirectory() {
  const dir = settings().SANDPIPER_DATA_DIR;
  return dir ? path.resolve(dir) : path.join(root, ".data");
}

/**
 * Console sessions and the listener's forward tokens need NEXTAUTH_SECRET (it signs and encrypts them), and every
 * instance of one database needs the same one (docs/operating.md "Scaling"). When the environment does not set it,
 * it is kept in the database (lib/platform/db-connection.mjs sharedAuthSecret: made by the first instance, read by every other; an
 * earlier version's `<dataDir>/nextauth-secret` is carried over, so its sessions survive). Without DATABASE_URL it is
 * read from that file, created with 32 random bytes (mode 0600). Exits with one line when the database cannot give it.
 */
export async function ensureAuthSecret(dataDir = dataDirectory()) {
  const { NEXTAUTH_SECRET: given, DATABASE_URL: databaseUrl } = settings();
  if (given) return;
  const file = path.join(dataDir, "nextauth-secret");
  const existing = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : null;
  let secret;
  if (databaseUrl) {
    const { sharedAuthSecret, DatabaseUnusableError } = await import("./lib/platform/db-connection.mjs");
    try {
      secret = await sharedAuthSecret(databaseUrl, existing);
    } catch (error) {
      if (!(error instanceof DatabaseUnusableError)) throw error;
      console.error(error.message);
      process.exit(1);
    }
  } else {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    secret = fs.readFileSync(file, "utf8").trim();
  }
  setChecked("NEXTAUTH_SECRET", secret, secret);
}

/**
 * A response written before the request body was read to its end (413 past 32 KiB, 415, 401 before the
 * body) announces `Connection: close`, and the rest of the body is drained and discarded: otherwise the
 * unread bytes stay on a kept-alive connection and the client's next request on it is taken as body, and
 * never answered. Every answer also announces it while `closing()` is true (a drain after SIGTERM: clients open
 * their next connection elsewhere). `res`/`req`: the node:http pair of one request.
 */
export function closeIfBodyUnread(req, res, closing = () => false) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    if (!req.complete || closing()) this.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  };
  res.once("finish", () => {
    if (!req.complete && !req.destroyed) req.resume();
  });
}

/** The methods the service serves; any other (TRACE, CONNECT, PROPFIND, ...) is answered 405 by {@link earlyRefusal}. */
const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * A request answered before Next.js sees it, in the contract's error envelope (docs/api.md "Errors"), or null:
 * a method the service does not serve (405 METHOD_NOT_ALLOWED with `Allow`; Next.js would answer 500 and log a
 * stack), and a POST to a page (a console or customer page's Server Action; not a customer action, {@link isCustomerAction}) whose `Origin` is another site's or
 * `null` (403 FORBIDDEN; Next.js refuses it too, with a 500). The Origin is compared with `X-Forwarded-Host` or `Host`,
 * as Next.js does; nothing is read or changed.
 * @returns `{ status, code, message, headers }` or null
 */
export function earlyRefusal(req) {
  if (!SERVED_METHODS.includes(req.method ?? "")) {
    const allow = SERVED_METHODS.join(", ");
    return { status: 405, code: "METHOD_NOT_ALLOWED", message: `method ${req.method} is not served; use ${allow}`, headers: { Allow: allow } };
  }
  const origin = req.headers.origin;
  if (req.method !== "POST" || origin === undefined || /^\/(v1|api)(\/|$)/.test(req.url ?? "") || isCustomerAction(req)) return null;
  const host = String(req.headers["x-forwarded-host"] ?? req.headers.host ?? "")
    .split(",")[0]
    .trim();
  let originHost = null;
  try {
    originHost = origin === "null" ? null : new URL(origin).host;
  } catch {
    // not a URL: refused below
  }
  if (originHost !== null && originHost === host) return null;
  return {
    status: 403,
    code: "FORBIDDEN",
    message: "this form was sent from another site (its Origin is not this service's); open the page here and send it again",
    headers: {},
  };
}

/** The most of a refused request's body read and discarded before the answer (bytes): a console form is far smaller. */
const REFUSED_BODY_MAX = 1024 * 1024;

/**
 * Calls `answer` once the request's body has been read and discarded, so that a refusal is not written while the
 * client is still sending (it would see the connection closed under its write, EPIPE, instead of the answer); past
 * {@link REFUSED_BODY_MAX} bytes, or when the request ends early, it answers at once and the connection closes
 * ({@link closeIfBodyUnread}).
 */
function afterBody(req, answer) {
  let answered = false;
  let read = 0;
  const once = () => {
    if (answered) return;
    answered = true;
    answer();
  };
  if (req.complete) return once();
  req.on("data", (chunk) => {
    read += chunk.length;
    if (read > REFUSED_BODY_MAX) once();
  });
  req.once("end", once);
  req.once("error", once);
  req.once("close", once);
}

/** Writes `refusal` ({@link earlyRefusal}) as the contract's error envelope, with a request id and no caching. */
function answerRefusal(res, refusal, requestId = randomUUID()) {
  res.writeHead(refusal.status, {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Request-Id": requestId,
    ...refusal.headers,
  });
  res.end(JSON.stringify({ error: { code: refusal.code, message: refusal.message, requestId } }));
}

/**
 * One line of the stdout log from this file: through the service's log (lib/application/http/front-services.ts, its
 * redaction rule) once start-up has set it; before that, a JSON line of the same shape without `fields` beyond the
 * request id (a path may hold a bearer link, which only the redaction rule may write).
 */
function frontLog(level, fields, message) {
  const log = shared.frontLog;
  if (log) return log(level, fields, message);
  console.log(JSON.stringify({ level: level === "warn" ? 40 : 30, time: Date.now(), service: "sandpiper", requestId: fields.requestId, msg: message }));
}

/**
 * Answers a request whose path cannot be percent-decoded (`/v1/payments/%`): 400 VALIDATION_ERROR in the contract's
 * envelope with X-Request-Id under /v1 (docs/api.md "Errors"), a plain 400 page elsewhere; one log line either way.
 */
function answerMalformedPath(req, res) {
  const requestId = randomUUID();
  const api = /^\/v1(\/|$|%)/.test(req.url ?? "");
  frontLog(
    "warn",
    { requestId, method: req.method, path: (req.url ?? "").split("?")[0], status: 400 },
    "request refused: its path is not valid percent-encoding",
  );
  const message = "the request path is not valid percent-encoding: write a literal % as %25 and every other escape as % and two hex digits";
  afterBody(req, () => {
    if (api) return answerRefusal(res, { status: 400, code: "VALIDATION_ERROR", message, headers: {} }, requestId);
    res.writeHead(400, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Request-Id": requestId });
    res.end(
      `<!doctype html><html lang="en"><meta charset="utf-8"><title>Bad request</title><h1>Bad request</h1><p>This address is not valid: ${message}.</p></html>`,
    );
  });
}

/**
 * Bounds a page POST before Next.js decodes it (docs/operating.md "The HTTP front"): 413 past its size
 * (lib/application/http/front.mjs pagePostSizeRefusal), a console one without a session is sent to sign in
 * (sessionRefusal), and one past its address's budget gets 429 RATE_LIMITED with Retry-After. Answers and returns
 * true when refused; false to serve it.
 */
async function refusePagePost(req, res, kind, secret, decode) {
  const tooLarge = pagePostSizeRefusal(req, kind);
  if (tooLarge) return refuse(req, res, tooLarge);
  const origin = earlyRefusal(req);
  if (origin) return refuse(req, res, origin);
  if (kind === "console" && !(await hasConsoleSession(req, secret, decode))) return refuse(req, res, sessionRefusal(req));
  const limit = shared.pagePostLimit;
  const retryAfter = limit ? await limit(req.socket.remoteAddress ?? "", req.headers["x-forwarded-for"]) : null;
  if (retryAfter === null) return false;
  return refuse(req, res, {
    status: 429,
    code: "RATE_LIMITED",
    message: `too many form posts from this address; wait ${retryAfter} seconds and try again`,
    headers: { "Retry-After": String(retryAfter) },
  });
}

/** Answers `refusal` once the body is read and discarded ({@link afterBody}); returns true. */
function refuse(req, res, refusal) {
  afterBody(req, () => answerRefusal(res, refusal));
  return true;
}

/**
 * Answers a client whose request the HTTP parser refused (a broken chunked body, a bare LF, headers too large, headers
 * or the whole request not sent within their time-out; docs/operating.md "The HTTP front"), as Node.js would but in
 * the contract's envelope: while nothing of an answer has been written on its connection, 400 VALIDATION_ERROR (408
 * for a time-out, 431 for headers too large) with X-Request-Id; then the connection closes. A request already under
 * way on it fails to read its body and is answered and logged by its own pipeline (400, counted under 400); otherwise
 * this writes the one log line. Nothing goes to stderr.
 */
function answerClientError(error, socket) {
  const requestId = randomUUID();
  const code = String(error.code ?? "");
  const status = code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const underWay = socket._httpMessage;
  // A connection that never sent a byte (a client's spare connection) is closed as an idle one is: no answer, no line.
  if (!underWay && socket.bytesRead === 0) return void socket.destroy();
  if (!underWay)
    frontLog("warn", { requestId, status, reason: code || error.message }, "request refused: the client sent what HTTP cannot read, or too slowly");
  if (socket.writable && (!underWay || !underWay.headersSent)) {
    const reason = status === 408 ? "the request was not sent in time" : status === 431 ? "the request headers are too large" : "the request is not valid HTTP";
    const body = JSON.stringify({ error: { code: "VALIDATION_ERROR", message: `${reason}; send it again`, requestId } });
    const text = status === 408 ? "Request Timeout" : status === 431 ? "Request Header Fields Too Large" : "Bad Request";
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\nX-Request-Id: ${requestId}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Time-outs of a client's request (docs/operating.md "The HTTP front"), milliseconds: its headers, and the whole request with its body. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The one line that says why the service cannot listen on `host`:`port` and what to do instead (port in use, a port
 * this user may not open, an address not of this machine); `error` is the listen error (`code` EADDRINUSE, ...).
 */
function listenRefusal(error, host, port) {
  const lead = "Sandpiper cannot start:";
  if (error.code === "EADDRINUSE")
    return `${lead} port ${port} on ${host} is in use by another process. Stop that process, or pick another port: PORT=<port> npm start (PORT=0 takes any free port and prints it).`;
  if (error.code === "EACCES") return `${lead} this user may not listen on port ${port} of ${host}. Pick a port above 1023: PORT=3000 npm start.`;
  if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND")
    return `${lead} HOST=${host} is not an address of this machine. Set HOST to one of its addresses (127.0.0.1, 0.0.0.0 for every interface).`;
  return `${lead} cannot listen on ${host}:${port} (${error.message}).`;
}

/**
 * Exits with code 1 and one line ({@link listenRefusal}) when the configuration's PORT on HOST cannot be listened on,
 * e.g. another process holds it; `npm start` calls it before it builds, migrates or seeds. PORT=0 is never taken.
 */
export async function refuseTakenPort() {
  const { PORT: port, HOST: host = "127.0.0.1" } = settings();
  if (port === 0) return;
  const error = await new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", resolve);
    probe.listen(port, host, () => probe.close(() => resolve(null)));
  });
  if (error) {
    console.error(listenRefusal(error, host, port));
    process.exit(1);
  }
}

/** The service's address for `hostname` and `port`: `http://host:port`, an IPv6 address in brackets. */
function listeningUrl(hostname, port) {
  return `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
}

/** Message types of a worker's request for every worker's metrics, and of the primary's answer. */
const METRICS_ASK = "sandpiper:metrics-ask";
const METRICS_ANSWER = "sandpiper:metrics-answer";

/**
 * The Prometheus text of this service: in a cluster worker, every worker's metrics aggregated by the primary (asked
 * over the cluster's IPC channel, prom-client's AggregatorRegistry there; 5 s at most); otherwise this process's.
 * @returns `{ contentType, text }`
 */
async function metricsText() {
  const { default: client } = await import("prom-client");
  const contentType = client.register.contentType;
  if (!cluster.isWorker) return { contentType, text: await client.register.metrics() };
  const id = randomUUID();
  const text = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error("the primary process did not answer within 5 s")), 5_000);
    const onMessage = (message) => {
      if (message?.type === METRICS_ANSWER && message.id === id) finish(message.error ? new Error(message.error) : null, message.text);
    };
    function finish(error, value) {
      clearTimeout(timer);
      process.off("message", onMessage);
      if (error) reject(error);
      else resolve(value);
    }
    process.on("message", onMessage);
    process.send({ type: METRICS_ASK, id });
  });
  return { contentType, text };
}

/**
 * Answers `GET /metrics` (docs/operating.md "Metrics") when METRICS_TOKEN is set: 200 with the Prometheus text of
 * every worker ({@link metricsText}) to `Authorization: Bearer <METRICS_TOKEN>`, 401 INVALID_API_KEY in the error
 * envelope otherwise, 503 SERVICE_UNAVAILABLE when the aggregation fails. Never cached, never in the request log.
 */
async function answerMetrics(req, res, token) {
  const requestId = randomUUID();
  const fail = (status, code, message) => {
    res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Request-Id": requestId });
    res.end(JSON.stringify({ error: { code, message, requestId } }));
  };
  const given = Buffer.from(req.headers.authorization ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return fail(401, "INVALID_API_KEY", "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>");
  }
  try {
    const { contentType, text } = await metricsText();
    res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" });
    res.end(text);
  } catch (error) {
    fail(503, "SERVICE_UNAVAILABLE", `metrics could not be collected (${error.message}); retry`);
  }
}

/**
 * During a drain, a connection with no request under way is closed once it has been idle this long since its last
 * answer, in milliseconds; one that has not carried a request yet, once it has been open DRAIN_FRESH_MS (a client
 * that just connected, on a loaded machine, may not have sent its first request yet).
 */
const DRAIN_IDLE_MS = 1_000;
const DRAIN_FRESH_MS = 5_000;

/**
 * Starts the service. Options: port (default the configuration's PORT, 3000), hostname (HOST, 127.0.0.1), dev.
 * Returns { server, url, close(signal) }; close() drains (docs/operating.md "Stopping"): /readyz answers 503 at once
 * (`__sandpiperShuttingDown`) and the service keeps serving, kept-alive connections included, for SHUTDOWN_DELAY_MS
 * (default 0); then it stops accepting connections and every answer carries `Connection: close` (its connection
 * closes once it is sent), requests under way finish for at most SHUTDOWN_DRAIN_MS (default 10 s; event streams end
 * within a poll interval with a `bye` event, the reconnect hint), and a connection with no request under way is
 * closed once it has been idle DRAIN_IDLE_MS, or DRAIN_FRESH_MS before its first request (a client reusing it a
 * moment after its last answer, or sending its first request late, gets an answer, not a reset); it waits for the job runs under way (they claim no new rows), then closes what is left and resolves. One
 * line when the stop begins and one when it ends (requests drained, how long, connections closed or cut).
 * Exits with one line on a refused configuration ({@link settings}), an unsafe one ({@link refuseUnsafeStart}) or a
 * port it cannot listen on ({@link listenRefusal}).
 */
export async function startServer({ port, hostname, dev = false } = {}) {
  refuseUnsafeStart();
  const env = settings();
  port ??= env.PORT;
  hostname ??= env.HOST ?? "127.0.0.1";
  await ensureAuthSecret();
  setChecked("PORT", String(port), port);
  const url = listeningUrl(hostname, port);
  // next-auth's own base URL; behind a TLS proxy set NEXTAUTH_URL=https://... (that also makes cookies Secure).
  if (!env.NEXTAUTH_URL) setChecked("NEXTAUTH_URL", url, url);
  const app = next({ dev, dir: root, hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  // docs/architecture.md "Hot paths": creates, reads by id and list pages of payments skip Next.js' request handling.
  const direct = await directRoutes(root, dev);
  let inFlight = 0;
  let answering = 0;
  // This process's state, shared with the service's modules (lib/platform/process-state.ts: the one list of what it holds).
  const processState = (globalThis.__sandpiper ??= {});
  processState.requestsInFlight = () => answering;
  let draining = false;
  let stopping = false;
  let drained = 0;
  /** Open connections: socket -> requests under way on it, when its last one ended (ms, Date.now()), whether it carried one. */
  const connections = new Map();
  const trusted = trustedProxies(env.TRUSTED_PROXIES);
  const https = [env.PUBLIC_BASE_URL, env.NEXTAUTH_URL].some((u) => typeof u === "string" && u.startsWith("https://"));
  const { decode } = await import("next-auth/jwt");
  // Time-outs checked every second, so a slow client is cut within a second of its time-out (Node.js checks every 30 s by default).
  const serverOptions = { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1_000 };
  const server = http.createServer(serverOptions, (req, res) => {
    secureAnswers(res, https);
    // Only the socket tells the source address; client-sent values of the internal headers are overwritten.
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "";
    req.headers[TARGET_HEADER] = req.url ?? "";
    if (req.headers["x-forwarded-for"] === undefined) delete req.headers[FORWARDED_HEADER];
    else req.headers[FORWARDED_HEADER] = req.headers["x-forwarded-for"];
    inFlight++;
    // Event streams stay open for hours: they do not count as load that background batches yield to (lib/platform/background.ts).
    const counted = !String(req.headers.accept ?? "").includes("text/event-stream");
    if (counted) answering++;
    const connection = connections.get(req.socket);
    if (connection) {
      connection.active++;
      connection.used = true;
    }
    res.on("close", () => {
      inFlight--;
      if (counted) answering--;
      if (stopping) drained++;
      if (connection) {
        connection.active--;
        connection.idleSince = Date.now();
      }
    });
    closeIfBodyUnread(req, res, () => draining);
    if (env.METRICS_TOKEN && req.method === "GET" && (req.url === "/metrics" || req.url?.startsWith("/metrics?")))
      return void answerMetrics(req, res, env.METRICS_TOKEN);
    dropUntrustedForwardedHost(req, trusted);
    if (malformedPath(req.url)) return answerMalformedPath(req, res);
    const page = pagePost(req);
    if (page) {
      const secret = settings().NEXTAUTH_SECRET;
      return void refusePagePost(req, res, page, secret, decode).then(
        (refused) => refused || handle(req, res),
        (error) => {
          frontLog("warn", { err: error instanceof Error ? error.message : String(error) }, "page POST could not be checked; answered 503");
          refuse(req, res, { status: 503, code: "SERVICE_UNAVAILABLE", message: "this form could not be checked; send it again in a moment", headers: {} });
        },
      );
    }
    const refusal = earlyRefusal(req);
    if (refusal) return void afterBody(req, () => answerRefusal(res, refusal));
    if (direct(req, res)) return;
    handle(req, res);
  });
  server.on("clientError", answerClientError);
  server.on("connection", (socket) => {
    connections.set(socket, { active: 0, idleSince: Date.now(), used: false });
    socket.once("close", () => connections.delete(socket));
  });
  server.keepAliveTimeout = 65_000;
  await new Promise((resolve) => {
    server.once("error", (error) => {
      console.error(listenRefusal(error, hostname, port));
      process.exit(1);
    });
    server.listen(port, hostname, resolve);
  });

  async function close(signal = "SIGTERM") {
    const startedAt = Date.now();
    stopping = true;
    processState.shuttingDown = true;
    const who = cluster.isWorker ? `Sandpiper worker ${process.pid}` : "Sandpiper";
    console.log(
      `${who} stopping (${signal}): /readyz answers 503; ${inFlight} requests under way on ${connections.size} connections; ` +
        `serving ${env.SHUTDOWN_DELAY_MS} ms more (SHUTDOWN_DELAY_MS), then draining for at most ${env.SHUTDOWN_DRAIN_MS} ms (SHUTDOWN_DRAIN_MS)`,
    );
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    if (env.SHUTDOWN_DELAY_MS > 0) await sleep(env.SHUTDOWN_DELAY_MS);
    const deadline = Date.now() + env.SHUTDOWN_DRAIN_MS;
    // Stop accepting, without http.Server#close's closing of every idle connection: a client may be sending its next
    // request on one right now, and would get a reset. From now on each answer closes its connection instead. It
    // closes just after a turn of the event loop accepted the connections waiting in the kernel's queue: one still
    // queued when the listener closes is reset, and under load the queue fills while requests are being answered.
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    draining = true;
    net.Server.prototype.close.call(server);
    let idleClosed = 0;
    while ((inFlight > 0 || connections.size > 0) && Date.now() < deadline) {
      for (const [socket, connection] of connections) {
        if (connection.active === 0 && Date.now() - connection.idleSince >= (connection.used ? DRAIN_IDLE_MS : DRAIN_FRESH_MS)) {
          socket.destroy();
          connections.delete(socket);
          idleClosed++;
        }
      }
      await sleep(50);
    }
    const jobsIdle = processState.jobsIdle?.() ?? Promise.resolve();
    await Promise.race([jobsIdle, sleep(Math.max(0, deadline - Date.now()))]);
    const cut = inFlight;
    server.closeAllConnections();
    console.log(
      `${who} stopped: ${drained} requests answered since ${signal}, in ${Date.now() - startedAt} ms; ${idleClosed} idle connections closed, ` +
        `${cut} requests cut at SHUTDOWN_DRAIN_MS`,
    );
    await processState.tracing?.shutdown(); // the spans not exported yet (lib/platform/tracing/tracing.ts)
  }
  return { server, url, close };
}

/**
 * How many server processes to run (docs/guides/operate-sandpiper.md "Running more than one process"): SANDPIPER_WORKERS from the
 * configuration ({@link settings}: a whole number from 1 to 64 or "auto", one per available core; default 1). The
 * embedded database serves one connection, so it runs with 1. Exits with one line that says what to set for any other
 * value: the configuration's refusal, or "auto" on a machine of more than 64 cores, or more than 1 with the embedded
 * database.
 */
export function workerCount(env = process.env) {
  const { SANDPIPER_WORKERS: workers, SANDPIPER_EMBEDDED: embedded } = settings(env);
  const count = workers === "auto" ? os.availableParallelism() : workers;
  if (count > 64) {
    console.error(`Sandpiper refuses to start: SANDPIPER_WORKERS: got "auto" (${count} cores); expected ${checkedSettings(env).accepts.SANDPIPER_WORKERS}`);
    process.exit(1);
  }
  if (count > 1 && embedded) {
    console.error(
      "Sandpiper refuses to start: SANDPIPER_WORKERS above 1 needs PostgreSQL (the embedded database serves one connection). Set DATABASE_URL, or unset SANDPIPER_WORKERS.",
    );
    process.exit(1);
  }
  return count;
}

/**
 * Serves with `workerCount()` processes on one port: in this process when it is 1 (returns startServer's
 * `{ url, close }`), else through node:cluster, each worker running this file's startServer and the
 * connections shared among them; `close()` then stops every worker (each drains its requests). A worker that
 * dies is replaced. Logs one line with the worker count and where rate limits are counted.
 */
export async function serve() {
  const workers = workerCount();
  const env = settings();
  const url = listeningUrl(env.HOST ?? "127.0.0.1", env.PORT);
  const store = env.REDIS_URL ? "redis" : env.RATE_LIMIT_STORE === "postgres" || workers > 1 ? "postgres" : "this process's memory";
  if (workers === 1) {
    const started = await startServer();
    console.log(`Sandpiper: 1 worker on ${started.url} (SANDPIPER_WORKERS=N for more); rate limits counted in ${store}`);
    return started;
  }
  await ensureAuthSecret(); // one secret for every worker
  if (env.METRICS_TOKEN) {
    // Every worker's metrics in one scrape: a worker asks, the primary aggregates (prom-client's AggregatorRegistry).
    const { default: client } = await import("prom-client");
    const aggregator = new client.AggregatorRegistry();
    cluster.on("message", (worker, message) => {
      if (message?.type !== METRICS_ASK) return;
      aggregator.clusterMetrics().then(
        (text) => worker.send({ type: METRICS_ANSWER, id: message.id, text }),
        (error) => worker.send({ type: METRICS_ANSWER, id: message.id, error: error.message }),
      );
    });
  }
  cluster.setupPrimary({ exec: fileURLToPath(import.meta.url), args: [] });
  let stopping = false;
  const fork = () => cluster.fork({ SANDPIPER_CLUSTER_WORKER: "1", SANDPIPER_WORKERS: String(workers) });
  const ready = new Promise((resolve) => {
    let listening = 0;
    cluster.on("listening", () => ++listening === workers && resolve(undefined));
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    console.error(`Sandpiper worker ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another`);
    fork();
  });
  for (let i = 0; i < workers; i++) fork();
  await ready;
  console.log(`Sandpiper: ${workers} workers on ${url} (SANDPIPER_WORKERS); rate limits counted in ${store}`);
  return {
    url,
    async close() {
      stopping = true;
      const alive = Object.values(cluster.workers ?? {}).filter(Boolean);
      await Promise.all(alive.map((w) => new Promise((resolve) => (w.once("exit", resolve), w.process.kill("SIGTERM")))));
    },
  };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  if (!cluster.isWorker) await refuseTakenPort();
  // A worker answers the primary's requests for its metrics (prom-client adds that listener with an AggregatorRegistry).
  if (cluster.isWorker && settings().METRICS_TOKEN) new (await import("prom-client")).default.AggregatorRegistry();
  const { url, close } = cluster.isWorker ? await startServer() : await serve();
  if (cluster.isWorker) console.log(`Sandpiper worker ${process.pid} listening on ${url}`);
  else console.log(`Sandpiper listening on ${url}`);
  // A second signal while stopping (Ctrl-C reaches every worker and the primary signals them too; a supervisor that
  // signals the whole process group) changes nothing: the drain under way goes on to its end.
  let stopped;
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.on(signal, () => {
      stopped ??= close(signal).then(() => process.exit(0));
    });
  }
}
