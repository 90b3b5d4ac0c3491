import { afterEach, describe, expect, it, vi } from "vitest";
import { auditOf, actorOf, inTx, newOperator, pricingForm, refusal } from "../support/console";
import { db, depositBody, newMerchant } from "../support/fixtures";
import { assertMerchantAccess } from "@/lib/domain/auth/actor";
import { configureCallback, requeueFromConsole } from "@/lib/domain/callbacks/manage-callbacks";
import { getKey, listKeys, revokeKey } from "@/lib/domain/keys/manage-keys";
import { requestAllowedIp } from "@/lib/domain/merchants/allow-list";
import { getMerchant, activateMerchant } from "@/lib/domain/merchants/manage-merchants";
import { approvalQueue, approveFromConsole, getPaymentView, listConsolePayments } from "@/lib/domain/payments/payment-views";
import { saveProfileVersion, PricingVersionInput } from "@/lib/domain/pricing/profile-versions";
import { saveRate } from "@/lib/domain/pricing/fx-rates";
import { setIntake } from "@/lib/domain/settings/intake";
import { createUser } from "@/lib/domain/users/manage-users";
import { ListPaymentsQuery } from "@/lib/contract/schemas/api/payments";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { realInstant, systemNow } from "@/lib/platform/clock";

const withdrawal = () => depositBody({ method: "BANK_TRANSFER", direction: "WITHDRAWAL" });

describe("console: a MERCHANT user sees and changes only its own merchant", () => {
  it("another merchant's payment, key and merchant answer NOT_FOUND; lists never include them", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const paymentA = (await a.api("/v1/payments", { body: depositBody() })).body;
    await b.api("/v1/payments", { body: depositBody() });
    const userB = actorOf(b.owner);

    expect(await refusal(getPaymentView(db, userB, paymentA.id))).toMatchObject({ code: "NOT_FOUND" });
    expect(await refusal(getKey(db, userB, a.keyId))).toMatchObject({ code: "NOT_FOUND" });
    expect(await refusal(getMerchant(db, userB, a.merchant.id))).toMatchObject({ code: "NOT_FOUND" });
    expect(() => assertMerchantAccess(userB, a.merchant.id)).toThrow("not found");
    // Asking for merchant A's list as a MERCHANT user of B still gives B's own payments only.
    const list = await listConsolePayments(db, userB, ListPaymentsQuery.parse({ limit: "100" }), a.merchant.id);
    expect(list.items.length).toBeGreaterThan(0);
    expect(new Set(list.items.map((p) => p.merchantId))).toEqual(new Set([b.merchant.id]));
    const keys = await listKeys(db, userB, { page: 1, limit: 100, merchantId: a.merchant.id });
    expect(new Set(keys.items.map((k) => k.merchantId))).toEqual(new Set([b.merchant.id]));

    // Changes are refused the same way, and nothing changes.
    expect(await refusal(inTx((tx) => revokeKey(tx, userB, { keyId: a.keyId })))).toMatchObject({ code: "NOT_FOUND" });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: a.keyId } })).revokedAt).toBeNull();
    expect(await refusal(inTx((tx) => requestAllowedIp(tx, userB, { merchantId: a.merchant.id, address: "203.0.113.9" })))).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await refusal(inTx((tx) => approveFromConsole(tx, userB, { paymentId: paymentA.id, now: systemNow() })))).toMatchObject({ code: "NOT_FOUND" });

    // An operator sees both.
    const operator = await newOperator();
    expect((await getPaymentView(db, operator, paymentA.id)).payment.id).toBe(paymentA.id);
  });

  it("operator-only changes are refused with FORBIDDEN for a MERCHANT user", async () => {
    const m = await newMerchant();
    const user = actorOf(m.owner);
    const pricing = PricingVersionInput.parse(pricingForm(m.merchant.id, { reason: "raise my own price?" }));
    const day = dubaiDay();
    const attempts = [
      () => inTx((tx) => saveProfileVersion(tx, user, pricing)),
      () => inTx((tx) => saveRate(tx, user, { base: "USD", quote: "TRY", day, rate: "1", reason: "nope" })),
      () => inTx((tx) => activateMerchant(tx, user, { merchantId: m.merchant.id, reason: "" })),
      () => inTx((tx) => setIntake(tx, user, { intakePaused: true, pausedChannels: [], reason: "nope" })),
      () => inTx((tx) => createUser(tx, user, { username: "sneaky-operator", password: "x".repeat(12), role: "OPERATOR" })),
    ];
    for (const attempt of attempts) expect(await refusal(attempt())).toMatchObject({ code: "FORBIDDEN" });
    expect(await db.pricingProfile.count({ where: { merchantId: m.merchant.id } })).toBe(0);
    expect(await db.consoleUser.count({ where: { username: "sneaky-operator" } })).toBe(0);
  });
});

describe("console: withdrawal approval", () => {
  it("the key's owner cannot approve; another user of the merchant approves (PENDING, approvedAt, audit row)", async () => {
    const m = await newMerchant();
    const created = (await m.api("/v1/payments", { body: withdrawal() })).body;
    const owner = actorOf(m.owner);
    const approver = actorOf(m.approver);

    const queueForOwner = await approvalQueue(db, owner, 1);
    expect(queueForOwner.items.find((i) => i.id === created.id)?.refusal).toMatch(/you created this withdrawal/);
    expect((await approvalQueue(db, approver, 1)).items.find((i) => i.id === created.id)?.refusal).toBeNull();

    const refused = await refusal(inTx((tx) => approveFromConsole(tx, owner, { paymentId: created.id, now: systemNow() })));
    expect(refused).toMatchObject({ code: "INVALID_STATE" });
    expect(refused.message).toMatch(/another user must approve it/);
    expect((await db.payment.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("PENDING_APPROVAL");

    const approved = await inTx((tx) => approveFromConsole(tx, approver, { paymentId: created.id, now: systemNow() }));
    expect(approved.status).toBe("PENDING");
    expect(approved.approvedAt).not.toBeNull();
    expect(approved.approvedById).toBe(m.approver.id);
    const [audit] = await auditOf(created.id);
    expect(audit).toMatchObject({ action: "payment.approve", actorId: m.approver.id, actorName: m.approver.username, merchantId: m.merchant.id });
    expect(audit?.before).toMatchObject({ status: "PENDING_APPROVAL", approvedAt: null });
    expect(audit?.after).toMatchObject({ status: "PENDING" });

    expect(await refusal(inTx((tx) => approveFromConsole(tx, approver, { paymentId: created.id, now: systemNow() })))).toMatchObject({ code: "INVALID_STATE" });
    const done = await m.api(`/v1/sandbox/payments/${created.id}/complete`, { body: { outcome: "SUCCEEDED" } });
    expect(done.body.status).toBe("SUCCEEDED");
  });

  it("an expired withdrawal cannot be approved, and a refused approval writes no audit row", async () => {
    const m = await newMerchant();
    const created = (await m.api("/v1/payments", { body: withdrawal() })).body;
    const later = realInstant(Date.parse(created.expiresAt) + 1000); // no moved clock: its sandbox time is the real time
    const refused = await refusal(inTx((tx) => approveFromConsole(tx, actorOf(m.approver), { paymentId: created.id, now: later })));
    expect(refused.message).toMatch(/approval period has ended/);
    expect(await auditOf(created.id)).toHaveLength(0);
  });

  it("an operator may approve any merchant's withdrawal", async () => {
    const m = await newMerchant();
    const created = (await m.api("/v1/payments", { body: withdrawal() })).body;
    const approved = await inTx(async (tx) => approveFromConsole(tx, await newOperator(), { paymentId: created.id, now: systemNow() }));
    expect(approved.status).toBe("PENDING");
  });
});

describe("console: callbacks", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("setting the address is audited without the secret; a MERCHANT user's requeue touches only its own deliveries", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    for (const m of [a, b]) {
      const p = (await m.api("/v1/payments", { body: depositBody() })).body;
      await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "FAILED" } });
    }
    // The lib runs in this process: allow loopback receivers here as the test service does.
    vi.stubEnv("CALLBACK_ALLOW_LOOPBACK", "1");
    const userA = actorOf(a.owner);
    expect(await refusal(inTx((tx) => configureCallback(tx, userA, { merchantId: b.merchant.id, url: "http://127.0.0.1:9/hook" })))).toMatchObject({
      code: "NOT_FOUND",
    });
    const refused = await refusal(inTx((tx) => configureCallback(tx, userA, { merchantId: a.merchant.id, url: "https://10.1.2.3/hook" })));
    expect(refused).toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await db.merchant.findUniqueOrThrow({ where: { id: a.merchant.id } })).callbackUrl).toBeNull();

    // Port 9 (discard) on loopback: deliveries fail fast, which is enough here.
    const secret = await inTx((tx) => configureCallback(tx, userA, { merchantId: a.merchant.id, url: "http://127.0.0.1:9/hook" }));
    expect(secret).toMatch(/^whsec_/);
    const audit = (await auditOf(a.merchant.id)).find((r) => r.action === "merchant.callback_url")!;
    expect(audit.after).toMatchObject({ callbackUrl: "http://127.0.0.1:9/hook", secretRotated: true });
    expect(JSON.stringify(audit)).not.toContain(secret);

    // Merchant B also has an address, so only scoping keeps its delivery out of A's requeue.
    await db.merchant.update({ where: { id: b.merchant.id }, data: { callbackUrl: "http://127.0.0.1:9/b", callbackSecret: "whsec_b" } });
    const requeued = await inTx((tx) => requeueFromConsole(tx, userA, { merchantId: b.merchant.id }));
    expect(requeued).toBe(1);
    expect((await db.delivery.findFirstOrThrow({ where: { merchantId: b.merchant.id } })).state).toBe("NOT_CONFIGURED");
    expect((await db.delivery.findFirstOrThrow({ where: { merchantId: a.merchant.id } })).state).not.toBe("NOT_CONFIGURED");
    const requeueAudit = await db.auditLog.findFirstOrThrow({ where: { merchantId: a.merchant.id, action: "delivery.requeue_all" } });
    expect(requeueAudit.after).toEqual({ requeued: 1 });
  });
});
