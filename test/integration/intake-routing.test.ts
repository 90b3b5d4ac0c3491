import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { depositBody } from "../support/fixtures";
import { Dedicated, errorOf, type DedicatedMerchant } from "../support/dedicated";
import { transaction } from "@/lib/platform/db";
import type { ConsoleActor } from "@/lib/domain/auth/actor";
import { setIntake } from "@/lib/domain/settings/intake";

// Intake pauses (503 PAYMENT_INTAKE_PAUSED) and bank-transfer routing (503 NO_ROUTE, BANK_CAPACITY) on
// POST /v1/payments. Both are global to the service (operator settings, the service's bank accounts), so this
// file has its own database and service (test/support/dedicated.ts) and its tests run in order.

const env = new Dedicated("intake");
let operator: ConsoleActor;
beforeAll(async () => {
  await env.start();
  const user = await env.db.consoleUser.findFirstOrThrow({ where: { username: "operator" } });
  operator = { id: user.id, username: user.username, role: "OPERATOR", merchantId: null };
}, 180_000);
afterAll(() => env.stop());

const intake = (intakePaused: boolean, pausedChannels: ("BANK_TRANSFER" | "GATEWAY" | "STORE")[]) =>
  transaction((tx) => setIntake(tx, operator, { intakePaused, pausedChannels, reason: "test: intake" }), { db: env.db });
const create = (m: DedicatedMerchant, over: Record<string, unknown>, key = `k-${randomUUID()}`, body = depositBody(over)) =>
  m.request("/v1/payments", body, key);
const bankDeposit = { method: "BANK_TRANSFER", direction: "DEPOSIT" };
const gatewayDeposit = { method: "GATEWAY", direction: "DEPOSIT" };
const bankWithdrawal = { method: "BANK_TRANSFER", direction: "WITHDRAWAL" };

describe("intake pause (console switch, global)", () => {
  it("the system pause refuses every new payment with 503 PAYMENT_INTAKE_PAUSED; the same key and body succeed once it is lifted", async () => {
    const m = await env.merchant();
    const body = depositBody(gatewayDeposit);
    await intake(true, []);
    try {
      for (const over of [bankDeposit, gatewayDeposit, bankWithdrawal]) expect(errorOf(await create(m, over))).toEqual([503, "PAYMENT_INTAKE_PAUSED"]);
      expect(errorOf(await create(m, {}, "paused-retry", body))).toEqual([503, "PAYMENT_INTAKE_PAUSED"]);
    } finally {
      await intake(false, []);
    }
    const retry = await create(m, {}, "paused-retry", body);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotency-replayed")).toBeNull(); // the refusal was not stored as the answer
    expect(await env.db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(1);
    const audit = await env.db.auditLog.findMany({ where: { action: "settings.intake" }, orderBy: { createdAt: "asc" } });
    expect(audit.slice(-2).map((a) => (a.after as { intakePaused: boolean }).intakePaused)).toEqual([true, false]);
  });

  it("a paused channel refuses only its own payments; reads and completions go on", async () => {
    const m = await env.merchant();
    const open = await create(m, gatewayDeposit);
    expect(open.status).toBe(201);
    await intake(false, ["BANK_TRANSFER"]);
    try {
      expect(errorOf(await create(m, bankDeposit))).toEqual([503, "PAYMENT_INTAKE_PAUSED"]);
      expect(errorOf(await create(m, bankWithdrawal))).toEqual([503, "PAYMENT_INTAKE_PAUSED"]);
      expect((await create(m, gatewayDeposit)).status).toBe(201);
      expect((await m.request(`/v1/payments/${open.body.id}`)).status).toBe(200);
      const done = await m.request(`/v1/sandbox/payments/${open.body.id}/complete`, { outcome: "SUCCEEDED" });
      expect(done.body.status).toBe("SUCCEEDED");
      await intake(false, ["GATEWAY"]);
      expect(errorOf(await create(m, gatewayDeposit))).toEqual([503, "PAYMENT_INTAKE_PAUSED"]);
      expect((await create(m, bankDeposit)).status).toBe(201);
    } finally {
      await intake(false, []);
    }
  });
});

describe("bank-transfer routing (the service's bank accounts, global)", () => {
  it("503 BANK_CAPACITY when every active account is full for the Dubai day; 503 NO_ROUTE with no active account; gateway deposits and withdrawals need no account", async () => {
    const m = await env.merchant();
    const seeded = await env.db.bankAccount.findFirstOrThrow();
    const used = async () => (await env.db.bankAccountUsage.findMany({ where: { bankAccountId: seeded.id } })).reduce((n, u) => n + u.used, 0);
    await env.db.bankAccount.update({ where: { id: seeded.id }, data: { dailyCapacity: (await used()) + 2 } });
    const second = await env.db.bankAccount.create({
      data: { name: "Second", holder: "Sandpiper Sandbox FZ-LLC", iban: "AE070331234567890123999", bankName: "Sandbox Bank", dailyCapacity: 1, active: false },
    });
    try {
      const routed = [await create(m, bankDeposit), await create(m, bankDeposit)];
      expect(routed.map((r) => [r.status, r.body.bankAccountId])).toEqual([
        [201, seeded.id],
        [201, seeded.id],
      ]);
      const body = depositBody(bankDeposit);
      expect(errorOf(await create(m, {}, "capacity-retry", body))).toEqual([503, "BANK_CAPACITY"]);
      expect((await create(m, gatewayDeposit)).body.bankAccountId).toBeNull();
      expect((await create(m, bankWithdrawal)).status).toBe(201);

      // Another account opens: the merchant's retry with the same key and body is routed to it.
      await env.db.bankAccount.update({ where: { id: second.id }, data: { active: true } });
      const retry = await create(m, {}, "capacity-retry", body);
      expect([retry.status, retry.body.bankAccountId]).toEqual([201, second.id]);
      expect(errorOf(await create(m, bankDeposit))).toEqual([503, "BANK_CAPACITY"]);

      await env.db.bankAccount.updateMany({ data: { active: false } });
      expect(errorOf(await create(m, bankDeposit))).toEqual([503, "NO_ROUTE"]);
      expect((await create(m, gatewayDeposit)).status).toBe(201);
    } finally {
      await env.db.bankAccount.update({ where: { id: seeded.id }, data: { active: true, dailyCapacity: 10_000 } });
      await env.db.bankAccount.update({ where: { id: second.id }, data: { active: false } });
    }
  });

  it("concurrent deposits never exceed an account's daily capacity", async () => {
    const m = await env.merchant();
    const seeded = await env.db.bankAccount.findFirstOrThrow({ where: { active: true } });
    const used = (await env.db.bankAccountUsage.findMany({ where: { bankAccountId: seeded.id } })).reduce((n, u) => n + u.used, 0);
    await env.db.bankAccount.update({ where: { id: seeded.id }, data: { dailyCapacity: used + 3 } });
    try {
      const results = await Promise.all(Array.from({ length: 10 }, () => create(m, bankDeposit)));
      expect(results.filter((r) => r.status === 201)).toHaveLength(3);
      expect(results.filter((r) => r.status !== 201).map(errorOf)).toEqual(Array(7).fill([503, "BANK_CAPACITY"]));
    } finally {
      await env.db.bankAccount.update({ where: { id: seeded.id }, data: { dailyCapacity: 10_000 } });
    }
  });
});
