import { afterAll, describe, expect, it } from "vitest";
import { baseUrl, db, depositBody, eventually, forwardTokenOf, newMerchant, type TestMerchant } from "../support/fixtures";
import { startReceiver } from "../support/receiver";
import type { ConsoleActor } from "@/lib/domain/auth/actor";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { DeliveryFilters, deliveryPage } from "@/lib/domain/callbacks/manage-callbacks";
import { savePricingVersion } from "@/lib/domain/pricing/profile-versions";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { compactPaymentCounts } from "@/lib/domain/payments/counts";
import { listConsolePayments } from "@/lib/domain/payments/payment-views";
import { ListPaymentsQuery } from "@/lib/contract/schemas/api/payments";
import { callbacksOverview } from "@/lib/domain/reports/callbacks-overview";
import { limitUsage } from "@/lib/domain/reports/limit-usage";
import { paymentsOverview } from "@/lib/domain/reports/payments-overview";
import { ConsoleCallbacksOverview, ConsoleDeliveryPage, ConsoleLimitUsage, ConsolePaymentsOverview } from "@/lib/contract/schemas/console/views";
import type { z } from "zod";

/** What a chart's poll reads of `value` (components/console/use-polled.ts): its JSON through the page's schema. */
const polled = <S extends z.ZodType>(schema: S, value: unknown) => schema.parse(JSON.parse(JSON.stringify(value)));

// The console charts' data (docs/guides/console-for-operators.md "Console tour"), fed with known payments and deliveries through the running service
// and read by the chart services from the counters the triggers keep.

const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const merchantActor = (m: TestMerchant): ConsoleActor => ({ id: m.owner.id, username: m.owner.username, role: "MERCHANT", merchantId: m.merchant.id });
const operator: ConsoleActor = { id: "00000000-0000-0000-0000-000000000001", username: "chart-operator", role: "OPERATOR", merchantId: null };
const today = () => dubaiDay();
const yesterday = () => dubaiDay(new Date(Date.now() - 86_400_000));

async function create(m: TestMerchant, over: Record<string, unknown>) {
  const res = await m.api("/v1/payments", { body: depositBody(over) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const complete = (m: TestMerchant, id: string, outcome: "SUCCEEDED" | "FAILED") => m.api(`/v1/sandbox/payments/${id}/complete`, { body: { outcome } });

describe("payments chart", () => {
  it("counts per day by outcome, the success rate, volume per currency and as charged in AED, today against last week; compaction changes nothing", async () => {
    const m = await newMerchant();
    const usd1 = await create(m, { amount: "100.00", currency: "USD" });
    const usd2 = await create(m, { amount: "7.00", currency: "USD" });
    await create(m, { amount: "3.00", currency: "USD" }); // stays pending
    const aed = await create(m, { amount: "50.00", currency: "AED" });
    const late = await create(m, { amount: "9.00", currency: "USD" });
    const old = await create(m, { amount: "20.00", currency: "USD" });
    expect((await complete(m, usd1.id, "SUCCEEDED")).status).toBe(200);
    expect((await complete(m, usd2.id, "FAILED")).status).toBe(200);
    expect((await complete(m, aed.id, "SUCCEEDED")).status).toBe(200);
    expect((await complete(m, old.id, "SUCCEEDED")).status).toBe(200);
    // One expires (the service's sweep), one moves to yesterday (a statement-level update of created_at).
    await db.payment.update({ where: { id: late.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await eventually(async () => (await db.payment.findUniqueOrThrow({ where: { id: late.id } })).status === "EXPIRED");
    await db.$executeRaw`UPDATE payments SET created_at = created_at - interval '1 day' WHERE id = ${old.id}::uuid`;

    const check = async () => {
      const o = await paymentsOverview(db, merchantActor(m));
      expect(o.merchantId).toBe(m.merchant.id);
      expect(o.days).toHaveLength(30);
      expect(o.days.at(-1)).toBe(today());
      expect(o.outcomes.at(-1)).toEqual({ day: today(), succeeded: 2, failed: 1, expired: 1, pending: 1, cancelled: 0, total: 5, successRate: 0.5 });
      expect(o.outcomes.at(-2)).toMatchObject({ day: yesterday(), succeeded: 1, total: 1, successRate: 1 });
      expect(o.currencies).toEqual(["AED", "USD"]);
      expect(o.volume.at(-1)).toEqual({ day: today(), chargedAed: "50.00", byCurrency: { AED: "50.00", USD: "100.00" } });
      expect(o.volume.at(-2)).toEqual({ day: yesterday(), chargedAed: "0.00", byCurrency: { AED: "0.00", USD: "20.00" } });
      expect(o.today).toEqual({ day: today(), payments: 5, succeeded: 2, chargedAed: "50.00" });
      expect(o.lastWeek).toEqual({ day: dubaiDay(new Date(Date.now() - 7 * 86_400_000)), payments: 0, succeeded: 0, chargedAed: "0.00" });
    };
    await check();
    await compactPaymentCounts(db);
    await check();
    // An operator choosing this merchant sees the same; another merchant's user sees only its own.
    expect((await paymentsOverview(db, operator, { merchantId: m.merchant.id })).outcomes.at(-1)!.total).toBe(5);
    const other = await newMerchant();
    expect((await paymentsOverview(db, merchantActor(other), { merchantId: m.merchant.id })).outcomes.at(-1)!.total).toBe(0);
  });

  it("the AED charge of a payment charged in AED is its snapshot's gateway figure", async () => {
    const m = await newMerchant();
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "USD",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "AED",
      settlementCurrency: "USD",
      markupBps: 0,
      bufferBps: 0,
      commissionBps: 100,
      reason: "test: USD charged in AED",
    });
    const p = await create(m, { amount: "10.00", currency: "USD" });
    expect((await complete(m, p.id, "SUCCEEDED")).status).toBe(200);
    const o = await paymentsOverview(db, merchantActor(m));
    expect(polled(ConsolePaymentsOverview, o), "the page's schema reads the answer unchanged").toEqual(o);
    expect(o.volume.at(-1)).toEqual({
      day: today(),
      chargedAed: (BigInt(p.pricing.gateway) / 100n).toString() + "." + (BigInt(p.pricing.gateway) % 100n).toString().padStart(2, "0"),
      byCurrency: { USD: "10.00" },
    });
  });
});

describe("payments made under a moved sandbox clock", () => {
  it("count once, on the Dubai day they were recorded, in the charts, today's figures and the console list of that day; the API's from/to keep the sandbox day", async () => {
    const m = await newMerchant();
    const real = [await create(m, { amount: "10.00", currency: "AED" }), await create(m, { amount: "1.00", currency: "AED" })];
    expect((await complete(m, real[0].id, "SUCCEEDED")).status).toBe(200);
    const moved = await m.api("/v1/sandbox/clock/advance", { body: { by: "35d" } });
    expect(moved.status, moved.text).toBe(200);
    const ahead = [await create(m, { amount: "20.00", currency: "AED" }), await create(m, { amount: "2.00", currency: "AED" })];
    expect((await complete(m, ahead[0].id, "SUCCEEDED")).status).toBe(200);
    const sandboxDay = dubaiDay(new Date(Date.parse(ahead[0].createdAt)));
    expect(sandboxDay > today(), "created at the sandbox time, 35 days ahead").toBe(true);

    const check = async () => {
      const o = polled(ConsolePaymentsOverview, await paymentsOverview(db, merchantActor(m)));
      // The pending payment made before the move expired by it; the one made ahead is still pending.
      expect(o.today).toEqual({ day: today(), payments: 4, succeeded: 2, chargedAed: "30.00" });
      expect(o.outcomes.at(-1)).toMatchObject({ day: today(), succeeded: 2, expired: 1, pending: 1, total: 4 });
      expect(
        o.outcomes.reduce((n, d) => n + d.total, 0),
        "each payment once over the 30 days",
      ).toBe(4);
      expect(o.volume.at(-1)).toEqual({ day: today(), chargedAed: "30.00", byCurrency: { AED: "30.00" } });
      // The list behind today's bar (the console's payments of that day): the same four, and its total says so.
      const list = await listConsolePayments(db, merchantActor(m), ListPaymentsQuery.parse({ from: today(), to: today(), limit: "100" }));
      expect(list.total).toBe(4);
      expect(list.items.map((p) => p.id).sort()).toEqual([...real, ...ahead].map((p) => p.id).sort());
      const succeeded = await listConsolePayments(db, merchantActor(m), ListPaymentsQuery.parse({ from: today(), to: today(), status: "SUCCEEDED" }));
      expect([succeeded.total, succeeded.items.length]).toEqual([2, 2]);
      expect((await listConsolePayments(db, merchantActor(m), ListPaymentsQuery.parse({ from: sandboxDay, to: sandboxDay }))).total).toBe(0);
      // The merchant API's from/to are days of createdAt, the merchant's clock: the two made ahead are on the sandbox day.
      const api = await m.api(`/v1/payments?from=${sandboxDay}&to=${sandboxDay}`);
      expect([api.body.total, api.body.items.length]).toEqual([2, 2]);
    };
    await check();
    await compactPaymentCounts(db);
    await check();
  });
});

describe("callbacks chart", () => {
  it("outcomes per day (first attempt, after retries, FAILED, NOT_CONFIGURED), latency percentiles and the backlog", async () => {
    const m = await newMerchant();
    // Without an address: NOT_CONFIGURED.
    const a = await create(m, {});
    expect((await complete(m, a.id, "SUCCEEDED")).status).toBe(200);
    await eventually(async () => (await db.delivery.findFirst({ where: { merchantId: m.merchant.id, state: "NOT_CONFIGURED" } })) !== null);
    // With an accepting receiver: delivered at the first attempt.
    const rx = await startReceiver();
    receivers.push(rx);
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const b = await create(m, {});
    expect((await complete(m, b.id, "FAILED")).status).toBe(200);
    await rx.waitFor(1);
    await eventually(async () => (await db.delivery.findFirst({ where: { merchantId: m.merchant.id, state: "SUCCEEDED" } })) !== null);
    // A delivery that succeeds on its third attempt, one that fails for good, and one waiting (the backlog): set
    // directly, as the delivery job would leave them.
    const c = await create(m, {});
    expect((await complete(m, c.id, "SUCCEEDED")).status).toBe(200);
    const dc = await eventually(() => db.delivery.findFirst({ where: { event: { paymentId: c.id } } }));
    await eventually(async () => (await db.delivery.findUniqueOrThrow({ where: { id: dc.id } })).state === "SUCCEEDED");
    await db.$executeRaw`UPDATE deliveries SET state = 'PENDING' WHERE id = ${dc.id}::uuid`;
    await db.$executeRaw`UPDATE deliveries SET state = 'SUCCEEDED', attempt_count = 3 WHERE id = ${dc.id}::uuid`;
    await db.$executeRaw`UPDATE deliveries SET state = 'PENDING', attempt_count = 8, next_attempt_at = now() + interval '1 day' WHERE id = ${dc.id}::uuid`;
    await db.$executeRaw`UPDATE deliveries SET state = 'FAILED' WHERE id = ${dc.id}::uuid`;
    await db.$executeRaw`UPDATE deliveries SET state = 'PENDING', next_attempt_at = now() + interval '1 day' WHERE id = ${dc.id}::uuid`;

    const o = await callbacksOverview(db, merchantActor(m));
    expect(polled(ConsoleCallbacksOverview, o), "the page's schema reads the answer unchanged").toEqual(o);
    expect(o.outcomes.at(-1)).toEqual({ day: today(), firstAttempt: 2, afterRetries: 1, listener: 0, failed: 1, notConfigured: 1 });
    const latency = o.latency.at(-1)!;
    expect(latency.delivered).toBe(3);
    expect(latency.p50Ms).toBeGreaterThan(0);
    expect(latency.p95Ms!).toBeGreaterThanOrEqual(latency.p50Ms!);
    expect(o.backlog.pending).toBe(1);
    expect(o.backlog.byMerchant).toEqual([]);
    const all = await callbacksOverview(db, operator);
    expect(all.backlog.byMerchant.find((x) => x.merchantId === m.merchant.id)).toEqual({ merchantId: m.merchant.id, name: m.merchant.name, pending: 1 });
    await db.$executeRaw`UPDATE deliveries SET state = 'FAILED', next_attempt_at = NULL WHERE id = ${dc.id}::uuid`;
  });
});

describe("callbacks chart under a moved sandbox clock", () => {
  it("measures latency on the real clock, from the event's recording to the 2xx answer, not from its sandbox createdAt", async () => {
    const m = await newMerchant();
    expect((await m.api("/v1/sandbox/clock/advance", { body: { by: "2h" } })).status).toBe(200);
    const rx = await startReceiver();
    receivers.push(rx);
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const p = await create(m, {});
    expect((await complete(m, p.id, "SUCCEEDED")).status).toBe(200);
    const delivery = await eventually(() => db.delivery.findFirst({ where: { event: { paymentId: p.id }, state: "SUCCEEDED" }, include: { event: true } }));
    const realMs = delivery.deliveredAt!.getTime() - delivery.event.recordedAt!.getTime();
    expect(delivery.event.createdAt.getTime() - delivery.event.recordedAt!.getTime(), "the event carries the sandbox time").toBeGreaterThan(3_600_000);
    const rows = await db.$queryRaw<{ bucket: number; n: bigint }[]>`SELECT bucket, n FROM delivery_latency_stats WHERE merchant_id = ${m.merchant.id}::uuid`;
    expect(rows.map((r) => [r.bucket, Number(r.n)])).toEqual([[Math.min(40, Math.max(0, Math.floor(Math.log2(Math.max(realMs, 1))))), 1]]);
  });
});

describe('callbacks chart: events a listener delivered (docs/callbacks.md "Forwards on the service")', () => {
  const forward = (eventId: string, forwardId: string, attempt: number, statusCode: number | null) => ({
    eventId,
    forwardId,
    cursor: "1",
    kind: "event",
    attempt,
    startedAt: new Date(Date.now() + attempt).toISOString(),
    durationMs: 3,
    statusCode,
    error: statusCode === null ? "ECONNREFUSED" : null,
    forwardTo: "http://localhost:4000/hook",
    timestamp: String(Math.floor(Date.now() / 1000)),
    signature: "ab".repeat(32),
    responseSnippet: null,
    nextAttemptAt: null,
  });
  const eventOf = async (paymentId: string) => (await eventually(() => db.event.findFirst({ where: { paymentId } }))).id;

  it("count as received through the listener, not as NOT_CONFIGURED or FAILED, whichever comes first; once per event", async () => {
    const m = await newMerchant();
    const [a, b, c, d] = [await create(m, {}), await create(m, {}), await create(m, {}), await create(m, {})];
    for (const p of [a, b, c, d]) expect((await complete(m, p.id, "SUCCEEDED")).status).toBe(200);
    await eventually(async () => (await db.delivery.count({ where: { merchantId: m.merchant.id, state: "NOT_CONFIGURED" } })) === 4);
    const [ea, eb, ec, ed] = [await eventOf(a.id), await eventOf(b.id), await eventOf(c.id), await eventOf(d.id)];
    const forwardToken = await forwardTokenOf(m.key);
    const report = async (forwards: unknown[]) => {
      const res = await m.api("/v1/events/forwards", { body: { forwardToken, forwards } });
      expect(res.status, res.text).toBe(200);
    };
    // a: the delivery ended NOT_CONFIGURED first, then a listener got a 2xx after a refused attempt: the count moves.
    await report([forward(ea, "2c1f6c6e-8d0a-4d59-9a53-3c2f1f0d9a01", 1, null), forward(ea, "2c1f6c6e-8d0a-4d59-9a53-3c2f1f0d9a01", 2, 200)]);
    // b: two 2xx (a redelivery as well) in one batch, and a third later: it moves once.
    await report([forward(eb, "2c1f6c6e-8d0a-4d59-9a53-3c2f1f0d9a02", 1, 200), forward(eb, "2c1f6c6e-8d0a-4d59-9a53-3c2f1f0d9a03", 1, 204)]);
    await report([forward(eb, "2c1f6c6e-8d0a-4d59-9a53-3c2f1f0d9a04", 1, 200)]);
    // c: only errors: it stays NOT_CONFIGURED.
    await report([forward(ec, "2c1f6c6e-8d0a-4d59-9a53-3c2f1f0d9a05", 1, 500)]);
    // d: the listener delivered before the delivery ended FAILED (as the delivery job leaves it): counted once, as listener.
    await db.$executeRaw`UPDATE deliveries SET state = 'PENDING' WHERE event_id = ${ed}::uuid`;
    await report([forward(ed, "2c1f6c6e-8d0a-4d59-9a53-3c2f1f0d9a06", 1, 200)]);
    await db.$executeRaw`UPDATE deliveries SET state = 'FAILED', attempt_count = 8 WHERE event_id = ${ed}::uuid`;

    const o = await callbacksOverview(db, merchantActor(m));
    // notConfigured 2: c, and d's first outcome (a requeue leaves an outcome counted, as for every delivery).
    expect(o.outcomes.at(-1)).toEqual({ day: today(), firstAttempt: 0, afterRetries: 0, listener: 3, failed: 0, notConfigured: 2 });
    // The bars' lists: the listener's three, and the one NOT_CONFIGURED that no listener delivered.
    const paymentsOf = async (filters: Record<string, string>) =>
      (await deliveryPage(db, merchantActor(m), DeliveryFilters.parse(filters))).items.map((x) => x.paymentId).sort();
    expect(await paymentsOf({ path: "listener", endedOn: today() })).toEqual([a.id, b.id, d.id].sort());
    expect(await paymentsOf({ state: "NOT_CONFIGURED", path: "address", endedOn: today() })).toEqual([c.id]);
    expect(await paymentsOf({ state: "FAILED", path: "address" })).toEqual([]);
    // Another merchant's chart is untouched.
    const other = await newMerchant();
    expect((await callbacksOverview(db, merchantActor(other))).outcomes.at(-1)!.listener).toBe(0);
  });
});

describe("the deliveries behind a callbacks bar", () => {
  it("filter by state, the Dubai day the deliveries ended on, and first attempt or retried; a malformed filter is ignored", async () => {
    const m = await newMerchant();
    const rx = await startReceiver();
    receivers.push(rx);
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const first = await create(m, {});
    const retried = await create(m, {});
    expect((await complete(m, first.id, "SUCCEEDED")).status).toBe(200);
    expect((await complete(m, retried.id, "FAILED")).status).toBe(200);
    await rx.waitFor(2);
    await eventually(async () => (await db.delivery.count({ where: { merchantId: m.merchant.id, state: "SUCCEEDED" } })) === 2);
    // As the delivery job leaves a delivery that succeeded at its third attempt.
    await db.$executeRaw`UPDATE deliveries SET attempt_count = 3 WHERE event_id IN (SELECT id FROM events WHERE payment_id = ${retried.id}::uuid)`;

    const actor = merchantActor(m);
    const paymentsOf = async (filters: Record<string, string>) => {
      const page = await deliveryPage(db, actor, DeliveryFilters.parse(filters));
      expect(polled(ConsoleDeliveryPage, page), "the page's schema reads the answer unchanged").toEqual(page);
      return page.items.map((d) => d.paymentId);
    };
    expect(await paymentsOf({ state: "SUCCEEDED", endedOn: today(), attempts: "first" })).toEqual([first.id]);
    expect(await paymentsOf({ state: "SUCCEEDED", endedOn: today(), attempts: "retried" })).toEqual([retried.id]);
    expect(await paymentsOf({ state: "SUCCEEDED", endedOn: yesterday() })).toEqual([]);
    expect((await paymentsOf({ state: "SUCCEEDED", endedOn: "2026-13-40", attempts: "sometimes" })).sort()).toEqual([first.id, retried.id].sort());
    expect(await paymentsOf({ state: "FAILED", endedOn: today() })).toEqual([]);
  });
});

describe("limit chart", () => {
  it("each profile's use of its daily and monthly limits from the limit counters", async () => {
    const m = await newMerchant();
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "EUR",
      channel: "BANK_TRANSFER",
      direction: "WITHDRAWAL",
      chargeCurrency: "EUR",
      settlementCurrency: "EUR",
      markupBps: 0,
      bufferBps: 0,
      commissionBps: 0,
      dailyLimitMinor: 100_000n,
      monthlyLimitMinor: 500_000n,
      reason: "test: limits",
    });
    await create(m, { amount: "250.00", currency: "EUR", method: "BANK_TRANSFER", direction: "WITHDRAWAL" });
    const u = await limitUsage(db, merchantActor(m));
    expect(polled(ConsoleLimitUsage, u), "the page's schema reads the answer unchanged").toEqual(u);
    expect(u.profiles).toEqual([
      expect.objectContaining({
        merchantId: m.merchant.id,
        label: "EUR bank-transfer withdrawals",
        currency: "EUR",
        channel: "BANK_TRANSFER",
        direction: "WITHDRAWAL",
        daily: { used: "250.00", limit: "1000.00", ratio: 0.25 },
        monthly: { used: "250.00", limit: "5000.00", ratio: 0.05 },
      }),
    ]);
  });
});

describe("chart routes", () => {
  it("answer 401 without a console session", async () => {
    for (const chart of ["payments", "callbacks", "limits"]) {
      const res = await fetch(`${baseUrl()}/api/console/reports/${chart}`);
      expect(res.status, chart).toBe(401);
      const body = await res.json();
      expect(body.error).toMatchObject({ code: "SESSION_REQUIRED", requestId: res.headers.get("x-request-id") });
      expect(body.error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
