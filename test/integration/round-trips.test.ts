import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { TEST_DATABASE_URL } from "../support/env";
import { call, db, depositBody, newMerchant, savePricingVersion, type TestMerchant } from "../support/fixtures";
import { startService, stopService, type StartedService } from "../support/global-setup";
import { TcpProxy } from "../support/tcp-proxy";

// docs/architecture.md "Hot paths": a create makes at most two database round trips (one read with the key, one
// write), a read by id and a list one each. A service of its own reaches PostgreSQL through a proxy that counts the
// round trips its requests ask for (jobs off, and the request log off: its batched writes run beside the requests,
// not in them, and bench/on-off.ts --feature request-log measures them).

const target = { host: new URL(TEST_DATABASE_URL).hostname, port: Number(new URL(TEST_DATABASE_URL).port || 5432) };
let proxy: TcpProxy;
let svc: StartedService;
let m: TestMerchant;

beforeAll(async () => {
  proxy = await TcpProxy.start(target);
  svc = await startService({
    DATABASE_URL: proxy.urlFor(TEST_DATABASE_URL),
    TRUSTED_PROXIES: "127.0.0.1,::1",
    JOBS_DISABLED: "1",
    REQUEST_LOG: "0",
    DB_POOL_MAX: "2",
  });
  m = await newMerchant();
  // Everything a create can touch: a profile with limits, a velocity rule on the customer's e-mail.
  await savePricingVersion(db, {
    merchantId: m.merchant.id,
    currency: "USD",
    channel: "BANK_TRANSFER",
    direction: "DEPOSIT",
    chargeCurrency: "USD",
    settlementCurrency: "USD",
    commissionBps: 100,
    dailyLimitMinor: 100_000_000n,
    monthlyLimitMinor: 1_000_000_000n,
    reason: "test",
  });
  await db.riskRule.create({ data: { merchantId: m.merchant.id, kind: "COUNT", subject: "EMAIL", windowSeconds: 3600, maxCount: 100, reason: "test" } });
  expect((await api("/v1/payments?limit=1")).status).toBe(200); // warm-up: the key's last use is written once a minute
}, 120_000);

afterAll(async () => {
  await stopService(svc?.child);
  await proxy?.close();
});

function api(path: string, opts: { body?: Record<string, unknown>; idempotencyKey?: string } = {}) {
  return call(path, { base: svc.url, key: m.key, ip: m.ip, ...opts });
}

/** The response of `request` and the database round trips it took. */
async function counted<T>(request: () => Promise<T>): Promise<[T, number]> {
  proxy.roundTrips = 0;
  const result = await request();
  return [result, proxy.roundTrips];
}

describe("database round trips per request", () => {
  const body = depositBody({ method: "BANK_TRANSFER", customer: { email: "buyer@example.com" } });
  const key = `trips-${randomUUID()}`;
  let id = "";

  it("a bank-transfer deposit with pricing limits, a velocity rule and bank routing: two (one read, one write)", async () => {
    const [res, trips] = await counted(() => api("/v1/payments", { body, idempotencyKey: key }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.bankAccountId).toMatch(/^[0-9a-f-]{36}$/);
    expect(trips).toBe(2);
    id = res.body.id;
    // Everything was written by the one statement.
    const counters = await db.limitCounter.findMany({ where: { profileId: res.body.pricing.ruleId } });
    expect(counters.map((c) => c.usedMinor)).toEqual([BigInt(body.amount.replace(".", "")), BigInt(body.amount.replace(".", ""))]);
    const rule = await db.riskRule.findFirstOrThrow({ where: { merchantId: m.merchant.id } });
    expect((await db.riskCounter.findMany({ where: { ruleId: rule.id } })).map((c) => c.n)).toEqual([1]);
    expect(await db.idempotencyRecord.count({ where: { merchantId: m.merchant.id, key } })).toBe(1);
  });

  it("its replay: one", async () => {
    const [res, trips] = await counted(() => api("/v1/payments", { body, idempotencyKey: key }));
    expect([res.status, res.headers.get("idempotency-replayed"), res.body.id]).toEqual([201, "true", id]);
    expect(trips).toBe(1);
  });

  it("a refusal by a bound (the daily limit) writes nothing: two", async () => {
    const [res, trips] = await counted(() => api("/v1/payments", { body: depositBody({ method: "BANK_TRANSFER", amount: "1000000.00" }) }));
    expect([res.status, res.body.error?.code]).toEqual([409, "DAILY_LIMIT"]);
    expect(trips).toBe(2);
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(1);
  });

  it("a read by id: one; a filtered list with its total: one", async () => {
    const [read, readTrips] = await counted(() => api(`/v1/payments/${id}`));
    expect([read.status, read.body.id]).toEqual([200, id]);
    expect(readTrips).toBe(1);
    const [list, listTrips] = await counted(() => api("/v1/payments?status=PENDING&method=BANK_TRANSFER&limit=10"));
    expect([list.status, list.body.total, list.body.items.map((p: { id: string }) => p.id)]).toEqual([200, 1, [id]]);
    expect(listTrips).toBe(1);
  });

  it("statements are prepared once per connection: a warm create sends the names and values of its two statements, not their text", async () => {
    // The pool has two connections: after a few creates each has parsed the create's read and write.
    for (let i = 0; i < 4; i++) expect((await api("/v1/payments", { body: depositBody({ customer: { email: "buyer@example.com" } }) })).status).toBe(201);
    proxy.parsed = [];
    const [res, trips] = await counted(() => api("/v1/payments", { body: depositBody({ customer: { email: "buyer@example.com" } }) }));
    expect(res.status, res.text).toBe(201);
    expect(trips).toBe(2);
    expect(proxy.parsed.filter((text) => text.includes("INSERT INTO payments") || text.includes("FROM api_keys"))).toEqual([]);
    // A statement never seen before is sent whole once: here the warm-up's first create did.
    expect((await counted(() => api("/v1/payments?currency=EUR&status=FAILED&limit=3")))[0].status).toBe(200);
    expect(proxy.parsed.some((text) => text.includes("FROM api_keys"))).toBe(true);
  });

  it("a create an enabled scenario rule matches: still two, its pending conclusion written by the same statement; its read one", async () => {
    await db.scenarioRule.create({
      data: { merchantId: m.merchant.id, name: "13.13 fails", enabled: true, position: 1, matchAmount: "13.13", outcome: "FAILED", delayMs: 60_000 },
    });
    const [res, trips] = await counted(() => api("/v1/payments", { body: depositBody({ amount: "13.13" }) }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.scenario).toMatchObject({ name: "13.13 fails", outcome: "FAILED" });
    expect(trips).toBe(2);
    expect(await db.scenarioConclusion.count({ where: { paymentId: res.body.id } })).toBe(1);
    const [read, readTrips] = await counted(() => api(`/v1/payments/${res.body.id}`));
    expect(read.body.scenario).toEqual(res.body.scenario);
    expect(readTrips).toBe(1);
  });
});

describe("under a moved sandbox clock", () => {
  it("the first create after a move reads again at the merchant's sandbox time (three), the next ones two; the same after a reset", async () => {
    const moved = await newMerchant();
    const as = (path: string, opts: { body?: Record<string, unknown> } = {}) => call(path, { base: svc.url, key: moved.key, ip: moved.ip, ...opts });
    expect((await as("/v1/payments?limit=1")).status).toBe(200); // the key's last use is written once a minute
    const create = () => counted(() => as("/v1/payments", { body: depositBody() }));
    const sandboxAhead = (payment: { createdAt: string }) => Date.parse(payment.createdAt) - Date.now();

    expect((await as("/v1/sandbox/clock/advance", { body: { by: "3d" } })).status).toBe(200);
    const [first, firstTrips] = await create();
    expect(first.status, first.text).toBe(201);
    expect(firstTrips).toBe(3);
    const [second, secondTrips] = await create();
    expect(second.status, second.text).toBe(201);
    expect(secondTrips).toBe(2);
    for (const made of [first, second]) expect(sandboxAhead(made.body)).toBeGreaterThan(3 * 86_400_000 - 60_000);

    expect((await as("/v1/sandbox/clock/reset", { body: {} })).status).toBe(200);
    const [third, thirdTrips] = await create();
    expect(third.status, third.text).toBe(201);
    expect(thirdTrips).toBe(3);
    const [fourth, fourthTrips] = await create();
    expect(fourthTrips).toBe(2);
    for (const made of [third, fourth]) expect(Math.abs(sandboxAhead(made.body))).toBeLessThan(60_000);
  });
});
