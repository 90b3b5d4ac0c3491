// Sandpiper HTTP server: Next.js behind node:http, so the source IP comes from the socket
// (docs/architecture.md "Request pipeline") and SIGTERM drains in-flight requests.
import { spawnSync } from "node:child_process";
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";
import next from "next";

const root = path.dirname(fileURLToPath(import.meta.url));
const PEER_HEADER = "x-sandpiper-peer";
// The request target as it arrived (lib/http/json.ts requestQuery): Next.js rebuilds request.url from a parsed
// query object and loses a parameter named "__proto__", which must reach validation as an unknown name.
const TARGET_HEADER = "x-sandpiper-target";
// X-Forwarded-For as the client sent it (lib/auth/ip.ts sourceIp): Next.js fills X-Forwarded-For with the socket
// address when a request has none, so only this copy tells whether a proxy forwarded the request.
const FORWARDED_HEADER = "x-sandpiper-forwarded-for";
/** The variables of the one configuration (lib/config.ts, README "Environment") that this file uses. */
const SETTINGS = [
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
];
/** Checked configurations by the values of SETTINGS they were checked with (the start sets some of them as it goes). */
const checked = new Map();

/**
 * The configuration as `env` holds it now, checked by lib/config.ts in a child process (scripts/check-config.mjs:
 * TypeScript through tsx, which this serving process does not load). Checked again only when one of SETTINGS has
 * changed since (the start sets NEXTAUTH_SECRET from the data folder and the embedded database's variables). A
 * refused variable ends the process with exit code 1 after one line per variable on stderr (`Sandpiper refuses to
 * start: NAME: got "value"; expected ...`, a secret's value never printed).
 * @returns `{ values, accepts }`: the typed values of SETTINGS (PORT a number, HOST a string or undefined,
 *   SANDPIPER_WORKERS a number or "auto", the flags booleans, ...) and what each accepts
 */
function checkedSettings(env) {
  const key = JSON.stringify(SETTINGS.map((name) => env[name] ?? null));
  let result = checked.get(key);
  if (!result) {
    const child = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts", "check-config.mjs"), ...SETTINGS], {
      cwd: root,
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    // A refusal has printed its lines; a check that could not run at all says so here.
    if (child.status === null) console.error(`Sandpiper could not check its configuration: ${child.error?.message ?? `ended by ${child.signal}`}`);
    if (child.status !== 0) process.exit(child.status ?? 1);
    result = JSON.parse(child.stdout);
    checked.set(key, result);
  }
  return result;
}

/**
 * The configuration's values of the variables this file uses, as `env` holds them now (see checkedSettings).
 * @returns PORT a number, HOST a string or undefined, SANDPIPER_WORKERS a number or "auto", SANDPIPER_EMBEDDED and
 *   CALLBACK_ALLOW_LOOPBACK booleans, the rest strings or undefined
 */
export function settings(env = process.env) {
  return checkedSettings(env).values;
}

/**
 * Exits with a clear message when the environment is unsafe to serve: CALLBACK_ALLOW_LOOPBACK=1 with
 * NODE_ENV=production (docs/callbacks.md: loopback receivers are for tests and local development only).
 * The same rule is lib/callbacks/callback-config.ts `loopbackAllowanceRefusal`, checked again by
 * instrumentation.ts for `next start`.
 */
export function refuseUnsafeStart(env = process.env) {
  if (settings(env).CALLBACK_ALLOW_LOOPBACK && env.NODE_ENV === "production") {
    console.error(
      "Sandpiper refuses to start: CALLBACK_ALLOW_LOOPBACK=1 is not allowed when NODE_ENV=production " +
        "(loopback callback receivers are for tests and local development only). For local work run `npm run start:local`; " +
        "to deliver to a receiver on a developer's machine, keep this service as it is and run `sandpiper listen --forward-to <local address>` " +
        'there (README "The sandpiper command"). Otherwise unset CALLBACK_ALLOW_LOOPBACK.',
    );
    process.exit(1);
  }
}

/** The embedded install's data folder: `SANDPIPER_DATA_DIR`, default `<repo>/.data` (git-ignored). Exits on a refused configuration ({@link settings}). */
export function dataDirectory() {
  const dir = settings().SANDPIPER_DATA_DIR;
  return dir ? path.resolve(dir) : path.join(root, ".data");
}

/**
 * Console sessions need NEXTAUTH_SECRET (it signs and encrypts the session cookie). When the environment does
 * not set one, it is read from `<dataDir>/nextauth-secret`, which is created on first start with 32 random bytes
 * (mode 0600; .data is never committed). Sessions therefore survive restarts of an embedded install.
 */
export function ensureAuthSecret(dataDir = dataDirectory()) {
  if (settings().NEXTAUTH_SECRET) return;
  const file = path.join(dataDir, "nextauth-secret");
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
  }
  process.env.NEXTAUTH_SECRET = fs.readFileSync(file, "utf8").trim();
}

/**
 * A response written before the request body was read to its end (413 past 32 KiB, 415, 401 before the
 * body) announces `Connection: close`, and the rest of the body is drained and discarded: otherwise the
 * unread bytes stay on a kept-alive connection and the client's next request on it is taken as body, and
 * never answered. `res`/`req`: the node:http pair of one request.
 */
export function closeIfBodyUnread(req, res) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    if (!req.complete) this.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  };
  res.once("finish", () => {
    if (!req.complete && !req.destroyed) req.resume();
  });
}

/** The service's address for `hostname` and `port`: `http://host:port`, an IPv6 address in brackets. */
function listeningUrl(hostname, port) {
  return `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
}

/**
 * Starts the service. Options: port (default the configuration's PORT, 3000), hostname (HOST, 127.0.0.1), dev.
 * Returns { server, url, close() }; close() stops accepting, waits for in-flight requests (at most
 * `drainMs`) and resolves. Exits on a refused configuration ({@link settings}) or an unsafe one ({@link refuseUnsafeStart}).
 */
export async function startServer({ port, hostname, dev = false, drainMs = 10_000 } = {}) {
  refuseUnsafeStart();
  const env = settings();
  port ??= env.PORT;
  hostname ??= env.HOST ?? "127.0.0.1";
  ensureAuthSecret();
  process.env.PORT = String(port);
  const url = listeningUrl(hostname, port);
  // next-auth's own base URL; behind a TLS proxy set NEXTAUTH_URL=https://... (that also makes cookies Secure).
  if (!env.NEXTAUTH_URL) process.env.NEXTAUTH_URL = url;
  const app = next({ dev, dir: root, hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    // Only the socket tells the source address; client-sent values of the internal headers are overwritten.
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "";
    req.headers[TARGET_HEADER] = req.url ?? "";
    if (req.headers["x-forwarded-for"] === undefined) delete req.headers[FORWARDED_HEADER];
    else req.headers[FORWARDED_HEADER] = req.headers["x-forwarded-for"];
    inFlight++;
    res.on("close", () => inFlight--);
    closeIfBodyUnread(req, res);
    handle(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 30_000;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, resolve);
  });

  async function close() {
    globalThis.__sandpiperShuttingDown = true;
    await new Promise((resolve) => {
      server.close(() => resolve(undefined));
      server.closeIdleConnections();
      const deadline = Date.now() + drainMs;
      const timer = setInterval(() => {
        server.closeIdleConnections();
        if (inFlight === 0 || Date.now() > deadline) {
          clearInterval(timer);
          server.closeAllConnections();
          resolve(undefined);
        }
      }, 50);
    });
  }
  return { server, url, close };
}

/**
 * How many server processes to run (README "Running more than one process"): SANDPIPER_WORKERS from the
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
  ensureAuthSecret(); // one secret for every worker
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
  const { url, close } = cluster.isWorker ? await startServer() : await serve();
  if (cluster.isWorker) console.log(`Sandpiper worker ${process.pid} listening on ${url}`);
  else console.log(`Sandpiper listening on ${url}`);
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.once(signal, async () => {
      await close();
      process.exit(0);
    });
  }
}
