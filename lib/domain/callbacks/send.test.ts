import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import tls from "node:tls";
import { afterEach, beforeAll, afterAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, sendCallbackRequest } from "./send";
import { present } from "../../../scripts/harness/present";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const servers: http.Server[] = [];

async function listen(server: http.Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A real HTTP server on 127.0.0.1; records every request it receives. */
async function startServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      handler(req, res);
    });
  });
  server.on("clientError", () => {});
  const port = await listen(server);
  return { port, seen, server };
}

// A host name that never resolves: reaching the server proves the pinned address was used.
const pinnedUrl = (port: number, pathname = "/hook") => new URL(`http://callback.invalid:${port}${pathname}`);
const body = JSON.stringify({ id: "6a7d1c52-5b0e-4f0c-9b43-1c1f9a0c2d11", type: "payment.succeeded" });
const headers = { "Content-Type": "application/json", "X-Service-Event-Id": "6a7d1c52-5b0e-4f0c-9b43-1c1f9a0c2d11" };

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

describe("sendCallbackRequest", () => {
  it("posts the exact body to the pinned address and reports 200 as ok", async () => {
    const { port, seen } = await startServer((_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end('{"received":true}'));
    const result = await sendCallbackRequest({ url: pinnedUrl(port, "/hook?a=1"), address: "127.0.0.1", family: 4, headers, body });
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null, responseSnippet: '{"received":true}', redirected: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(seen).toHaveLength(1);
    expect(present(seen?.[0], "seen?.[0]").method).toBe("POST");
    expect(present(seen?.[0], "seen?.[0]").url).toBe("/hook?a=1");
    expect(present(seen?.[0], "seen?.[0]").body.toString("utf8")).toBe(body);
    expect(present(seen?.[0], "seen?.[0]").headers.host).toBe(`callback.invalid:${port}`);
    expect(present(seen?.[0], "seen?.[0]").headers["content-type"]).toBe("application/json");
    expect(present(seen?.[0], "seen?.[0]").headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(present(seen?.[0], "seen?.[0]").headers["x-service-event-id"]).toBe(headers["X-Service-Event-Id"]);
  });

  it("sends Buffer bodies byte for byte", async () => {
    const { port, seen } = await startServer((_req, res) => res.writeHead(204).end());
    const bytes = Buffer.from('{"note":"caf\u00e9"}', "utf8");
    const result = await sendCallbackRequest({ url: pinnedUrl(port), address: "127.0.0.1", family: 4, headers, body: bytes });
    expect(result.ok).toBe(true);
    expect(result.statusCode).toBe(204);
    expect(present(seen?.[0], "seen?.[0]").body.equals(bytes)).toBe(true);
  });

  it("reports 500 as not ok with the status", async () => {
    const { port } = await startServer((_req, res) => res.writeHead(500).end("boom"));
    const result = await sendCallbackRequest({ url: pinnedUrl(port), address: "127.0.0.1", family: 4, headers, body });
    expect(result).toMatchObject({ ok: false, statusCode: 500, error: "HTTP 500", responseSnippet: "boom", redirected: false });
  });

  it("does not follow a 301 and never requests its target", async () => {
    const target = await startServer((_req, res) => res.writeHead(200).end("target"));
    const origin = await startServer((_req, res) => res.writeHead(301, { Location: `http://127.0.0.1:${target.port}/stolen` }).end());
    const sameServer = await startServer((req, res) => (req.url === "/hook" ? res.writeHead(301, { Location: "/moved" }).end() : res.writeHead(200).end()));
    const result = await sendCallbackRequest({ url: pinnedUrl(origin.port), address: "127.0.0.1", family: 4, headers, body });
    expect(result).toMatchObject({ ok: false, statusCode: 301, error: "redirect not followed", redirected: true });
    const relative = await sendCallbackRequest({ url: pinnedUrl(sameServer.port), address: "127.0.0.1", family: 4, headers, body });
    expect(relative).toMatchObject({ ok: false, statusCode: 301, redirected: true });
    // waits on purpose: a followed redirect would reach the local server within it
    await new Promise((r) => setTimeout(r, 100));
    expect(origin.seen).toHaveLength(1);
    expect(target.seen).toHaveLength(0);
    expect(sameServer.seen.map((s) => s.url)).toEqual(["/hook"]);
  });

  it("times out a server that waits 6 s", async () => {
    const { port } = await startServer((_req, res) => {
      setTimeout(() => res.writeHead(200).end(), 6000).unref();
    });
    const result = await sendCallbackRequest({ url: pinnedUrl(port), address: "127.0.0.1", family: 4, headers, body, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: "timeout after 300 ms", redirected: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(1500);
  });

  it("times out a 2xx whose body never finishes", async () => {
    const { port } = await startServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.write("partial");
    });
    const result = await sendCallbackRequest({ url: pinnedUrl(port), address: "127.0.0.1", family: 4, headers, body, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, statusCode: 200, error: "timeout after 300 ms", responseSnippet: "partial" });
  });

  it("uses a 5000 ms timeout and 64 KiB response limit by default", async () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(5000);
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(65536);
    const { port } = await startServer((_req, res) => res.writeHead(200).end());
    const spy = vi.spyOn(globalThis, "setTimeout");
    const result = await sendCallbackRequest({ url: pinnedUrl(port), address: "127.0.0.1", family: 4, headers, body });
    expect(result.ok).toBe(true);
    expect(spy.mock.calls.some((call) => call[1] === 5000)).toBe(true);
  });

  it("reads a 1 MiB response only up to the limit", async () => {
    const { port } = await startServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/plain", "Content-Length": String(1024 * 1024) });
      res.end(Buffer.alloc(1024 * 1024, "a"));
    });
    const before = process.memoryUsage().heapUsed;
    const result = await sendCallbackRequest({ url: pinnedUrl(port), address: "127.0.0.1", family: 4, headers, body });
    const grown = process.memoryUsage().heapUsed - before;
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(result.responseSnippet.length).toBeLessThanOrEqual(1024);
    expect(result.responseSnippet).toBe("a".repeat(1024));
    expect(grown).toBeLessThan(32 * 1024 * 1024);
  });

  it("stops reading an endless response after maxResponseBytes and closes the connection", async () => {
    let serverSawClose = false;
    const chunk = Buffer.alloc(16 * 1024, "z");
    const { port } = await startServer((req, res) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {
          /* keep writing until backpressure */
        }
        if (!res.destroyed) res.once("drain", pump);
      };
      res.on("close", () => {
        serverSawClose = true;
      });
      res.on("error", () => {});
      pump();
      void req;
    });
    const result = await sendCallbackRequest({ url: pinnedUrl(port), address: "127.0.0.1", family: 4, headers, body, timeoutMs: 3000 });
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(result.responseSnippet).toBe("z".repeat(1024));
    expect(result.durationMs).toBeLessThan(2000);
    await vi.waitFor(() => expect(serverSawClose).toBe(true), { timeout: 2000 });
  });

  it("turns connection refused into an error string", async () => {
    const probe = http.createServer();
    const port = await new Promise<number>((resolve) => probe.listen(0, "127.0.0.1", () => resolve((probe.address() as AddressInfo).port)));
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const result = await sendCallbackRequest({ url: pinnedUrl(port), address: "127.0.0.1", family: 4, headers, body });
    expect(result.ok).toBe(false);
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it("never throws and never logs, even for invalid header values", async () => {
    const logs = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m));
    const result = await sendCallbackRequest({
      url: pinnedUrl(9),
      address: "127.0.0.1",
      family: 4,
      headers: { "X-Bad": "a\r\nInjected: 1" },
      body,
    });
    expect(result.ok).toBe(false);
    expect(typeof result.error).toBe("string");
    for (const spy of logs) expect(spy).not.toHaveBeenCalled();
  });
});

// TLS: the pinned connection must still send SNI for the host name and verify the certificate.
let certDir: string | null = null;
let cert: { key: Buffer; cert: Buffer } | null = null;
beforeAll(() => {
  // openssl is part of every Debian machine this project runs on; without it this test fails, never skips.
  {
    certDir = mkdtempSync(path.join(tmpdir(), "sandpiper-send-test-"));
    const key = path.join(certDir, "key.pem");
    const crt = path.join(certDir, "cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key,
        "-out",
        crt,
        "-days",
        "1",
        "-subj",
        "/CN=callback.invalid",
        "-addext",
        "subjectAltName=DNS:callback.invalid",
      ],
      { stdio: "ignore" },
    );
    cert = { key: readFileSync(key), cert: readFileSync(crt) };
  }
});
afterAll(() => {
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

describe("sendCallbackRequest over https", () => {
  it("sends SNI for the host name and rejects an untrusted certificate", async () => {
    const sniSeen: string[] = [];
    let requests = 0;
    const context = tls.createSecureContext(cert!);
    const server = https.createServer(
      {
        ...cert!,
        SNICallback: (name, cb) => {
          sniSeen.push(name);
          cb(null, context);
        },
      },
      (_req, res) => {
        requests += 1;
        res.writeHead(200).end();
      },
    );
    server.on("tlsClientError", () => {});
    const port = await listen(server);
    const result = await sendCallbackRequest({
      url: new URL(`https://callback.invalid:${port}/hook`),
      address: "127.0.0.1",
      family: 4,
      headers,
      body,
    });
    expect(result.ok).toBe(false);
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/self[- ]signed|certificate/i);
    expect(sniSeen).toEqual(["callback.invalid"]);
    expect(requests).toBe(0);
  });
});
