import { afterAll, describe, expect, it, vi } from "vitest";
import { realInstant } from "@/lib/platform/clock";
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import { db, depositBody, eventually, newMerchant, savePricingVersion, type TestMerchant } from "../support/fixtures";
import { startReceiver, type Received } from "../support/receiver";
import { TEST_DATABASE_URL } from "../support/env";
import { deliverDueCallbacks, INTERRUPTED_ERROR } from "@/lib/domain/callbacks/deliver";
import { listDeliveries, requeueDeliveries, sendTestEvent, TEST_EVENT_PAYMENT_ID } from "@/lib/domain/callbacks/deliveries";
import { removeCallbackUrl, setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { BASE_WAITS_SECONDS, MAX_ATTEMPTS } from "@/lib/contract/callbacks/retry-schedule";
import { verifyCallback } from "@/clients/cli/src/verify";
import { assertPresent, present } from "../../scripts/harness/present";

// Two ways deliveries are driven here:
// - through the running service (its embedded driver, woken after commit and polling every 200 ms), for
//   end-to-end delivery;
// - directly with deliverDueCallbacks and an injected clock, for schedules, timeouts and crashes. Those
//   deliveries are "parked": the event is written while the merchant has no address (NOT_CONFIGURED, which
//   no driver touches), then the address is set and the delivery requeued due one day ahead. The service's
//   driver (real clock) never sees it due, and the test's worker only claims that merchant's deliveries.

const root = path.resolve(__dirname, "../..");
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});
async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

const DAY = 86_400_000;
const customer = { email: "buyer@example.com", username: "buyer-1", firstName: "Ada", lastName: "Lovelace" };

async function completedPayment(m: TestMerchant, outcome: "SUCCEEDED" | "FAILED" = "SUCCEEDED", over: Record<string, unknown> = {}) {
  const created = await m.api("/v1/payments", { body: depositBody({ customer, ...over }) });
  expect(created.status).toBe(201);
  const done = await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome } });
  expect(done.status).toBe(200);
  return done.body;
}

/** A delivery due at `due` (default one day ahead) that only this test drives; see the header comment. */
async function parkedDelivery(url: string, due = new Date(Date.now() + DAY)) {
  const m = await newMerchant();
  const payment = await completedPayment(m);
  const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url });
  expect(await requeueDeliveries(db, { merchantId: m.merchant.id, now: due })).toBe(1);
  const delivery = await db.delivery.findFirstOrThrow({ where: { merchantId: m.merchant.id }, include: { event: true } });
  return { m, payment, secret, delivery, due };
}

function header(r: Received, name: string): string {
  const v = r.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(", ") : (v ?? "");
}

const attemptsOf = (deliveryId: string) => db.deliveryAttempt.findMany({ where: { deliveryId }, orderBy: { number: "asc" } });

describe("callback delivery through the running service", () => {
  it("delivers a signed payment.succeeded: exact headers, stored body bytes, verifies with verifyCallback and a plain HMAC", async () => {
    const rx = await receiver();
    const m = await newMerchant();
    // Charged in AED: the callback must still carry the merchant's original amount and currency.
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "USD",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "AED",
      settlementCurrency: "USD",
      commissionBps: 250,
      reason: "test",
    });
    const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{44}$/);
    const payment = await completedPayment(m, "SUCCEEDED", { amount: "1123.52", currency: "USD" });
    const [got] = await rx.waitFor(1);
    assertPresent(got, "got");

    const event = await db.event.findFirstOrThrow({ where: { paymentId: payment.id }, include: { deliveries: true } });
    expect(got?.method).toBe("POST");
    expect(got?.path).toBe("/callbacks");
    expect(header(got, "content-type")).toBe("application/json");
    expect(got?.body.equals(Buffer.from(event.body, "utf8"))).toBe(true);
    const id = header(got, "X-Service-Event-Id");
    const timestamp = header(got, "X-Service-Timestamp");
    const signature = header(got, "X-Service-Signature");
    expect(id).toBe(event.id);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(timestamp).toMatch(/^[0-9]{10}$/);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);

    const plain = createHmac("sha256", secret).update(`${timestamp}.`).update(got.body).digest("hex");
    expect(signature).toBe(plain);
    const verified = verifyCallback(got.body, got.headers, secret);
    expect(verified).toMatchObject({ ok: true, eventId: event.id });
    expect(verifyCallback(got?.body, got?.headers, "whsec_other")).toEqual({ ok: false, reason: "BAD_SIGNATURE" });

    const envelope = JSON.parse(got.body.toString("utf8"));
    expect(Object.keys(envelope)).toEqual(["id", "type", "createdAt", "data"]);
    expect(envelope).toMatchObject({ id: event.id, type: "payment.succeeded" });
    expect(envelope.data).toEqual({ ...payment, customer: undefined, checkout: undefined });
    expect(envelope.data).not.toHaveProperty("customer");
    expect(envelope.data).toMatchObject({ amount: "1123.52", currency: "USD", status: "SUCCEEDED", environment: "sandbox" });
    expect(envelope.data.pricing).toMatchObject({ originalCurrency: "USD", chargeCurrency: "AED" });
    expect(envelope.data.fee).toBe("28.09");

    const delivered = await eventually(async () => {
      const d = await db.delivery.findUniqueOrThrow({ where: { id: present(event.deliveries[0], "event.deliveries[0]").id } });
      return d.state === "SUCCEEDED" ? d : null;
    });
    expect(delivered).toMatchObject({ attemptCount: 1, leaseUntil: null, nextAttemptAt: null });
    expect(delivered.deliveredAt).not.toBeNull();
    const [attempt] = await attemptsOf(delivered.id);
    assertPresent(attempt, "attempt");
    expect(attempt).toMatchObject({ number: 1, url: rx.url, statusCode: 200, error: null, responseSnippet: '{"received":true}' });
    // The timestamp is the attempt's own time, and that was now.
    expect(timestamp).toBe(String(Math.floor(attempt.startedAt.getTime() / 1000)));
    expect(Math.abs(attempt?.startedAt.getTime() - got?.at)).toBeLessThan(30_000);
    expect(rx.received).toHaveLength(1);
  });

  it("payment.failed is delivered too; data keeps the original amount and currency", async () => {
    const rx = await receiver();
    const m = await newMerchant();
    const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const payment = await completedPayment(m, "FAILED", { amount: "250.00", currency: "EUR" });
    const [got] = await rx.waitFor(1);
    assertPresent(got, "got");
    expect(verifyCallback(got?.body, got?.headers, secret).ok).toBe(true);
    const envelope = JSON.parse(got.body.toString("utf8"));
    expect(envelope).toMatchObject({ type: "payment.failed", data: { id: payment.id, amount: "250.00", currency: "EUR", status: "FAILED" } });
  });

  it("embedded driver: a PENDING payment whose acceptance period ends becomes EXPIRED and its payment.expired arrives", async () => {
    const rx = await receiver();
    const m = await newMerchant({ minutes: { gatewayDeposit: 1 } });
    const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const created = (await m.api("/v1/payments", { body: depositBody() })).body;
    expect(created.status).toBe("PENDING");
    // Shorten the (one-minute) acceptance period to two seconds, so the test does not wait a minute.
    await db.payment.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() + 2000) } });
    expect((await m.api(`/v1/payments/${created.id}`)).body.status).toBe("PENDING");

    const [got] = await rx.waitFor(1, 20_000);
    assertPresent(got, "got");
    const verified = verifyCallback(got.body, got.headers, secret);
    expect(verified.ok).toBe(true);
    expect(JSON.parse(got?.body.toString("utf8"))).toMatchObject({ type: "payment.expired", data: { id: created.id, status: "EXPIRED" } });
    expect((await m.api(`/v1/payments/${created.id}`)).body.status).toBe("EXPIRED");
  });

  it("NOT_CONFIGURED without an address; after setCallbackUrl a requeue delivers it with the new secret", async () => {
    const rx = await receiver();
    const m = await newMerchant();
    const payment = await completedPayment(m);
    const listed = await listDeliveries(db, { merchantId: m.merchant.id, page: 1, limit: 10 });
    expect(listed.total).toBe(1);
    expect(listed.items[0]).toMatchObject({ state: "NOT_CONFIGURED", eventType: "payment.succeeded", paymentId: payment.id, attempts: 0, test: false });
    expect(await requeueDeliveries(db, { merchantId: m.merchant.id })).toBe(0); // still no address

    const other = await newMerchant();
    await setCallbackUrl(db, { merchantId: other.merchant.id, url: rx.url });
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    // Another merchant cannot requeue it, even by id.
    expect(await requeueDeliveries(db, { merchantId: other.merchant.id, deliveryIds: [present(listed?.items[0], "listed?.items[0]").id] })).toBe(0);
    const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url }); // saving again rotates the secret
    expect(await requeueDeliveries(db, { merchantId: m.merchant.id, deliveryIds: [present(listed?.items[0], "listed?.items[0]").id] })).toBe(1);

    const [got] = await rx.waitFor(1);
    assertPresent(got, "got");
    expect(verifyCallback(got?.body, got?.headers, secret).ok).toBe(true);
    expect(header(got, "X-Service-Event-Id")).toBe(present(listed.items[0], "listed.items[0]").eventId);
    const after = await eventually(async () => {
      const page = await listDeliveries(db, { merchantId: m.merchant.id, state: "SUCCEEDED", page: 1, limit: 10 });
      return page.total === 1 ? page.items[0] : null;
    });
    expect(after).toMatchObject({ attempts: 1, attemptCount: 1 });
    expect((await listDeliveries(db, { merchantId: null, state: "SUCCEEDED", page: 1, limit: 100 })).total).toBeGreaterThanOrEqual(1);
  });

  it("sendTestEvent: signed like a real event, payment.succeeded about the nil-UUID payment, with the X-Service-Test hint", async () => {
    const rx = await receiver();
    const m = await newMerchant();
    await expect(sendTestEvent(db, { merchantId: m.merchant.id })).rejects.toMatchObject({ code: "INVALID_STATE" });
    const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const sent = await sendTestEvent(db, { merchantId: m.merchant.id });
    const [got] = await rx.waitFor(1);
    assertPresent(got, "got");
    const verified = verifyCallback(got.body, got.headers, secret);
    expect(verified).toMatchObject({ ok: true, eventId: sent.eventId });
    expect(header(got, "X-Service-Test")).toBe("true");
    const envelope = JSON.parse(got.body.toString("utf8"));
    expect(envelope).toMatchObject({ type: "payment.succeeded", data: { id: TEST_EVENT_PAYMENT_ID, merchantId: m.merchant.id, environment: "sandbox" } });
    const row = await eventually(async () => {
      const page = await listDeliveries(db, { merchantId: m.merchant.id, page: 1, limit: 10 });
      return page.items[0]?.state === "SUCCEEDED" ? page.items[0] : null;
    });
    expect(row).toMatchObject({ id: sent.deliveryId, test: true, paymentId: null });
  });
});

describe("delivery job body with an injected clock", () => {
  it("500, 500, 200: exactly three attempts at the retry schedule, same event id and body, a new timestamp each", async () => {
    const rx = await receiver((_r, i) => ({ status: i < 2 ? 500 : 200, body: i < 2 ? "busy" : "ok" }));
    const { m, secret, delivery, due } = await parkedDelivery(rx.url);
    const merchantId = m.merchant.id;

    const first = await deliverDueCallbacks({ merchantId, now: realInstant(due) });
    expect(first).toMatchObject({ claimed: 1, retrying: 1 });
    const afterFirst = await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(afterFirst).toMatchObject({ state: "PENDING", attemptCount: 1, leaseUntil: null, lastError: "HTTP 500" });
    const wait1 = afterFirst.nextAttemptAt!.getTime() - due.getTime();
    expect(wait1).toBeGreaterThanOrEqual(30_000);
    expect(wait1).toBeLessThanOrEqual(33_000);

    // Not due a millisecond before its time.
    expect((await deliverDueCallbacks({ merchantId, now: realInstant(afterFirst.nextAttemptAt!.getTime() - 1) })).claimed).toBe(0);
    const t2 = afterFirst.nextAttemptAt!;
    expect(await deliverDueCallbacks({ merchantId, now: realInstant(t2) })).toMatchObject({ claimed: 1, retrying: 1 });
    const afterSecond = await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    const wait2 = afterSecond.nextAttemptAt!.getTime() - t2.getTime();
    expect(wait2).toBeGreaterThanOrEqual(108_000);
    expect(wait2).toBeLessThanOrEqual(132_000);

    const t3 = afterSecond.nextAttemptAt!;
    expect(await deliverDueCallbacks({ merchantId, now: realInstant(t3) })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(await deliverDueCallbacks({ merchantId, now: realInstant(t3.getTime() + DAY) })).toMatchObject({ claimed: 0 });

    const done = await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(done).toMatchObject({ state: "SUCCEEDED", attemptCount: 3, nextAttemptAt: null, lastError: null });
    expect(done.deliveredAt).toEqual(t3);
    const attempts = await attemptsOf(delivery.id);
    expect(attempts.map((a) => [a.number, a.statusCode, a.startedAt.getTime(), a.responseSnippet])).toEqual([
      [1, 500, due.getTime(), "busy"],
      [2, 500, t2.getTime(), "busy"],
      [3, 200, t3.getTime(), "ok"],
    ]);

    expect(rx.received).toHaveLength(3);
    const times = [due, t2, t3];
    rx.received.forEach((r, i) => {
      expect(r.body.equals(Buffer.from(delivery.event.body, "utf8"))).toBe(true);
      expect(header(r, "X-Service-Event-Id")).toBe(delivery.eventId);
      expect(header(r, "X-Service-Timestamp")).toBe(String(Math.floor(present(times[i], "times[i]").getTime() / 1000)));
      expect(verifyCallback(r.body, r.headers, secret, { now: times[i] }).ok).toBe(true);
    });
    expect(new Set(rx.received.map((r) => header(r, "X-Service-Timestamp"))).size).toBe(3);
  });

  it("8 failed attempts follow the documented waits, then FAILED; a requeue starts a new round that succeeds", async () => {
    let healthy = false;
    const rx = await receiver(() => ({ status: healthy ? 204 : 503 }));
    const { m, delivery, due } = await parkedDelivery(rx.url);
    let now = due;
    const waits: number[] = [];
    for (let n = 1; n <= MAX_ATTEMPTS; n++) {
      await deliverDueCallbacks({ merchantId: m.merchant.id, now: realInstant(now), random: () => 0.5 });
      const d = await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
      expect(d.attemptCount).toBe(n);
      if (n < MAX_ATTEMPTS) {
        expect(d.state).toBe("PENDING");
        waits.push((d.nextAttemptAt!.getTime() - now.getTime()) / 1000);
        now = d.nextAttemptAt!;
      } else {
        expect(d).toMatchObject({ state: "FAILED", nextAttemptAt: null, lastError: "HTTP 503" });
      }
    }
    expect(waits).toEqual([...BASE_WAITS_SECONDS]);
    expect(waits).toEqual([30, 120, 300, 600, 1200, 2400, 3600]);
    expect((await deliverDueCallbacks({ merchantId: m.merchant.id, now: realInstant(now.getTime() + DAY) })).claimed).toBe(0);

    healthy = true;
    const again = new Date(now.getTime() + 60_000);
    expect(await requeueDeliveries(db, { merchantId: null, deliveryIds: [delivery.id], now: again })).toBe(1);
    expect(await deliverDueCallbacks({ merchantId: m.merchant.id, now: realInstant(again) })).toMatchObject({ succeeded: 1 });
    const attempts = await attemptsOf(delivery.id);
    expect(attempts.map((a) => a.statusCode)).toEqual([503, 503, 503, 503, 503, 503, 503, 503, 204]);
    expect(attempts.map((a) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ state: "SUCCEEDED", attemptCount: 1 });
  });

  it("a 301 is a failure and is not followed", async () => {
    const rx = await receiver((r) => (r.path === "/callbacks" ? { status: 301, headers: { location: "/moved" } } : {}));
    const { m, delivery, due } = await parkedDelivery(rx.url);
    expect(await deliverDueCallbacks({ merchantId: m.merchant.id, now: realInstant(due) })).toMatchObject({ claimed: 1, retrying: 1 });
    // waits on purpose: a followed redirect would reach the local receiver within it
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.received.map((r) => r.path)).toEqual(["/callbacks"]);
    const [attempt] = await attemptsOf(delivery.id);
    expect(attempt).toMatchObject({ statusCode: 301, error: "redirect not followed" });
    expect(await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ state: "PENDING", lastError: "redirect not followed" });
  });

  it("a receiver that does not answer within 5 s times out and is retried", async () => {
    const rx = await receiver(() => ({ hang: true }));
    const { m, delivery, due } = await parkedDelivery(rx.url);
    const started = Date.now();
    expect(await deliverDueCallbacks({ merchantId: m.merchant.id, now: realInstant(due) })).toMatchObject({ claimed: 1, retrying: 1 });
    // It waited the 5 s (no upper bound in wall time: a busy machine may take longer to get back to it); the
    // attempt's record says it was the time-out that ended it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    const [attempt] = await attemptsOf(delivery.id);
    expect(attempt).toMatchObject({ statusCode: null, error: "timeout after 5000 ms" });
    expect(attempt?.durationMs).toBeGreaterThanOrEqual(4900);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ state: "PENDING", attemptCount: 1 });
  });

  it("a 1 MiB response body does not break the worker: at most 64 KiB is read, the snippet is short, the next delivery goes out", async () => {
    const big = Buffer.alloc(1024 * 1024, "x");
    const rx = await receiver(() => ({ status: 200, body: big }));
    const first = await parkedDelivery(rx.url);
    const second = await parkedDelivery(rx.url, first.due);
    const one = await deliverDueCallbacks({ merchantId: first.m.merchant.id, now: realInstant(first.due) });
    expect(one).toMatchObject({ claimed: 1, succeeded: 1 });
    const [attempt] = await attemptsOf(first.delivery.id);
    expect(attempt?.statusCode).toBe(200);
    expect(attempt?.responseSnippet!.length).toBe(1024);
    expect(await deliverDueCallbacks({ merchantId: second.m.merchant.id, now: realInstant(second.due) })).toMatchObject({ claimed: 1, succeeded: 1 });
  });

  it("an address that no longer passes the policy at send time is not contacted; no address at send time gives NOT_CONFIGURED", async () => {
    const rx = await receiver();
    const a = await parkedDelivery(rx.url);
    vi.stubEnv("CALLBACK_ALLOW_LOOPBACK", "");
    try {
      expect(await deliverDueCallbacks({ merchantId: a.m.merchant.id, now: realInstant(a.due) })).toMatchObject({ claimed: 1, retrying: 1 });
    } finally {
      vi.unstubAllEnvs();
    }
    expect(rx.received).toHaveLength(0);
    const [attempt] = await attemptsOf(a.delivery.id);
    expect(attempt).toMatchObject({ statusCode: null, error: "address refused: scheme must be https" });

    const b = await parkedDelivery(rx.url);
    await removeCallbackUrl(db, { merchantId: b.m.merchant.id });
    expect(await deliverDueCallbacks({ merchantId: b.m.merchant.id, now: realInstant(b.due) })).toMatchObject({ claimed: 1, notConfigured: 1 });
    expect(await db.delivery.findUniqueOrThrow({ where: { id: b.delivery.id } })).toMatchObject({
      state: "NOT_CONFIGURED",
      attemptCount: 0,
      nextAttemptAt: null,
      leaseUntil: null,
    });
    expect(await attemptsOf(b.delivery.id)).toHaveLength(0);
    expect(rx.received).toHaveLength(0);
  });
});

type Worker = { child: ChildProcess; lines: string[]; line: (match: (l: string) => boolean, timeoutMs?: number) => Promise<string> };

/** Starts test/support/delivery-worker.mts: a separate process running deliverDueCallbacks once on "go". */
function startWorker(opts: { merchantId: string; now: Date; limit?: number; workerId: string }): Worker {
  const child = spawn(process.execPath, ["--import", "tsx", "test/support/delivery-worker.mts", JSON.stringify({ ...opts, now: opts.now.toISOString() })], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: TEST_DATABASE_URL, LOG_LEVEL: "warn" },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines: string[] = [];
  const waiting: (() => void)[] = [];
  createInterface({ input: child.stdout! }).on("line", (l) => {
    lines.push(l);
    waiting.splice(0).forEach((w) => w());
  });
  const line = (match: (l: string) => boolean, timeoutMs = 30_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`worker ${opts.workerId}: no matching line within ${timeoutMs} ms (got ${JSON.stringify(lines)})`)),
        timeoutMs,
      );
      const check = () => {
        const found = lines.find(match);
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(found);
        } else waiting.push(check);
      };
      check();
    });
  return { child, lines, line };
}

describe("crashes and concurrent workers", () => {
  it("a worker killed mid-delivery: after its lease expires the event is re-sent with the same id and a new timestamp", async () => {
    let healthy = false;
    const rx = await receiver(() => (healthy ? {} : { hang: true }));
    const { m, secret, delivery, due } = await parkedDelivery(rx.url);

    const worker = startWorker({ merchantId: m.merchant.id, now: due, workerId: "doomed" });
    await worker.line((l) => l === "ready");
    worker.child.stdin!.write("go\n");
    await rx.waitFor(1); // the receiver holds the request...
    worker.child.kill("SIGKILL"); // ...and the worker dies in the middle of the attempt
    await new Promise((r) => worker.child.once("exit", r));

    const leased = await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(leased).toMatchObject({ state: "PENDING", attemptCount: 1 });
    expect(leased.leaseUntil!.getTime()).toBe(due.getTime() + 30_000);
    // While the lease runs nobody else sends it.
    expect((await deliverDueCallbacks({ merchantId: m.merchant.id, now: realInstant(due.getTime() + 29_000) })).claimed).toBe(0);

    healthy = true;
    const restart = new Date(due.getTime() + 31_000);
    expect(await deliverDueCallbacks({ merchantId: m.merchant.id, now: realInstant(restart) })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(rx.received).toHaveLength(2);
    const [lost, resent] = rx.received;
    assertPresent(lost, "lost");
    assertPresent(resent, "resent");
    expect(header(resent, "X-Service-Event-Id")).toBe(header(lost, "X-Service-Event-Id"));
    expect(header(resent, "X-Service-Event-Id")).toBe(delivery.eventId);
    expect(resent?.body.equals(lost?.body)).toBe(true);
    expect(header(lost, "X-Service-Timestamp")).toBe(String(Math.floor(due.getTime() / 1000)));
    expect(header(resent, "X-Service-Timestamp")).toBe(String(Math.floor(restart.getTime() / 1000)));
    expect(verifyCallback(resent?.body, resent?.headers, secret, { now: restart }).ok).toBe(true);

    const attempts = await attemptsOf(delivery.id);
    expect(attempts.map((a) => [a.number, a.statusCode, a.error])).toEqual([
      [1, null, INTERRUPTED_ERROR],
      [2, 200, null],
    ]);
    expect(await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ state: "SUCCEEDED", attemptCount: 2 });
  });

  it("two worker processes running at once deliver each attempt exactly once", async () => {
    const rx = await receiver(() => ({ delayMs: 150 }));
    const m = await newMerchant();
    const count = 12;
    for (let i = 0; i < count; i++) await completedPayment(m);
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const due = new Date(Date.now() + DAY);
    expect(await requeueDeliveries(db, { merchantId: m.merchant.id, now: due })).toBe(count);

    const workers = ["a", "b"].map((id) => startWorker({ merchantId: m.merchant.id, now: due, limit: 2, workerId: id }));
    await Promise.all(workers.map((w) => w.line((l) => l === "ready")));
    workers.forEach((w) => w.child.stdin!.write("go\n"));
    const results = (await Promise.all(workers.map((w) => w.line((l) => l.startsWith("{"))))).map((l) => JSON.parse(l));

    expect(results.every((r) => r.claimed > 0)).toBe(true); // both really worked
    expect(results[0].claimed + results[1].claimed).toBe(count);
    const byWorker = results.flatMap((r) => r.eventIds as string[]);
    expect(new Set(byWorker).size).toBe(count);
    const sentIds = rx.received.map((r) => header(r, "X-Service-Event-Id"));
    expect(sentIds).toHaveLength(count);
    expect(new Set(sentIds).size).toBe(count);
    expect(await db.deliveryAttempt.count({ where: { delivery: { merchantId: m.merchant.id } } })).toBe(count);
    expect(await db.delivery.count({ where: { merchantId: m.merchant.id, state: "SUCCEEDED", attemptCount: 1 } })).toBe(count);
  });
});
