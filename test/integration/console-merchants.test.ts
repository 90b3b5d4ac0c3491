import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { auditOf, actorOf, inTx, newOperator, refusal } from "../support/console";
import { call, db, issueApiKey, newMerchant } from "../support/fixtures";
import { createKey, revokeKey } from "@/lib/domain/keys/manage-keys";
import { addAllowedIp } from "@/lib/domain/merchants/allow-list";
import {
  activateMerchant,
  activationRefusal,
  createMerchantFromConsole,
  deactivateMerchant,
  updateMerchantPolicy,
  MerchantPolicyInput,
} from "@/lib/domain/merchants/manage-merchants";
import { changeUserAccess, UserAccessInput } from "@/lib/domain/users/manage-users";
import { SCOPES } from "@/lib/domain/keys/api-keys";

const HTTPS_CALLBACK = "https://merchant.example.com/sandpiper/callbacks";

describe("console: merchant activation", () => {
  it("is refused until a server IP and an https callback address exist", async () => {
    const operator = await newOperator();
    const m = await inTx((tx) =>
      createMerchantFromConsole(tx, operator, { name: `New ${randomUUID().slice(0, 6)}`, enabledCurrencies: ["USD", "EUR"], defaultCommissionBps: 100 }),
    );
    expect(m.status).toBe("INACTIVE");
    const activate = () => inTx((tx) => activateMerchant(tx, operator, { merchantId: m.id, reason: "go live in sandbox" }));

    const none = await refusal(activate());
    expect(none.code).toBe("INVALID_STATE");
    expect(none.message).toMatch(/at least one server IP .* and an https callback address/);

    await inTx((tx) => addAllowedIp(tx, operator, { merchantId: m.id, address: "203.0.113.20" }));
    expect((await refusal(activate())).message).toMatch(/an https callback address/);

    await db.merchant.update({ where: { id: m.id }, data: { callbackUrl: "http://127.0.0.1:9/hook" } });
    expect((await refusal(activate())).message).toMatch(/the current one is http, which only local mode allows/);

    await db.merchant.update({ where: { id: m.id }, data: { callbackUrl: HTTPS_CALLBACK } });
    expect((await activate()).status).toBe("ACTIVE");
    expect((await refusal(activate())).message).toMatch(/already active/);
    expect((await auditOf(m.id)).map((a) => a.action)).toEqual(["merchant.create", "merchant.activate"]);
  });

  it("activationRefusal names every missing part", () => {
    expect(activationRefusal({ status: "INACTIVE", callbackUrl: null }, 0)).toMatch(/server IP .* and an https callback/);
    expect(activationRefusal({ status: "INACTIVE", callbackUrl: HTTPS_CALLBACK }, 1)).toBeNull();
    // Pending allow-list requests are named but do not count (only approved entries do).
    expect(activationRefusal({ status: "INACTIVE", callbackUrl: HTTPS_CALLBACK }, 0, 2)).toBe(
      "register at least one server IP address on the allow-list (2 allow-list requests wait for approval) first",
    );
    expect(activationRefusal({ status: "INACTIVE", callbackUrl: HTTPS_CALLBACK }, 1, 2)).toBeNull();
    expect(activationRefusal({ status: "ACTIVE", callbackUrl: HTTPS_CALLBACK }, 1)).toMatch(/already active/);
    // In local mode (CALLBACK_ALLOW_LOOPBACK=1) the address policy lets an http receiver on this machine be saved,
    // and activation takes it as the seed does; outside it, the same address is refused.
    expect(activationRefusal({ status: "INACTIVE", callbackUrl: "http://127.0.0.1:8080/hook" }, 1, 0, true)).toBeNull();
    expect(activationRefusal({ status: "INACTIVE", callbackUrl: "http://127.0.0.1:8080/hook" }, 1, 0, false)).toMatch(/only local mode allows/);
  });

  it("deactivation revokes every key of the merchant (401 at once) and reactivation does not bring them back", async () => {
    const operator = await newOperator();
    const m = await newMerchant({ callbackUrl: HTTPS_CALLBACK });
    const second = await issueApiKey(db, { merchantId: m.merchant.id, ownerId: m.approver.id, scopes: SCOPES });
    expect((await m.api("/v1/payments")).status).toBe(200);

    await inTx((tx) => deactivateMerchant(tx, operator, { merchantId: m.merchant.id, reason: "contract ended" }));
    const keys = await db.apiKey.findMany({ where: { merchantId: m.merchant.id } });
    expect(keys.every((k) => k.revokedAt !== null)).toBe(true);
    expect((await m.api("/v1/payments")).status).toBe(401);
    const deactivated = (await auditOf(m.merchant.id)).find((r) => r.action === "merchant.deactivate")!;
    expect(deactivated).toMatchObject({ actorId: operator.id, reason: "contract ended", before: { status: "ACTIVE" } });
    expect((deactivated.after as { revokedApiKeys: string[] }).revokedApiKeys.sort()).toEqual([m.keyId, second.id].sort());

    await inTx((tx) => activateMerchant(tx, operator, { merchantId: m.merchant.id, reason: "back" }));
    const again = await call("/v1/payments", { key: m.key, ip: m.ip });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe("INVALID_API_KEY");
  });

  it("policy changes are validated, saved and audited with before/after and reason", async () => {
    const operator = await newOperator();
    const m = await newMerchant();
    const bad = MerchantPolicyInput.safeParse({
      merchantId: m.merchant.id,
      name: "x",
      bankTransferDepositMinutes: "0",
      gatewayDepositMinutes: "30",
      withdrawalApprovalMinutes: "1440",
      storeCheckoutMinutes: "30",
      checkoutSessionMinutes: "30",
      defaultCommissionBps: "abc",
      reason: "",
    });
    expect(bad.success).toBe(false);
    const fields = bad.error!.issues.map((i) => i.path[0]);
    expect(fields).toEqual(expect.arrayContaining(["enabledCurrencies", "bankTransferDepositMinutes", "defaultCommissionBps", "reason"]));

    const input = MerchantPolicyInput.parse({
      merchantId: m.merchant.id,
      name: "Renamed",
      enabledCurrencies: ["USD", "AED"],
      bankTransferDepositMinutes: "45",
      gatewayDepositMinutes: "15",
      withdrawalApprovalMinutes: "720",
      storeCheckoutMinutes: "20",
      checkoutSessionMinutes: "25",
      requiredCustomerFields: ["email", "country"],
      amountEntryEnabled: "on",
      defaultCommissionBps: "175",
      reason: "new agreement",
    });
    const after = await inTx((tx) => updateMerchantPolicy(tx, operator, input));
    expect(after).toMatchObject({
      name: "Renamed",
      enabledCurrencies: ["USD", "AED"],
      gatewayDepositMinutes: 15,
      requiredCustomerFields: ["email", "country"],
      amountEntryEnabled: true,
      storeRequiresCountry: false,
      defaultCommissionBps: 175,
    });
    const [audit] = await auditOf(m.merchant.id);
    expect(audit).toMatchObject({ action: "merchant.update_policy", actorId: operator.id, reason: "new agreement" });
    expect(audit?.before).toMatchObject({ gatewayDepositMinutes: 30, amountEntryEnabled: false });
    expect(audit?.after).toMatchObject({ gatewayDepositMinutes: 15, amountEntryEnabled: true });
    expect(JSON.stringify(audit)).not.toContain("callbackSecret");
    // The new policy applies to the next payment: EUR is no longer enabled.
    const eur = await m.api("/v1/payments", {
      body: {
        reference: `p-${randomUUID()}`,
        amount: "1.00",
        currency: "EUR",
        method: "GATEWAY",
        direction: "DEPOSIT",
        customer: { email: "a@b.co", country: "AE" },
      },
    });
    expect(eur.status).toBe(400);
  });
});

// The server IP allow-list and its requests: console-allow-list.test.ts.

describe("console: API keys and access changes", () => {
  it("a MERCHANT user creates a key for its merchant (secret returned once, only hash and prefix stored); operators cannot", async () => {
    const m = await newMerchant();
    const issued = await inTx((tx) => createKey(tx, actorOf(m.approver), { name: "ci", scopes: ["payments:read"] }));
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: issued.id } });
    expect(row).toMatchObject({ merchantId: m.merchant.id, ownerId: m.approver.id, scopes: ["payments:read"], prefix: issued.prefix });
    expect(JSON.stringify(row)).not.toContain(issued.key);
    expect(Math.round((row.expiresAt.getTime() - row.createdAt.getTime()) / 86_400_000)).toBe(90);
    const [audit] = await auditOf(issued.id);
    expect(audit?.action).toBe("api_key.create");
    expect(JSON.stringify(audit)).not.toContain(issued.key);
    expect((await call("/v1/payments", { key: issued.key })).status).toBe(200);
    expect(await refusal(inTx(async (tx) => createKey(tx, await newOperator(), { scopes: ["payments:read"] })))).toMatchObject({ code: "FORBIDDEN" });

    await inTx((tx) => revokeKey(tx, actorOf(m.owner), { keyId: issued.id, reason: "leaked in a log" }));
    expect((await call("/v1/payments", { key: issued.key })).status).toBe(401);
    expect(await refusal(inTx((tx) => revokeKey(tx, actorOf(m.owner), { keyId: issued.id })))).toMatchObject({ code: "INVALID_STATE" });
    // The merchant's other key still works.
    expect((await m.api("/v1/payments")).status).toBe(200);
  });

  it("deactivating a user, or changing its role or merchant, revokes that user's keys (only theirs)", async () => {
    const operator = await newOperator();
    const m = await newMerchant();
    const other = await newMerchant();
    const approverKey = await issueApiKey(db, { merchantId: m.merchant.id, ownerId: m.approver.id, scopes: SCOPES });
    const change = (input: Record<string, string>) => inTx((tx) => changeUserAccess(tx, operator, UserAccessInput.parse(input)));

    const moved = await change({ userId: m.owner.id, role: "MERCHANT", merchantId: other.merchant.id, active: "on", reason: "moved to the other merchant" });
    expect(moved.revokedKeys).toEqual([m.keyId]);
    expect((await m.api("/v1/payments")).status).toBe(401);
    expect((await call("/v1/payments", { key: approverKey.key })).status).toBe(200);

    const deactivated = await change({ userId: m.approver.id, role: "MERCHANT", merchantId: m.merchant.id, reason: "left the company" });
    expect(deactivated.revokedKeys).toEqual([approverKey.id]);
    expect(deactivated.user.active).toBe(false);
    expect((await call("/v1/payments", { key: approverKey.key })).status).toBe(401);
    const [audit] = (await auditOf(m.approver.id)).filter((a) => a.action === "console_user.change_access");
    expect(audit?.before).toMatchObject({ active: true });
    expect(audit?.after).toMatchObject({ active: false, revokedApiKeys: [approverKey.id] });
    expect(audit?.reason).toBe("left the company");

    const promotedKey = await issueApiKey(db, { merchantId: other.merchant.id, ownerId: other.owner.id, scopes: SCOPES });
    const promoted = await change({ userId: other.owner.id, role: "OPERATOR", merchantId: "", active: "on", reason: "joined operations" });
    expect(promoted.revokedKeys.sort()).toEqual([other.keyId, promotedKey.id].sort());
    expect(promoted.user.merchantId).toBeNull();

    expect(await refusal(change({ userId: other.owner.id, role: "OPERATOR", merchantId: "", active: "on", reason: "again" }))).toMatchObject({
      code: "INVALID_STATE",
    });
    expect(await refusal(change({ userId: operator.id, role: "OPERATOR", merchantId: "", reason: "lock myself out" }))).toMatchObject({
      code: "INVALID_STATE",
    });
    expect(UserAccessInput.safeParse({ userId: m.owner.id, role: "MERCHANT", merchantId: "", active: "on", reason: "no merchant" }).success).toBe(false);
  });
});
