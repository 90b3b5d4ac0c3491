// The hot /v1 requests answered by their Next.js route handlers without Next.js' request handling
// (docs/architecture.md "Hot paths"; docs/decisions/0192-hot-routes-without-nextjs-request-handling.md). Plain JavaScript:
// server.mjs imports it.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { gzip } from "node:zlib";
import { promisify } from "node:util";
import { STATIC_HEADERS } from "./static-headers.mjs";

const gzipAsync = promisify(gzip);

/** The request bodies read here before the handler runs (bytes): the API's limit (lib/application/http/body.ts MAX_BODY_BYTES). */
const BODY_MAX = 32 * 1024;
/** Answers from this size on are gzipped for a client that accepts it, as Next.js' compression does (bytes). */
const COMPRESS_FROM = 1024;
/** This process's state (lib/platform/process-state.ts), shared with the service's modules. */
const state = (globalThis.__sandpiper ??= {});
const UUID_SEGMENT = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * The routes served here: method, the compiled route module (under .next/server/app) and how a path maps to its
 * params (null: not this route). Everything else, and any of these with a body of unknown or excessive length, goes
 * to Next.js as before.
 */
const ROUTES = [
  { method: "POST", module: "v1/payments/route.js", params: (p) => (p === "/v1/payments" ? {} : null) },
  { method: "GET", module: "v1/payments/route.js", params: (p) => (p === "/v1/payments" ? {} : null) },
  {
    method: "GET",
    module: "v1/payments/[id]/route.js",
    params: (p) => {
      const id = p.startsWith("/v1/payments/") ? p.slice("/v1/payments/".length) : "";
      return UUID_SEGMENT.test(id) ? { id } : null;
    },
  },
];

/**
 * Loads the route handlers of {@link ROUTES} from the production build in `root` (after Next.js' `app.prepare()`, so
 * the instrumentation hook has run) and returns the dispatcher server.mjs calls for every request: it answers a
 * request of those routes itself (true) or leaves it to Next.js (false, nothing read). Without a production build
 * (`next dev`) it answers nothing.
 * @returns `(req, res) => boolean`
 */
export async function directRoutes(root, dev) {
  const dir = path.join(root, ".next", "server", "app");
  if (dev || !fs.existsSync(path.join(dir, ROUTES[0].module))) return () => false;
  const require = createRequire(path.join(root, "server.mjs"));
  const loaded = [];
  for (const route of ROUTES) {
    const { routeModule } = require(path.join(dir, route.module));
    await routeModule.ensureUserland();
    const handler = routeModule.userland[route.method];
    if (typeof handler !== "function") throw new Error(`${route.module} has no ${route.method} handler`);
    loaded.push({ ...route, handler });
  }
  return (req, res) => {
    // Until instrumentation.ts has run its start-up (seeded FX rates, job driver), Next.js answers: it awaits that start-up.
    if (!state.startedUp) return false;
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const pathname = q < 0 ? url : url.slice(0, q);
    for (const route of loaded) {
      if (route.method !== req.method) continue;
      const params = route.params(pathname);
      if (params === null) continue;
      if (req.method === "POST" && !hasSmallBody(req)) return false;
      void answer(route.handler, params, req, res);
      return true;
    }
    return false;
  };
}

/** A POST whose body length is declared and within {@link BODY_MAX} (a chunked or larger one goes to Next.js, whose pipeline answers 413). */
function hasSmallBody(req) {
  const length = req.headers["content-length"];
  return length !== undefined && /^\d+$/.test(length) && Number(length) <= BODY_MAX && req.headers["transfer-encoding"] === undefined;
}

/** Reads the request's body (its declared length, at most {@link BODY_MAX}), runs the route handler on a Web Request and writes its Response. */
async function answer(handler, params, req, res) {
  const aborted = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  let body;
  let broken = null;
  try {
    body = req.method === "POST" ? await readBody(req) : undefined;
  } catch (error) {
    // The client broke its own body off (docs/operating.md "The HTTP front"): the handler gets a body that fails as it
    // is read, so its pipeline answers 400 and counts it under 400, as through Next.js.
    broken = error instanceof Error ? error : new Error(String(error));
  }
  try {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    // server.mjs set its internal headers on req.headers (the peer, the target, the forwarded-for copy): those values count.
    for (const name of ["x-sandpiper-peer", "x-sandpiper-target", "x-sandpiper-forwarded-for"]) {
      if (req.headers[name] === undefined) headers.delete(name);
      else headers.set(name, req.headers[name]);
    }
    const host = req.headers.host ?? "localhost";
    // The body is handed to the pipeline as read (lib/application/http/body.ts), not as a stream to read again.
    const failing = broken && new ReadableStream({ start: (controller) => controller.error(broken) });
    const request = new Request(`http://${host}${req.url}`, {
      method: req.method,
      headers,
      signal: aborted.signal,
      ...(failing ? { body: failing, duplex: "half" } : {}),
    });
    if (body) (state.requestBodies ??= new WeakMap()).set(request, body);
    const response = await handler(request, { params: Promise.resolve(params) });
    await writeResponse(req, res, response);
  } catch (error) {
    // The pipeline answers every error itself; this is a failure outside it (an unreadable request body, a closed socket).
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(500, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
      res.end(JSON.stringify({ error: { code: "INTERNAL_ERROR", message: "the request could not be answered" } }));
    } else res.destroy();
    console.error(`direct route ${req.method} ${req.url?.split("?")[0]}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The request body, read to its end. */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > BODY_MAX) req.destroy(new Error("request body longer than its Content-Length"));
      else chunks.push(chunk);
    });
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
    req.once("close", () => {
      if (!req.complete) reject(new Error("the client went away before its request body ended"));
    });
  });
}

/**
 * Writes a handler's Response as Next.js would: its status and headers, the static headers of every path
 * (lib/application/http/static-headers.mjs), `Vary: Accept-Encoding`, and a body of 1 KiB or more gzipped when the client accepts
 * gzip; a body is sent with its Content-Length in one write.
 */
async function writeResponse(req, res, response) {
  const headers = { ...STATIC_HEADERS, Vary: "Accept-Encoding" };
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // The API's JSON answers leave their text beside the Response (lib/application/http/respond.ts); others are read.
  const text = state.responseTexts?.get(response);
  let body = text !== undefined ? Buffer.from(text, "utf8") : response.body ? Buffer.from(await response.arrayBuffer()) : null;
  if (body && body.length >= COMPRESS_FROM && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
    body = await gzipAsync(body);
    headers["Content-Encoding"] = "gzip";
  }
  if (body) headers["Content-Length"] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}
