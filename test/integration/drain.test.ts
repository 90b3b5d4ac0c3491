import { afterEach, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { TEST_DATABASE_URL } from "../support/env";
import { db, depositBody, newMerchant } from "../support/fixtures";
import { startService, stopService } from "../support/global-setup";
import { createsUntilStopped } from "../../scripts/harness/drain-load";
import { present } from "../../scripts/harness/present";

// docs/operating.md "Stopping", measured over five stops in docs/benchmarks.md "Stopping under load" (bench/drain.ts):
// SIGTERM to one instance during create load from 32 clients on 32 kept-alive connections (a node:http Agent). Two
// instances share the database, as behind a load balancer: each client sends to the first until it gets no answer
// there, then retries the same Idempotency-Key and body on the second. A refused connection (the listener closed) is
// fine: nothing was sent. A reset (a kept-alive connection closed as the client sent on it) is not, nor is a 5xx or
// an answer cut mid-way; every key ends with exactly one payment, and the log says when the stop began and ended. An
// open event stream ends with its `bye` event (the reconnect hint) at once.

const CLIENTS = 32;
const serviceEnv = { DATABASE_URL: TEST_DATABASE_URL, TRUSTED_PROXIES: "127.0.0.1,::1", RATE_LIMIT_PER_KEY: "100000000", RATE_LIMIT_PER_IP: "100000000" };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

describe("SIGTERM under create load", () => {
  it("32 kept-alive connections: 0 resets, 0 answered 5xx, 0 cut mid-answer, 0 lost or doubled after retries with the same keys; the stop is logged", async () => {
    const first = await startService(serviceEnv, { capture: true });
    cleanup.push(() => stopService(first.child));
    const second = await startService(serviceEnv);
    cleanup.push(() => stopService(second.child));
    const m = await newMerchant();
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    cleanup.push(async () => agent.destroy());

    const run = await createsUntilStopped({
      clients: CLIENTS,
      agent,
      first: first.url,
      second: second.url,
      headers: { authorization: `Bearer ${m.key}`, "x-forwarded-for": m.ip },
      body: depositBody,
      key: () => `drain-${randomUUID()}`,
      stop: async () => {
        const exited = new Promise<number | null>((resolve) => first.child.once("exit", (code) => resolve(code)));
        first.child.kill("SIGTERM");
        return exited;
      },
    });
    const payments = await db.payment.count({ where: { merchantId: m.merchant.id } });
    console.log(`drain under load: ${JSON.stringify({ ...run.figures, payments })}`);
    expect(run.exitCode).toBe(0);
    expect(run.figures.answeredByFirstAfterSigterm, "requests were in flight at SIGTERM").toBeGreaterThan(0);
    expect(run.of("reset"), "connection resets").toEqual([]);
    expect(run.of("5xx"), "answered 5xx").toEqual([]);
    expect(run.of("cut"), "cut mid-answer").toEqual([]);
    expect(new Set(run.finals.values()).size, "one payment per key").toBe(run.finals.size);
    expect(payments, "no payment lost or doubled").toBe(run.finals.size);
    expect(first.output.some((line) => /^Sandpiper stopping \(SIGTERM\): \/readyz answers 503; \d+ requests under way/.test(line))).toBe(true);
    const ended = first.output.find((line) => line.startsWith("Sandpiper stopped: "));
    expect(ended).toMatch(/^Sandpiper stopped: \d+ requests answered since SIGTERM, in \d+ ms; \d+ idle connections closed, 0 requests cut/);
  }, 180_000);

  it("an open event stream ends at SIGTERM with a bye event (reason shutdown, the cursor to reconnect with), well inside the drain time-out", async () => {
    const svc = await startService(serviceEnv);
    cleanup.push(() => stopService(svc.child));
    const m = await newMerchant();
    const res = await fetch(`${svc.url}/v1/events/stream`, {
      headers: { authorization: `Bearer ${m.key}`, "x-forwarded-for": m.ip, accept: "text/event-stream" },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = "";
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    };
    await readUntil(/event: ready\n/);
    const exited = new Promise<number | null>((resolve) => svc.child.once("exit", (code) => resolve(code)));
    const signalledAt = Date.now();
    svc.child.kill("SIGTERM");
    await readUntil(/event: bye\ndata: .*\n\n/);
    const bye = /event: bye\ndata: (.*)\n/.exec(text);
    expect(bye, text).not.toBeNull();
    expect(JSON.parse(present(bye![1], "bye![1]"))).toMatchObject({ reason: "shutdown", cursor: expect.stringMatching(/^\d+$/) });
    expect((await reader.read()).done, "the stream ended").toBe(true);
    expect(await exited).toBe(0);
    expect(Date.now() - signalledAt, "well inside SHUTDOWN_DRAIN_MS (10 s)").toBeLessThan(5_000);
  }, 60_000);
});
