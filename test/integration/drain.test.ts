import { afterEach, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { TEST_DATABASE_URL } from "../support/env";
import { db, depositBody, newMerchant } from "../support/fixtures";
import { startService, stopService } from "../support/global-setup";

// docs/operating.md "Stopping", measured in docs/benchmarks.md "Stopping under load": SIGTERM to one instance during
// 32-connection create load. Two instances share the database, as behind a load balancer: each client sends to the
// first until it gets no answer there (connection refused or closed before an answer), then retries the same
// Idempotency-Key and body on the second. No request may be answered 5xx or cut mid-answer, and every key ends with
// exactly one payment. An open event stream ends with its `bye` event (the reconnect hint) at once.

const CLIENTS = 32;
const serviceEnv = { DATABASE_URL: TEST_DATABASE_URL, TRUSTED_PROXIES: "127.0.0.1,::1", RATE_LIMIT_PER_KEY: "100000000", RATE_LIMIT_PER_IP: "100000000" };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

/** One attempt's outcome: an answer (status, and whether its body arrived whole), or no answer at all. */
type Outcome = { kind: "answer"; status: number; id?: string } | { kind: "cut" } | { kind: "no answer"; error: string };

describe("SIGTERM under create load", () => {
  it("32 connections: 0 answered 5xx, 0 cut mid-answer, 0 lost or doubled after retries with the same keys", async () => {
    const first = await startService(serviceEnv);
    cleanup.push(() => stopService(first.child));
    const second = await startService(serviceEnv);
    cleanup.push(() => stopService(second.child));
    const m = await newMerchant();

    const attempt = async (base: string, key: string, body: Record<string, unknown>): Promise<Outcome> => {
      let res: Response;
      try {
        res = await fetch(`${base}/v1/payments`, {
          method: "POST",
          headers: { authorization: `Bearer ${m.key}`, "x-forwarded-for": m.ip, "content-type": "application/json", "idempotency-key": key },
          body: JSON.stringify(body),
        });
      } catch (error) {
        return { kind: "no answer", error: String((error as { cause?: { code?: string } }).cause?.code ?? error) };
      }
      try {
        const answer = (await res.json()) as { id?: string };
        return { kind: "answer", status: res.status, id: answer.id };
      } catch {
        return { kind: "cut" };
      }
    };

    const outcomes: { instance: "first" | "second"; at: number; outcome: Outcome }[] = [];
    const finals = new Map<string, string>();
    let signalledAt = Infinity;
    let exitedAt = Infinity;
    const exited = new Promise<number | null>((resolve) =>
      first.child.once("exit", (code) => {
        exitedAt = Date.now();
        resolve(code);
      }),
    );
    const client = async () => {
      let target: "first" | "second" = "first";
      // Creates go on until a second after the first instance exited.
      while (Date.now() < exitedAt + 1_000) {
        const key = `drain-${randomUUID()}`;
        const body = depositBody();
        for (;;) {
          const outcome = await attempt(target === "first" ? first.url : second.url, key, body);
          outcomes.push({ instance: target, at: Date.now(), outcome });
          if (outcome.kind === "answer" && outcome.status === 201) {
            finals.set(key, outcome.id!);
            break;
          }
          if (outcome.kind === "answer" && outcome.status < 500) throw new Error(`unexpected ${outcome.status}`);
          target = "second"; // the load balancer's next instance
        }
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, client));
    await new Promise((r) => setTimeout(r, 4_000));
    signalledAt = Date.now();
    first.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await load;

    const answeredByFirst = outcomes.filter((o) => o.instance === "first" && o.outcome.kind === "answer");
    const afterSignal = answeredByFirst.filter((o) => o.at > signalledAt);
    const fivexx = outcomes.filter((o) => o.outcome.kind === "answer" && o.outcome.status >= 500);
    const cut = outcomes.filter((o) => o.outcome.kind === "cut");
    const noAnswer = outcomes.filter((o) => o.outcome.kind === "no answer");
    const payments = await db.payment.count({ where: { merchantId: m.merchant.id } });
    const figures = {
      keys: finals.size,
      answeredByFirst: answeredByFirst.length,
      answeredByFirstAfterSigterm: afterSignal.length,
      noAnswerThenRetried: noAnswer.length,
      noAnswerCodes: [...new Set(noAnswer.map((o) => (o.outcome as { error: string }).error))],
      answered5xx: fivexx.length,
      cutMidAnswer: cut.length,
      payments,
      drainMs: exitedAt - signalledAt,
    };
    console.log(`drain under load: ${JSON.stringify(figures)}`);
    expect(afterSignal.length, "requests were in flight at SIGTERM").toBeGreaterThan(0);
    expect(fivexx.length, "answered 5xx").toBe(0);
    expect(cut.length, "cut mid-answer").toBe(0);
    expect(new Set(finals.values()).size, "one payment per key").toBe(finals.size);
    expect(payments, "no payment lost or doubled").toBe(finals.size);
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
    expect(JSON.parse(bye![1])).toMatchObject({ reason: "shutdown", cursor: expect.stringMatching(/^\d+$/) });
    expect((await reader.read()).done, "the stream ended").toBe(true);
    expect(await exited).toBe(0);
    expect(Date.now() - signalledAt, "well inside SHUTDOWN_DRAIN_MS (10 s)").toBeLessThan(5_000);
  }, 60_000);
});
