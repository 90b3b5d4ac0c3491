import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db, depositBody, newMerchant, type TestMerchant } from "../support/fixtures";
import { sessionBody, sessionCustomer } from "../support/checkout-sessions";
import { storeBody, storeCustomer } from "../support/store";
import { pruneRiskCounters } from "@/lib/domain/risk/velocity-rules";
import { realInstant } from "@/lib/platform/clock";

// Velocity rules (docs/api.md "Errors": 403 RISK_REJECTED is a block-list entry or a velocity rule), against the
// running service: the N-th payment passes, the N+1-th is refused, the window rolls over, concurrent creates never
// pass a bound, and every create path counts.

type Rule = {
  kind: "COUNT" | "AMOUNT";
  subject: "CUSTOMER_ID" | "EMAIL" | "PHONE" | "USERNAME";
  windowSeconds: number;
  maxCount?: number;
  maxAmountMinor?: bigint;
  currency?: string;
};
const addRule = (m: TestMerchant, r: Rule) =>
  db.riskRule.create({
    data: {
      merchantId: m.merchant.id,
      kind: r.kind,
      subject: r.subject,
      windowSeconds: r.windowSeconds,
      maxCount: r.maxCount ?? null,
      maxAmountMinor: r.maxAmountMinor ?? null,
      currency: r.currency ?? null,
      reason: "test",
    },
  });
const pay = (m: TestMerchant, customer: Record<string, string>, over: Record<string, unknown> = {}) =>
  m.api("/v1/payments", { body: depositBody({ customer, ...over }) });
const codeOf = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];

describe("velocity rules", () => {
  it("COUNT per e-mail: the 3rd payment passes, the 4th is refused without revealing the bound; other customers and payments without the member pass", async () => {
    const m = await newMerchant();
    await addRule(m, { kind: "COUNT", subject: "EMAIL", windowSeconds: 3600, maxCount: 3 });
    for (const email of ["buyer@example.com", "Buyer@Example.com", "buyer@example.com"]) expect((await pay(m, { email })).status).toBe(201);
    const refused = await pay(m, { email: "BUYER@example.com" });
    expect(codeOf(refused)).toEqual([403, "RISK_REJECTED"]);
    expect(refused.body.error.message).toContain("velocity rule: too many payments for this e-mail");
    expect(refused.body.error.message).not.toMatch(/\b3\b/);
    // Nothing changed: still three payments, the counter still at three.
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(3);
    const [counter] = await db.riskCounter.findMany({ where: { ruleId: (await db.riskRule.findFirstOrThrow({ where: { merchantId: m.merchant.id } })).id } });
    expect(counter?.n).toBe(3);
    expect((await pay(m, { email: "other@example.com" })).status).toBe(201);
    expect((await pay(m, { id: "no-email" })).status).toBe(201);
  });

  it("AMOUNT per customer id in USD: up to the bound passes, one cent more is refused; other currencies and a first payment above the bound", async () => {
    const m = await newMerchant();
    await addRule(m, { kind: "AMOUNT", subject: "CUSTOMER_ID", windowSeconds: 3600, maxAmountMinor: 10_000n, currency: "USD" });
    expect((await pay(m, { id: "c-1" }, { amount: "60.00" })).status).toBe(201);
    expect((await pay(m, { id: "c-1" }, { amount: "40.00" })).status).toBe(201);
    const over = await pay(m, { id: "c-1" }, { amount: "0.01" });
    expect(codeOf(over)).toEqual([403, "RISK_REJECTED"]);
    expect(over.body.error.message).toContain("too large a total amount for this customer id");
    expect((await pay(m, { id: "c-1" }, { amount: "500.00", currency: "EUR" })).status).toBe(201);
    expect(codeOf(await pay(m, { id: "c-2" }, { amount: "100.01" }))).toEqual([403, "RISK_REJECTED"]);
    expect((await pay(m, { id: "c-2" }, { amount: "100.00" })).status).toBe(201);
  });

  it("the window rolls over: refused at the bound, accepted again in the next window", async () => {
    const m = await newMerchant();
    const windowSeconds = 3;
    await addRule(m, { kind: "COUNT", subject: "PHONE", windowSeconds, maxCount: 2 });
    // Start just after a window boundary, so the three requests fall in one window (waits on purpose: the rule's
    // window is counted in real time, which has to pass; the same below).
    const ms = windowSeconds * 1000;
    await new Promise((r) => setTimeout(r, ms - (Date.now() % ms) + 50));
    const started = Date.now();
    expect((await pay(m, { phone: "+971501234567" })).status).toBe(201);
    expect((await pay(m, { phone: "+971501234567" })).status).toBe(201);
    const refused = await pay(m, { phone: "+971501234567" });
    expect(Date.now() - started, "the three requests took less than one window").toBeLessThan(ms - 100);
    expect(codeOf(refused)).toEqual([403, "RISK_REJECTED"]);
    await new Promise((r) => setTimeout(r, ms - (Date.now() % ms) + 50));
    expect((await pay(m, { phone: "+971501234567" })).status).toBe(201);
  });

  it("20 concurrent creates against a bound of 5 give exactly 5 payments", async () => {
    const m = await newMerchant();
    const rule = await addRule(m, { kind: "COUNT", subject: "CUSTOMER_ID", windowSeconds: 3600, maxCount: 5 });
    const results = await Promise.all(Array.from({ length: 20 }, () => pay(m, { id: "burst" })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 403 && r.body.error.code === "RISK_REJECTED")).toHaveLength(15);
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(5);
    expect((await db.riskCounter.findMany({ where: { ruleId: rule.id } })).map((c) => c.n)).toEqual([5]);
  });

  it("store payments (by the stable customer reference) and checkout sessions count too; AMOUNT rules do not apply to sessions", async () => {
    const store = await newMerchant();
    await addRule(store, { kind: "COUNT", subject: "CUSTOMER_ID", windowSeconds: 3600, maxCount: 1 });
    const customer = { ...storeCustomer(), username: `buyer-${randomUUID().slice(0, 8)}` };
    delete (customer as Record<string, unknown>).id;
    expect((await store.api("/v1/store-payments", { body: storeBody({ customer }) })).status).toBe(201);
    expect(codeOf(await store.api("/v1/store-payments", { body: storeBody({ customer }) }))).toEqual([403, "RISK_REJECTED"]);

    const sessions = await newMerchant({ amountEntryEnabled: true });
    await addRule(sessions, { kind: "AMOUNT", subject: "PHONE", windowSeconds: 3600, maxAmountMinor: 1n, currency: "USD" });
    await addRule(sessions, { kind: "COUNT", subject: "PHONE", windowSeconds: 3600, maxCount: 2 });
    const phone = "+971509876543";
    for (let i = 0; i < 2; i++)
      expect((await sessions.api("/v1/checkout-sessions", { body: sessionBody({ customer: sessionCustomer({ phone }) }) })).status).toBe(201);
    const third = await sessions.api("/v1/checkout-sessions", { body: sessionBody({ customer: sessionCustomer({ phone }) }) });
    expect(codeOf(third)).toEqual([403, "RISK_REJECTED"]);
    expect(third.body.error.message).toContain("too many payments for this phone");
  });

  it("a removed rule stops applying; counters of ended windows are pruned", async () => {
    const m = await newMerchant();
    const rule = await addRule(m, { kind: "COUNT", subject: "USERNAME", windowSeconds: 3600, maxCount: 1 });
    expect((await pay(m, { username: "u1" })).status).toBe(201);
    expect(codeOf(await pay(m, { username: "u1" }))).toEqual([403, "RISK_REJECTED"]);
    await db.riskRule.update({ where: { id: rule.id }, data: { active: false } });
    expect((await pay(m, { username: "u1" })).status).toBe(201);
    expect(await db.riskCounter.count({ where: { ruleId: rule.id } })).toBe(1);
    await pruneRiskCounters(db, realInstant(Date.now() + 3600_000 + 1000));
    expect(await db.riskCounter.count({ where: { ruleId: rule.id } })).toBe(0);
  });
});
