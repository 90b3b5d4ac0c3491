import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueApiKey, SCOPES } from "@/lib/domain/keys/api-keys";
import { verifyCallback } from "@/clients/cli/src/verify";
import { Dedicated, type DedicatedMerchant } from "../support/dedicated";
import { startService, stopService } from "../support/global-setup";
import { listen, waitForLine } from "../support/listener";
import { startReceiver } from "../support/receiver";
import { TcpProxy } from "../support/tcp-proxy";
import { waitUntil } from "../../scripts/harness/wait";
import { assertPresent, present } from "../../scripts/harness/present";

// `sandpiper listen` against real processes (docs/callbacks.md "sandpiper listen"): the built service on a database
// of its own, the listener as a separate process (bin/sandpiper.mjs) reaching the service through a TCP proxy, and
// a receiver on loopback that verifies every request with the secret the listener printed. The run is stopped and
// restarted, the service restarts, the proxy cuts the listener's connection: no event may be missing.

const d = new Dedicated("listen");
let m: DedicatedMerchant;
let proxy: TcpProxy;
/** Extra keys of the merchant: the run sends about 420 requests, more than one key's 300 a minute. */
let keys: string[] = [];
const SERVICE_ENV = { CALLBACK_ALLOW_LOOPBACK: "1", DELIVERY_POLL_INTERVAL_MS: "200" };

beforeAll(async () => {
  await d.start(SERVICE_ENV);
  m = await d.merchant();
  const owner = await d.db.consoleUser.findFirstOrThrow({ where: { merchantId: m.merchant.id } });
  keys = await Promise.all([1, 2, 3].map(async () => (await issueApiKey(d.db, { merchantId: m.merchant.id, ownerId: owner.id, scopes: SCOPES })).key));
  proxy = await TcpProxy.start({ host: "127.0.0.1", port: Number(new URL(d.service.url).port) });
}, 180_000);
afterAll(async () => {
  await proxy?.close();
  await d.stop();
});

let sent = 0;
/** POST as the merchant, spreading requests over its keys and source addresses (the per-key and per-IP limits). */
async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const n = sent++;
  const res = await fetch(d.service.url + path, {
    method: "POST",
    headers: {
      authorization: `Bearer ${keys[n % keys.length]}`,
      "x-forwarded-for": `203.0.113.${n % 3}`,
      "content-type": "application/json",
      "idempotency-key": `listen-${crypto.randomUUID()}`,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Creates and concludes `n` payments (every third FAILED), 8 at a time; returns their ids. */
async function payments(n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  const one = async (i: number) => {
    const created = await post("/v1/payments", {
      reference: `${tag}-${i}-${Math.random()}`,
      amount: `${10 + (i % 50)}.25`,
      currency: "USD",
      method: "GATEWAY",
      direction: "DEPOSIT",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const done = await post(`/v1/sandbox/payments/${created.body.id}/complete`, { outcome: i % 3 === 0 ? "FAILED" : "SUCCEEDED" });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    ids.push(created.body.id);
  };
  for (let i = 0; i < n; i += 8) await Promise.all(Array.from({ length: Math.min(8, n - i) }, (_, j) => one(i + j)));
  return ids;
}

describe("sandpiper listen", () => {
  it("delivers every event at least once through a stop, a service restart and a cut connection; all verify with the printed secret", async () => {
    const rx = await startReceiver();
    const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "listen-")), "state.json");
    const args = ["--forward-to", `${rx.origin}/hook`, "--api-url", `http://127.0.0.1:${proxy.port}`, "--state-file", stateFile];
    const env = { SANDPIPER_API_KEY: m.key };

    let run = listen(args, env);
    const secret = await run.secret;
    await waitForLine(run, /Ready: following/);
    await payments(70, "first");

    // Stopped for part of the run: what happens meanwhile is forwarded first on the next start.
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    await payments(50, "offline");
    run = listen(args, env);
    expect(await run.secret, "the same secret on every start with the same key").toBe(secret);
    await waitForLine(run, /Ready: following .* after position [1-9]/);
    await payments(30, "resumed");

    // The service restarts once (the listener sees its stream end and reconnects).
    await stopService(d.service.child);
    d.service = await startService(
      { DATABASE_URL: d.url, TRUSTED_PROXIES: "127.0.0.1,::1", EXPIRY_SWEEP_INTERVAL_MS: "500", DB_POOL_MAX: "5", ...SERVICE_ENV },
      { port: Number(new URL(d.service.url).port) },
    );
    await payments(30, "restarted");

    // The listener's connection is cut: dropped, and refused for 2 s.
    proxy.cut();
    await payments(10, "cut");
    // waits on purpose: the outage itself, a window the listener has to live through
    await new Promise((r) => setTimeout(r, 2000));
    proxy.restore();
    await payments(20, "after-cut");

    // A redelivery reaches the running listener: the same event id arrives again.
    const [redeliver] = await d.db.event.findMany({ where: { merchantId: m.merchant.id }, orderBy: { seq: "asc" }, take: 1 });
    assertPresent(redeliver, "redeliver");
    const redelivery = await post(`/v1/events/${redeliver.id}/redeliver`, {});
    expect(redelivery.status, JSON.stringify(redelivery.body)).toBe(201);

    const events = await d.db.event.findMany({ where: { merchantId: m.merchant.id }, select: { id: true, body: true } });
    expect(events.length).toBe(210);
    const want = new Set(events.map((e) => e.id));
    const got = new Map<string, number>();
    await waitUntil(
      () => {
        got.clear();
        for (const r of rx.received) {
          const verified = verifyCallback(r.body, r.headers as Record<string, string>, secret);
          expect(verified, `a forward that does not verify: ${r.body.toString().slice(0, 120)}`).toMatchObject({ ok: true });
          if (verified.ok) got.set(verified.eventId, (got.get(verified.eventId) ?? 0) + 1);
        }
        return [...want].every((id) => got.has(id));
      },
      { what: "every event forwarded", timeoutMs: 60_000, intervalMs: 250 },
    ).catch(() => undefined); // the missing ones are named below
    const missing = [...want].filter((id) => !got.has(id));
    // Receipts beyond the first, not counting the redelivery asked for above.
    const duplicates = [...got].reduce((sum, [id, n]) => sum + n - 1 - (id === redeliver.id && n > 1 ? 1 : 0), 0);
    console.log(`sandpiper listen run: ${want.size} events, ${rx.received.length} forwards, missing ${missing.length}, duplicates ${duplicates}`);
    expect(missing, run.lines.slice(-30).join("\n")).toEqual([]);
    await rx.waitFor(rx.received.filter((r) => r.headers["x-service-event-id"] !== redeliver.id).length + 2, 20_000);
    expect(rx.received.filter((r) => r.headers["x-service-event-id"] === redeliver.id).length, "the redelivered event arrived again").toBeGreaterThanOrEqual(2);
    expect(run.lines.some((l) => l.includes(redeliver.id) && l.includes("[redelivery]"))).toBe(true);
    // Each forward carried the exact stored body bytes.
    const bodies = new Map(events.map((e) => [e.id, e.body]));
    for (const r of rx.received) expect(r.body.toString("utf8")).toBe(bodies.get(String(r.headers["x-service-event-id"])));
    expect(
      run.lines.some((l) => /connection lost/.test(l)),
      "the listener reported the lost connection",
    ).toBe(true);
    // Listener forwards never touch the configured address's deliveries (none is configured here).
    expect(await d.db.deliveryAttempt.count({ where: { delivery: { merchantId: m.merchant.id } } })).toBe(0);
    expect(await d.db.delivery.count({ where: { merchantId: m.merchant.id, state: { not: "NOT_CONFIGURED" } } })).toBe(0);
    run.child.kill("SIGTERM");
    await run.exited;
    await rx.close();
  }, 300_000);

  it("a connection that goes silent is noticed by its missing heartbeats and opened again", async () => {
    // A stand-in service: the first stream sends `ready` and then nothing; the second sends one item.
    const rx = await startReceiver();
    let connections = 0;
    const body = JSON.stringify({
      id: "5b1f6c6e-8d0a-4d59-9a53-3c2f1f0d9a11",
      type: "payment.succeeded",
      createdAt: new Date().toISOString(),
      data: { reference: "silent-1" },
    });
    const server = http.createServer((req, res) => {
      // This stand-in keeps no record of forwards (the listener then stops reporting them); the key check
      // `sandpiper listen` makes before it starts (GET /v1/sandbox/listener-secret) is not a stream connection.
      if (req.url!.startsWith("/v1/events/forwards")) return void res.writeHead(404).end();
      if (req.url!.startsWith("/v1/sandbox/listener-secret"))
        return void res.writeHead(200, { "content-type": "application/json" }).end('{"generation":0,"previousGeneration":null,"overlapEndsAt":null}');
      if (!req.url!.startsWith("/v1/events/stream"))
        return void res.writeHead(200, { "content-type": "application/json" }).end('{"items":[],"total":0,"page":1,"limit":1,"pages":0}');
      connections++;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`event: ready\ndata: ${JSON.stringify({ cursor: "7", heartbeatSeconds: 1, headers: { eventId: "X-Service-Event-Id" } })}\n\n`);
      if (connections === 1) return; // silent from here on, connection left open
      expect(new URL(req.url!, "http://x").searchParams.get("cursor")).toBe("7");
      const item = {
        cursor: "8",
        kind: "event",
        eventId: "5b1f6c6e-8d0a-4d59-9a53-3c2f1f0d9a11",
        type: "payment.succeeded",
        createdAt: new Date().toISOString(),
        paymentId: null,
        reference: "silent-1",
        body,
        chaos: null,
      };
      res.write(`event: item\nid: 8\ndata: ${JSON.stringify(item)}\n\n`);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "listen-")), "state.json");
    const started = Date.now();
    const run = listen([
      "--forward-to",
      `${rx.origin}/hook`,
      "--api-url",
      `http://127.0.0.1:${port}`,
      "--api-key",
      "sk_sandbox_silent",
      "--state-file",
      stateFile,
    ]);
    await waitForLine(run, new RegExp(`connection lost to http://127\\.0\\.0\\.1:${port} \\(no heartbeat for 5 s\\)`), 20_000);
    await rx.waitFor(1, 20_000);
    expect(Date.now() - started, "noticed within seconds").toBeLessThan(15_000);
    expect(
      verifyCallback(
        present(rx?.received[0], "rx?.received[0]").body,
        present(rx?.received[0], "rx?.received[0]").headers as Record<string, string>,
        await run.secret,
      ),
    ).toMatchObject({ ok: true });
    // The state file is written right after the receiver answered.
    await waitUntil(
      () => {
        try {
          return JSON.parse(fs.readFileSync(stateFile, "utf8")).cursor === "8";
        } catch {
          return false; // not written yet
        }
      },
      { what: "cursor 8 in the state file" },
    );
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    server.closeAllConnections();
    server.close();
    await rx.close();
  }, 60_000);

  it("refuses a bad key with a clear message and exit code 1; missing flags say what to do (exit 2)", async () => {
    const bad = listen([
      "--forward-to",
      "http://127.0.0.1:9/hook",
      "--api-url",
      d.service.url,
      "--api-key",
      "sk_sandbox_nope",
      "--state-file",
      path.join(os.tmpdir(), `nope-${Date.now()}.json`),
    ]);
    expect(await bad.exited).toBe(1);
    expect(bad.lines.join("\n")).toMatch(/refused the API key \(401.*INVALID_API_KEY/);
    expect(bad.lines.join("\n"), "the key is checked before the secret is printed").not.toMatch(/whsec_/);
    const missing = listen([], { SANDPIPER_API_KEY: "" });
    expect(await missing.exited).toBe(2);
    expect(missing.lines.join("\n")).toMatch(/--forward-to is required/);
  }, 60_000);
});
