import { afterAll, describe, expect, it } from "vitest";
import type { ConsoleActor } from "@/lib/domain/auth/actor";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { savePricingVersion } from "@/lib/domain/pricing/profile-versions";
import { addRiskRule } from "@/lib/domain/risk/velocity-rules";
import { transaction } from "@/lib/platform/db";
import { approveFromConsole } from "@/lib/domain/payments/payment-views";
import { db, depositBody, eventually, newMerchant, type TestMerchant } from "../support/fixtures";
import { startReceiver } from "../support/receiver";
import { systemNow } from "@/lib/platform/clock";
import { present } from "../../scripts/harness/present";

// docs/api.md "Sandbox clock" over real HTTP against the built service: a merchant moves its sandbox time ahead and
// its payments expire, its callback retries come due, its limits and velocity windows roll over, as if the time had
// gone by; another merchant's objects and clock are untouched; a bad duration changes nothing.

const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});
const operator: ConsoleActor = { id: "00000000-0000-0000-0000-000000000001", username: "clock-operator", role: "OPERATOR", merchantId: null };
const errorOf = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];
const advance = (m: TestMerchant, by: unknown, idempotencyKey?: string) =>
  m.api("/v1/sandbox/clock/advance", { body: { by }, ...(idempotencyKey ? { idempotencyKey } : {}) });
const H = 3_600_000;

describe("the sandbox clock", () => {
  it("advance expires the merchant's due payments now (event, offset on the payment, audit row); another merchant is untouched; reset", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    const mine = (await m.api("/v1/payments", { body: depositBody() })).body;
    const theirs = (await other.api("/v1/payments", { body: depositBody() })).body;
    expect(mine.status).toBe("PENDING");
    expect((await m.api("/v1/sandbox/clock", { method: "GET" })).body).toMatchObject({ offsetMs: 0, offset: "0s" });

    const moved = await advance(m, "1d2h");
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ offsetMs: 26 * H, offset: "1d 2h", advancedByMs: 26 * H, expired: { payments: 1, checkoutSessions: 0 } });
    expect(Date.parse(moved.body.now) - Date.parse(moved.body.realNow)).toBe(26 * H);

    const read = (await m.api(`/v1/payments/${mine.id}`, { method: "GET" })).body;
    expect(read).toMatchObject({ status: "EXPIRED", sandboxClock: { offsetMs: 26 * H, offset: "1d 2h" } });
    expect(Date.parse(read.finalizedAt)).toBeGreaterThan(Date.now() + 25 * H);
    const events = await db.event.findMany({ where: { paymentId: mine.id } });
    expect(events.map((e) => e.type)).toEqual(["payment.expired"]);
    expect(await db.delivery.count({ where: { eventId: present(events?.[0], "events?.[0]").id } })).toBe(1);
    const audit = await db.auditLog.findMany({ where: { merchantId: m.merchant.id, action: "merchant.sandbox_clock" } });
    expect(audit.map((a) => [a.before, a.after])).toEqual([[{ offsetMs: 0 }, { offsetMs: 26 * H }]]);

    // Another merchant: its payment still pending, its clock not moved, its payments read as before (no sandboxClock).
    const theirsNow = (await other.api(`/v1/payments/${theirs.id}`, { method: "GET" })).body;
    expect(theirsNow.status).toBe("PENDING");
    expect(theirsNow).not.toHaveProperty("sandboxClock");
    expect((await other.api("/v1/sandbox/clock", { method: "GET" })).body.offsetMs).toBe(0);

    // A payment created now is created at the sandbox time and carries the offset.
    const later = (await m.api("/v1/payments", { body: depositBody() })).body;
    expect(Date.parse(later.createdAt)).toBeGreaterThan(Date.now() + 25 * H);
    expect(later.sandboxClock).toEqual({ offsetMs: 26 * H, offset: "1d 2h" });

    const reset = await m.api("/v1/sandbox/clock/reset", { method: "POST" });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({ offsetMs: 0, advancedByMs: 0 });
    expect((await m.api("/v1/payments", { body: depositBody() })).body).not.toHaveProperty("sandboxClock");
  });

  it("a bad duration is a 400 that changes nothing; a replay with the same key does not move the clock twice", async () => {
    const m = await newMerchant();
    for (const by of ["soon", "0h", "-2h", "2 hours", 7200, "P1Y"]) {
      const res = await advance(m, by);
      expect(errorOf(res), String(by)).toEqual([400, "VALIDATION_ERROR"]);
      expect(res.body.error.message).toMatch(/by/);
    }
    expect(errorOf(await advance(m, "600w"))).toEqual([400, "VALIDATION_ERROR"]);
    expect((await m.api("/v1/sandbox/clock", { method: "GET" })).body.offsetMs).toBe(0);
    expect(await db.auditLog.count({ where: { merchantId: m.merchant.id, action: "merchant.sandbox_clock" } })).toBe(0);

    const key = `clock-${Date.now()}`;
    const a = await advance(m, "PT90M", key);
    const b = await advance(m, "PT90M", key);
    expect(b.headers.get("idempotency-replayed")).toBe("true");
    expect(b.body).toEqual(a.body);
    expect((await m.api("/v1/sandbox/clock", { method: "GET" })).body.offsetMs).toBe(1.5 * H);
    expect((await advance(m, "30m")).body.offsetMs).toBe(2 * H);
  });

  it("daily limits and velocity windows roll over when the clock passes them", async () => {
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
      dailyLimitMinor: 30_000n,
      monthlyLimitMinor: 10_000_000n,
      reason: "test: clock limits",
    });
    const withdrawal = () =>
      m.api("/v1/payments", { body: depositBody({ amount: "200.00", currency: "EUR", method: "BANK_TRANSFER", direction: "WITHDRAWAL" }) });
    expect((await withdrawal()).status).toBe(201);
    expect(errorOf(await withdrawal())).toEqual([409, "DAILY_LIMIT"]);
    expect((await advance(m, "1d")).status).toBe(200);
    const nextDay = await withdrawal();
    expect(nextDay.status, nextDay.text).toBe(201);

    await db.$transaction((tx) =>
      addRiskRule(
        tx,
        operator,
        { merchantId: m.merchant.id, kind: "COUNT", subject: "EMAIL", windowMinutes: 60, maxCount: "1", reason: "test: clock velocity" },
        new Date(),
      ),
    );
    const customer = { email: "clock@example.com", firstName: "Clock", lastName: "Test" };
    const deposit = () => m.api("/v1/payments", { body: depositBody({ customer }) });
    expect((await deposit()).status).toBe(201);
    const refused = await deposit();
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect((await advance(m, "61m")).status).toBe(200);
    const again = await deposit();
    expect(again.status, again.text).toBe(201);
  });

  it("a withdrawal approved in the console under a moved clock is approved at the merchant's sandbox time", async () => {
    const m = await newMerchant();
    expect((await advance(m, "3d")).status).toBe(200);
    const w = (await m.api("/v1/payments", { body: depositBody({ method: "BANK_TRANSFER", direction: "WITHDRAWAL" }) })).body;
    const approver = { id: m.approver.id, username: m.approver.username, role: "MERCHANT" as const, merchantId: m.merchant.id };
    // The console's action passes the real time (lib/application/console/action.ts); the approval moves it by the merchant's offset.
    const approved = await transaction((tx) => approveFromConsole(tx, approver, { paymentId: w.id, now: systemNow() }));
    expect(approved.approvedAt!.getTime()).toBeGreaterThanOrEqual(Date.parse(w.createdAt));
    expect(approved.approvedAt!.getTime()).toBeGreaterThan(Date.now() + 71 * H);
    const done = await m.api(`/v1/sandbox/payments/${w.id}/complete`, { body: { outcome: "SUCCEEDED" } });
    expect(done.body).toMatchObject({ status: "SUCCEEDED", approvedAt: approved.approvedAt!.toISOString() });
  });

  it("a callback retry waiting for its time comes due when the clock passes it", async () => {
    const m = await newMerchant();
    const rx = await startReceiver((_r, i) => ({ status: i === 0 ? 500 : 200 }));
    receivers.push(rx);
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const p = (await m.api("/v1/payments", { body: depositBody() })).body;
    expect((await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "SUCCEEDED" } })).status).toBe(200);
    await rx.waitFor(1);
    const delivery = await eventually(async () => {
      const d = await db.delivery.findFirst({ where: { merchantId: m.merchant.id } });
      return d && d.attemptCount === 1 && d.state === "PENDING" && d.leaseUntil === null ? d : null;
    });
    expect(delivery.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 20_000); // the normal schedule: about 30 s
    const moved = await advance(m, "1m");
    expect(moved.body.deliveriesDue).toBe(1);
    await rx.waitFor(2, 5_000);
    await eventually(async () => (await db.delivery.findUniqueOrThrow({ where: { id: delivery.id } })).state === "SUCCEEDED");
    // The signature's timestamp stays the real time (a receiver checks it against its own clock).
    expect(Math.abs(Number(present(rx?.received[1], "rx?.received[1]").headers["x-service-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
  });
});
