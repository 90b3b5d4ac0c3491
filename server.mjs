// Sandpiper HTTP server: Next.js behind node:http, so the source IP comes from the socket
// (DESIGN "The request pipeline") and SIGTERM drains in-flight requests.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";

const root = path.dirname(fileURLToPath(import.meta.url));
const PEER_HEADER = "x-sandpiper-peer";
// The request target as it arrived (lib/http/json.ts requestQuery): Next.js rebuilds request.url from a parsed
// query object and loses a parameter named "__proto__", which must reach validation as an unknown name.
const TARGET_HEADER = "x-sandpiper-target";

/**
 * Exits with a clear message when the environment is unsafe to serve: CALLBACK_ALLOW_LOOPBACK=1 with
 * NODE_ENV=production (SPEC "Events": loopback receivers are for tests and local development only).
 * The same rule is lib/events/callback-config.ts `loopbackAllowanceRefusal`, checked again by
 * instrumentation.ts for `next start`.
 */
export function refuseUnsafeStart(env = process.env) {
  if (env.CALLBACK_ALLOW_LOOPBACK === "1" && env.NODE_ENV === "production") {
    console.error(
      "Sandpiper refuses to start: CALLBACK_ALLOW_LOOPBACK=1 is not allowed when NODE_ENV=production " +
        "(loopback callback receivers are for tests and local development only). Unset CALLBACK_ALLOW_LOOPBACK.",
    );
    process.exit(1);
  }
}

/** The embedded install's data folder: `SANDPIPER_DATA_DIR`, default `<repo>/.data` (git-ignored). */
export function dataDirectory() {
  return process.env.SANDPIPER_DATA_DIR ? path.resolve(process.env.SANDPIPER_DATA_DIR) : path.join(root, ".data");
}

/**
 * Console sessions need NEXTAUTH_SECRET (it signs and encrypts the session cookie). When the environment does
 * not set one, it is read from `<dataDir>/nextauth-secret`, which is created on first start with 32 random bytes
 * (mode 0600; .data is never committed). Sessions therefore survive restarts of an embedded install.
 */
export function ensureAuthSecret(dataDir = dataDirectory()) {
  if (process.env.NEXTAUTH_SECRET) return;
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

/**
 * Starts the service. Options: port (default PORT or 3000), hostname (HOST or 127.0.0.1), dev.
 * Returns { server, url, close() }; close() stops accepting, waits for in-flight requests (at most
 * `drainMs`) and resolves.
 */
export async function startServer({
  port = Number(process.env.PORT ?? 3000),
  hostname = process.env.HOST ?? "127.0.0.1",
  dev = false,
  drainMs = 10_000,
} = {}) {
  refuseUnsafeStart();
  ensureAuthSecret();
  process.env.PORT = String(port);
  const url = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
  // next-auth's own base URL; behind a TLS proxy set NEXTAUTH_URL=https://... (that also makes cookies Secure).
  process.env.NEXTAUTH_URL ??= url;
  const app = next({ dev, dir: root, hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    // Only the socket tells the source address; client-sent values of the internal headers are overwritten.
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "";
    req.headers[TARGET_HEADER] = req.url ?? "";
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

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const { url, close } = await startServer();
  console.log(`Sandpiper listening on ${url}`);
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.once(signal, async () => {
      await close();
      process.exit(0);
    });
  }
}
