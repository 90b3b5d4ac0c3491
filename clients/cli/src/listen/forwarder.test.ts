import http from "node:http";
import { describe, expect, it } from "vitest";
import { freePort } from "@/scripts/db.mjs";
import { waitUntil } from "@/scripts/harness/wait";
import { Forwarder, MAX_RETRY_MS, retryDelayMs } from "./forwarder";

describe('retryDelayMs (docs/callbacks.md "Delivery to your receiver")', () => {
  it("starts at about 1 s and doubles, with at most 20% jitter either way", () => {
    expect(retryDelayMs(1, () => 0.5)).toBe(1000);
    expect(retryDelayMs(2, () => 0.5)).toBe(2000);
    expect(retryDelayMs(3, () => 0.5)).toBe(4000);
    expect(retryDelayMs(1, () => 0)).toBe(800);
    expect(retryDelayMs(1, () => 0.999999)).toBe(1200);
  });

  it("never waits more than 30 s, however many attempts failed", () => {
    for (const retry of [6, 7, 20, 1000]) {
      for (const r of [0, 0.5, 0.999999]) {
        const ms = retryDelayMs(retry, () => r);
        expect(ms).toBeLessThanOrEqual(MAX_RETRY_MS);
        expect(ms).toBeGreaterThanOrEqual(0.8 * MAX_RETRY_MS);
      }
    }
  });
});

describe("batchSize (the listener's reports stay under the service's 32 KiB body limit)", () => {
  it("takes up to 50 small reports, and fewer when they are large; never none", async () => {
    const { batchSize } = await import("./reporter");
    const report = (snippet: number) => ({
      eventId: "e",
      forwardId: "f",
      cursor: "1",
      kind: "event" as const,
      attempt: 1,
      startedAt: "t",
      durationMs: 1,
      statusCode: 200,
      error: null,
      forwardTo: `http://localhost:4000/${"x".repeat(snippet)}`,
      timestamp: "1",
      signature: "s",
      responseSnippet: null,
      nextAttemptAt: null,
    });
    expect(batchSize(Array.from({ length: 80 }, () => report(10)))).toBe(50);
    const large = Array.from({ length: 50 }, () => report(2000));
    const n = batchSize(large);
    expect(n).toBeLessThan(50);
    expect(JSON.stringify({ forwards: large.slice(0, n) }).length).toBeLessThan(32 * 1024);
    expect(batchSize([report(40_000)])).toBe(1);
  });
});

describe('a forward address that refuses connections (docs/callbacks.md "An address that refuses connections")', () => {
  it("says it waits, probes it every second, and forwards the waiting items within 2 s of it listening, not at their retry time", async () => {
    const port = (await freePort()) as number;
    const lines: string[] = [];
    const received: string[] = [];
    const settled: bigint[] = [];
    const forwarder = new Forwarder({
      forwardTo: `http://127.0.0.1:${port}/hook`,
      secrets: () => ({ secret: `whsec_${"a".repeat(43)}`, previousSecret: null }),
      retryWaitMs: () => 60_000, // a retry a minute away: only the probe can bring the items sooner
      timeoutMs: 2_000,
      serviceName: () => "Service",
      print: (line) => lines.push(line),
      report: () => {},
      settled: (cursor) => settled.push(cursor),
      resendCommand: (id) => `sandpiper events resend ${id}`,
    });
    const item = (n: number) => ({
      cursor: String(n),
      kind: "event" as const,
      eventId: `evt_${n}`,
      type: "payment.succeeded",
      paymentId: null,
      reference: `order-${n}`,
      body: JSON.stringify({ id: `evt_${n}` }),
      chaos: null,
    });
    forwarder.add(item(1));
    forwarder.add(item(2));
    await waitUntil(() => lines.filter((l) => l.includes("no answer (ECONNREFUSED)")).length === 2, { what: "two refused forwards", timeoutMs: 10_000 });
    const waiting = lines.filter((l) => l.includes("waiting:"));
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatch(new RegExp(`waiting: http://127\\.0\\.0\\.1:${port}/hook refused connections since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z`));

    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push(JSON.parse(body).id);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((ok) => receiver.listen(port, "127.0.0.1", ok));
    const listening = Date.now();
    try {
      await waitUntil(() => received.length === 2, { what: "both forwards received", timeoutMs: 10_000 });
      expect(Date.now() - listening).toBeLessThan(2_000); // a probe a second, then the two forwards
      expect(received).toEqual(["evt_1", "evt_2"]);
      expect(settled).toEqual([1n, 2n]);
      expect(lines.some((l) => l.includes("accepts connections again: forwarding the 2 waiting now"))).toBe(true);
    } finally {
      await forwarder.stop(1000);
      await new Promise((ok) => receiver.close(ok));
    }
  }, 30_000);
});
