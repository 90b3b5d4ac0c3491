import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db, depositBody, newMerchant, savePricingVersion, type TestMerchant } from "../support/fixtures";
import { pricingForm } from "../support/console";
import { actionId, actionIdsIn, consoleActions, getWithSession, newAuditRows, postAction, sessionOf, type ActionFields } from "../support/console-http";
import { createConsoleUser } from "@/lib/domain/users/create-console-user";
import { createMerchant } from "@/lib/domain/merchants/create-merchant";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { getSettings } from "@/lib/domain/settings/service-settings";

// The console's Server Actions driven over real HTTP against the built service, as the browser sends them:
// CSRF (Origin) and session checks, operator-only actions refused for MERCHANT users, merchant isolation, and
// exactly one audit row per change. Fixtures are written straight to the database (no audit rows of their own).

const HTTPS_CALLBACK = "https://merchant.example.com/sandpiper/callbacks";
/** Port 9 (discard) on loopback: the service may deliver there (CALLBACK_ALLOW_LOOPBACK=1); attempts fail fast. */
const LOOPBACK_CALLBACK = "http://127.0.0.1:9/hook";
const OWNER_PASSWORD = "owner-password-1";
const APPROVER_PASSWORD = "approver-password-1";
const OPERATOR_PASSWORD = "operator-password-1";
const FORBIDDEN = { status: "error", message: "Only operators can do this" };

const unique = () => randomUUID().slice(0, 8);
/** A catalog price no store test uses (AED 986,000.00 to 986,999.99). */
const oddPrice = () => `986${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}.${String(Math.floor(Math.random() * 100)).padStart(2, "0")}`;
/** A Dubai day 30 days ahead: rates may be entered up to 31 days ahead, and no payment of today uses it. */
const farDay = () => dubaiDay(new Date(Date.now() + 30 * 86_400_000));

let operator: { id: string; username: string; cookie: string };
/** Catalog items this file may create: switched off at the end, as the catalog is shared with the store tests. */
const catalogSkus: string[] = [];

beforeAll(async () => {
  const user = await createConsoleUser(db, { username: `op-actions-${unique()}`, password: OPERATOR_PASSWORD, role: "OPERATOR" });
  operator = { id: user.id, username: user.username, cookie: await sessionOf(user, OPERATOR_PASSWORD) };
});

afterAll(async () => {
  await db.catalogItem.updateMany({ where: { sku: { in: catalogSkus } }, data: { active: false } });
});

/** A merchant with a NOT_CONFIGURED delivery (a failed payment's event before any address), then a callback address. */
async function merchantWithDelivery(): Promise<TestMerchant & { deliveryId: string }> {
  const m = await newMerchant();
  const payment = (await m.api("/v1/payments", { body: depositBody() })).body;
  await m.api(`/v1/sandbox/payments/${payment.id}/complete`, { body: { outcome: "FAILED" } });
  const delivery = await db.delivery.findFirstOrThrow({ where: { merchantId: m.merchant.id } });
  expect(delivery.state).toBe("NOT_CONFIGURED");
  await db.merchant.update({ where: { id: m.merchant.id }, data: { callbackUrl: LOOPBACK_CALLBACK, callbackSecret: "whsec_fixture" } });
  return { ...m, deliveryId: delivery.id };
}

/** A PENDING_APPROVAL withdrawal created with the merchant owner's key. */
async function withdrawalOf(m: TestMerchant): Promise<string> {
  const created = await m.api("/v1/payments", { body: depositBody({ method: "BANK_TRANSFER", direction: "WITHDRAWAL" }) });
  expect(created.body.status).toBe("PENDING_APPROVAL");
  return created.body.id;
}

/** A merchant's allow-list and its requests: everything the allow-list actions may change. */
async function allowListOf(m: TestMerchant) {
  return {
    entries: await db.allowedIp.findMany({ where: { merchantId: m.merchant.id }, orderBy: { address: "asc" } }),
    requests: await db.allowedIpRequest.findMany({ where: { merchantId: m.merchant.id }, orderBy: { address: "asc" } }),
  };
}

/** A PENDING allow-list request of the merchant's owner for `address`. */
function pendingRequest(m: TestMerchant, address: string) {
  return db.allowedIpRequest.create({ data: { merchantId: m.merchant.id, address, requestedById: m.owner.id } });
}

/** Every field of the merchant policy form, for merchant `id`. */
function policyFields(id: string, name: string): ActionFields {
  return {
    merchantId: id,
    name,
    enabledCurrencies: ["USD", "EUR"],
    bankTransferDepositMinutes: "45",
    gatewayDepositMinutes: "15",
    withdrawalApprovalMinutes: "720",
    storeCheckoutMinutes: "20",
    checkoutSessionMinutes: "25",
    requiredCustomerFields: ["email"],
    defaultCommissionBps: "175",
    reason: "new agreement",
  };
}

/** Every field of the pricing version form (EUR gateway deposits of merchant `id`). */
function pricingFields(id: string): ActionFields {
  return pricingForm(id);
}

type ExpectedAudit = {
  action: string;
  entity: string;
  entityId?: string | null;
  merchantId?: string | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
};

type Prepared = {
  fields: ActionFields;
  /** The page to post to, for actions used only on pages with a dynamic segment. */
  page?: string;
  /** Everything the action may change, read from the database. */
  state: () => Promise<unknown>;
  /** The one audit row the allowed user's run writes (`before: null` = none). */
  audit: ExpectedAudit;
  /** True when a successful run leaves `state` as it was (saving intake unchanged: pausing would stop other test files). */
  stateUnchangedWhenAllowed?: true;
  /** What the refused MERCHANT user sends instead of `fields` (a real change, where the allowed run cannot make one). */
  refusedFields?: ActionFields;
};

type FixtureMerchant = TestMerchant & { deliveryId?: string };

type ActionCase = {
  action: string;
  /** Who may run it: operators only, or the merchant's own users (the owner; the approver for approvals). */
  by: "OPERATOR" | "OWNER" | "APPROVER";
  /** The merchant of the fixture (default a fresh one); its owner is the MERCHANT user of the refusal tests. */
  merchant?: () => Promise<FixtureMerchant>;
  /** Builds the fixture on merchant `m`. */
  prepare: (m: FixtureMerchant) => Promise<Prepared>;
};

const CASES: ActionCase[] = [
  {
    action: "merchants.createMerchantAction",
    by: "OPERATOR",
    prepare: async () => {
      const name = `Created ${unique()}`;
      return {
        fields: { name, enabledCurrencies: ["USD", "EUR"], defaultCommissionBps: "150" },
        state: () => db.merchant.findMany({ where: { name } }),
        audit: {
          action: "merchant.create",
          entity: "merchant",
          before: null,
          after: { name, status: "INACTIVE", enabledCurrencies: ["USD", "EUR"], defaultCommissionBps: 150 },
        },
      };
    },
  },
  {
    action: "merchants.updatePolicy",
    by: "OPERATOR",
    prepare: async (m) => ({
      fields: policyFields(m.merchant.id, "Renamed by the console"),
      state: () => db.merchant.findUnique({ where: { id: m.merchant.id } }),
      audit: {
        action: "merchant.update_policy",
        entity: "merchant",
        entityId: m.merchant.id,
        merchantId: m.merchant.id,
        reason: "new agreement",
        before: { name: m.merchant.name, gatewayDepositMinutes: m.merchant.gatewayDepositMinutes },
        after: { name: "Renamed by the console", gatewayDepositMinutes: 15 },
      },
    }),
  },
  {
    action: "merchants.activate",
    by: "OPERATOR",
    prepare: async () => {
      const inactive = await createMerchant(db, { name: `Inactive ${unique()}`, status: "INACTIVE", allowedIps: ["192.0.2.10"], callbackUrl: HTTPS_CALLBACK });
      return {
        fields: { merchantId: inactive.id, reason: "go live" },
        state: () => db.merchant.findUnique({ where: { id: inactive.id } }),
        audit: {
          action: "merchant.activate",
          entity: "merchant",
          entityId: inactive.id,
          before: { status: "INACTIVE" },
          after: { status: "ACTIVE" },
          reason: "go live",
        },
      };
    },
  },
  {
    action: "merchants.deactivate",
    by: "OPERATOR",
    prepare: async (m) => ({
      fields: { merchantId: m.merchant.id, reason: "contract ended" },
      state: async () => [await db.merchant.findUnique({ where: { id: m.merchant.id } }), await db.apiKey.findMany({ where: { merchantId: m.merchant.id } })],
      audit: {
        action: "merchant.deactivate",
        entity: "merchant",
        entityId: m.merchant.id,
        before: { status: "ACTIVE" },
        after: { status: "INACTIVE", revokedApiKeys: [m.keyId] },
        reason: "contract ended",
      },
    }),
  },
  {
    action: "users.createUserAction",
    by: "OPERATOR",
    prepare: async (m) => {
      const username = `made-${unique()}`;
      return {
        fields: { username, password: "a-long-password-1", role: "MERCHANT", merchantId: m.merchant.id },
        state: () => db.consoleUser.findMany({ where: { username } }),
        audit: {
          action: "console_user.create",
          entity: "console_user",
          merchantId: m.merchant.id,
          before: null,
          after: { username, role: "MERCHANT", merchantId: m.merchant.id },
        },
      };
    },
  },
  {
    action: "users.changeAccess",
    by: "OPERATOR",
    // The `active` checkbox is left out: unchecked, the user is deactivated.
    prepare: async (m) => ({
      fields: { userId: m.approver.id, role: "MERCHANT", merchantId: m.merchant.id, reason: "left the company" },
      state: () => db.consoleUser.findUnique({ where: { id: m.approver.id } }),
      audit: {
        action: "console_user.change_access",
        entity: "console_user",
        entityId: m.approver.id,
        reason: "left the company",
        before: { username: m.approver.username, active: true },
        after: { username: m.approver.username, active: false, revokedApiKeys: [] },
      },
    }),
  },
  {
    action: "pricing.savePricing",
    by: "OPERATOR",
    prepare: async (m) => ({
      fields: pricingFields(m.merchant.id),
      state: () => db.pricingProfileVersion.findMany({ where: { profile: { merchantId: m.merchant.id } } }),
      audit: {
        action: "pricing_profile.create",
        entity: "pricing_profile_version",
        merchantId: m.merchant.id,
        before: null,
        after: { version: 1, commissionBps: 900, enabled: true },
        reason: "new commission",
      },
    }),
  },
  {
    action: "pricing.toggleProfile",
    by: "OPERATOR",
    prepare: async (m) => {
      const v1 = await savePricingVersion(db, {
        merchantId: m.merchant.id,
        currency: "EUR",
        channel: "GATEWAY",
        direction: "DEPOSIT",
        chargeCurrency: "EUR",
        settlementCurrency: "EUR",
        reason: "fixture",
      });
      return {
        fields: { profileId: v1.profileId, enabled: "false", reason: "paused by risk" },
        page: `/console/pricing/${v1.profileId}`,
        state: () => db.pricingProfileVersion.findMany({ where: { profileId: v1.profileId } }),
        audit: {
          action: "pricing_profile.new_version",
          entity: "pricing_profile_version",
          merchantId: m.merchant.id,
          before: { version: 1, enabled: true },
          after: { version: 2, enabled: false },
          reason: "paused by risk",
        },
      };
    },
  },
  {
    action: "rates.enterRate",
    by: "OPERATOR",
    prepare: async () => {
      const day = farDay();
      return {
        fields: { base: "CHF", quote: "SAR", day, rate: "4.25", reason: "treasury" },
        state: () => db.fxRate.findMany({ where: { base: "CHF", quote: "SAR", day } }),
        audit: { action: "fx_rate.create", entity: "fx_rate", before: null, after: { pair: "CHF->SAR", day, rate: "4.25" }, reason: "treasury" },
      };
    },
  },
  {
    action: "rates.importRatesAction",
    by: "OPERATOR",
    prepare: async () => {
      const day = farDay();
      return {
        fields: { csv: `base,quote,from,through,rate\nCHF,EUR,${day},,1.0525\n`, reason: "monthly import" },
        state: () => db.fxRate.findMany({ where: { base: "CHF", quote: "EUR", day } }),
        audit: { action: "fx_rate.create", entity: "fx_rate", before: null, after: { pair: "CHF->EUR", day, rate: "1.0525" }, reason: "monthly import" },
      };
    },
  },
  {
    action: "settings.saveIntake",
    by: "OPERATOR",
    // The operator saves it as it is (open): a real pause would refuse the payments of the test files running beside
    // this one. The MERCHANT user tries to pause everything.
    prepare: async () => ({
      fields: { reason: "confirming intake is open" },
      refusedFields: { intakePaused: "on", pausedChannels: ["BANK_TRANSFER", "GATEWAY", "STORE"], reason: "pausing as a merchant" },
      state: () => getSettings(db),
      audit: {
        action: "settings.intake",
        entity: "settings",
        entityId: "service",
        before: { intakePaused: false, pausedChannels: [] },
        after: { intakePaused: false, pausedChannels: [] },
        reason: "confirming intake is open",
      },
      stateUnchangedWhenAllowed: true,
    }),
  },
  {
    action: "settings.addBlock",
    by: "OPERATOR",
    prepare: async (m) => {
      const value = `blocked-${unique()}@example.com`;
      return {
        fields: { kind: "EMAIL", value, merchantId: m.merchant.id, reason: "chargeback ring" },
        state: () => db.blockListEntry.findMany({ where: { value } }),
        audit: {
          action: "block_list.add",
          entity: "block_list",
          merchantId: m.merchant.id,
          before: null,
          after: { kind: "EMAIL", value },
          reason: "chargeback ring",
        },
      };
    },
  },
  {
    action: "settings.removeBlock",
    by: "OPERATOR",
    prepare: async (m) => {
      const row = await db.blockListEntry.create({
        data: { kind: "EMAIL", value: `unblock-${unique()}@example.com`, merchantId: m.merchant.id, reason: "fixture" },
      });
      return {
        fields: { id: row.id, reason: "false positive" },
        state: () => db.blockListEntry.findMany({ where: { id: row.id } }),
        audit: { action: "block_list.remove", entity: "block_list", entityId: row.id, before: { kind: "EMAIL", value: row.value }, reason: "false positive" },
      };
    },
  },
  {
    action: "catalog.saveItem",
    by: "OPERATOR",
    prepare: async () => {
      const sku = `A-${unique()}`;
      catalogSkus.push(sku);
      const price = oddPrice();
      return {
        fields: { sku, name: "Audit lamp", kind: "PRODUCT", price },
        state: () => db.catalogItem.findMany({ where: { sku } }),
        audit: { action: "catalog.create", entity: "catalog_item", entityId: sku, before: null, after: { sku, price, active: true } },
      };
    },
  },
  {
    action: "catalog.switchItem",
    by: "OPERATOR",
    prepare: async () => {
      const sku = `S-${unique()}`;
      catalogSkus.push(sku);
      await db.catalogItem.create({ data: { sku, name: "Switch lamp", kind: "PRODUCT", priceMinor: 98_600_001n, active: true } });
      return {
        fields: { sku, active: "false" },
        state: () => db.catalogItem.findMany({ where: { sku } }),
        audit: { action: "catalog.deactivate", entity: "catalog_item", entityId: sku, before: { sku, active: true }, after: { sku, active: false } },
      };
    },
  },
  {
    action: "catalog.importItems",
    by: "OPERATOR",
    prepare: async () => {
      const sku = `I-${unique()}`;
      catalogSkus.push(sku);
      return {
        fields: { csv: `sku,name,kind,price\n${sku},Imported lamp,PRODUCT,${oddPrice()}\n` },
        state: () => db.catalogItem.findMany({ where: { sku } }),
        audit: { action: "catalog.import", entity: "catalog_item", before: null, after: { items: 1, created: 1, updated: 0, deactivated: 0 } },
      };
    },
  },
  {
    action: "risk.addRiskRuleAction",
    by: "OPERATOR",
    prepare: async (m) => ({
      fields: {
        merchantId: m.merchant.id,
        kind: "AMOUNT",
        subject: "EMAIL",
        windowMinutes: "60",
        maxCount: "",
        maxAmount: "5000.00",
        currency: "USD",
        reason: "card testing seen",
      },
      page: `/console/merchants/${m.merchant.id}`,
      state: () => db.riskRule.findMany({ where: { merchantId: m.merchant.id } }),
      audit: {
        action: "risk_rule.add",
        entity: "risk_rule",
        merchantId: m.merchant.id,
        reason: "card testing seen",
        before: null,
        after: { kind: "AMOUNT", subject: "EMAIL", windowSeconds: 3600, maxCount: null, maxAmount: "5000.00", currency: "USD" },
      },
    }),
  },
  {
    action: "risk.removeRiskRuleAction",
    by: "OPERATOR",
    prepare: async (m) => {
      const rule = await db.riskRule.create({
        data: { merchantId: m.merchant.id, kind: "COUNT", subject: "PHONE", windowSeconds: 600, maxCount: 3, reason: "fixture" },
      });
      return {
        fields: { merchantId: m.merchant.id, ruleId: rule.id, reason: "no longer needed" },
        page: `/console/merchants/${m.merchant.id}`,
        state: () => db.riskRule.findMany({ where: { merchantId: m.merchant.id } }),
        audit: {
          action: "risk_rule.remove",
          entity: "risk_rule",
          entityId: rule.id,
          merchantId: m.merchant.id,
          reason: "no longer needed",
          before: { active: true, kind: "COUNT", subject: "PHONE" },
          after: { active: false },
        },
      };
    },
  },
  {
    action: "keys.createKeyAction",
    by: "OWNER",
    prepare: async (m) => ({
      fields: { name: "reporting", scopes: ["payments:read"] },
      state: () => db.apiKey.findMany({ where: { merchantId: m.merchant.id } }),
      audit: { action: "api_key.create", entity: "api_key", merchantId: m.merchant.id, before: null, after: { name: "reporting", scopes: ["payments:read"] } },
    }),
  },
  {
    action: "keys.revokeKeyAction",
    by: "OWNER",
    prepare: async (m) => ({
      fields: { keyId: m.keyId, reason: "rotated" },
      page: `/console/keys/${m.keyId}`,
      state: () => db.apiKey.findUnique({ where: { id: m.keyId } }),
      audit: { action: "api_key.revoke", entity: "api_key", entityId: m.keyId, merchantId: m.merchant.id, before: { revokedAt: null }, reason: "rotated" },
    }),
  },
  {
    action: "allow-list.addIp",
    by: "OWNER",
    prepare: async (m) => ({
      fields: { merchantId: m.merchant.id, address: "2001:DB8::0:7" },
      page: `/console/merchants/${m.merchant.id}`,
      state: () => allowListOf(m),
      audit: {
        action: "allowed_ip_request.create",
        entity: "allowed_ip_request",
        merchantId: m.merchant.id,
        before: null,
        after: { address: "2001:db8::7", entered: "2001:DB8::0:7", state: "PENDING" },
      },
    }),
  },
  {
    action: "allow-list.approveIpRequest",
    by: "OPERATOR",
    prepare: async (m) => {
      const request = await pendingRequest(m, "198.51.100.41");
      return {
        fields: { merchantId: m.merchant.id, requestId: request.id },
        page: `/console/merchants/${m.merchant.id}`,
        state: () => allowListOf(m),
        audit: {
          action: "allowed_ip_request.approve",
          entity: "allowed_ip_request",
          entityId: request.id,
          merchantId: m.merchant.id,
          before: { address: "198.51.100.41", state: "PENDING" },
          after: { address: "198.51.100.41", state: "APPROVED" },
        },
      };
    },
  },
  {
    action: "allow-list.rejectIpRequest",
    by: "OPERATOR",
    prepare: async (m) => {
      const request = await pendingRequest(m, "198.51.100.42");
      return {
        fields: { merchantId: m.merchant.id, requestId: request.id, reason: "not a fixed egress address" },
        page: `/console/merchants/${m.merchant.id}`,
        state: () => allowListOf(m),
        audit: {
          action: "allowed_ip_request.reject",
          entity: "allowed_ip_request",
          entityId: request.id,
          merchantId: m.merchant.id,
          reason: "not a fixed egress address",
          after: { address: "198.51.100.42", state: "REJECTED" },
        },
      };
    },
  },
  {
    action: "allow-list.cancelIpRequest",
    by: "OWNER",
    prepare: async (m) => {
      const request = await pendingRequest(m, "198.51.100.43");
      return {
        fields: { merchantId: m.merchant.id, requestId: request.id },
        page: `/console/merchants/${m.merchant.id}`,
        state: () => allowListOf(m),
        audit: {
          action: "allowed_ip_request.cancel",
          entity: "allowed_ip_request",
          entityId: request.id,
          merchantId: m.merchant.id,
          after: { address: "198.51.100.43", state: "CANCELLED" },
        },
      };
    },
  },
  {
    action: "allow-list.removeIp",
    by: "OWNER",
    prepare: async (m) => {
      // An active merchant keeps at least one address, so there is a second one to remove.
      const second = await db.allowedIp.create({ data: { merchantId: m.merchant.id, address: "192.0.2.77" } });
      return {
        fields: { merchantId: m.merchant.id, allowedIpId: second.id },
        page: `/console/merchants/${m.merchant.id}`,
        state: () => db.allowedIp.findMany({ where: { merchantId: m.merchant.id } }),
        audit: { action: "allowed_ip.remove", entity: "allowed_ip", entityId: second.id, merchantId: m.merchant.id, before: { address: "192.0.2.77" } },
      };
    },
  },
  {
    action: "callbacks.setCallbackAction",
    by: "OWNER",
    prepare: async (m) => ({
      fields: { merchantId: m.merchant.id, url: LOOPBACK_CALLBACK },
      state: () => db.merchant.findUnique({ where: { id: m.merchant.id }, select: { callbackUrl: true, callbackSecret: true } }),
      audit: {
        action: "merchant.callback_url",
        entity: "merchant",
        entityId: m.merchant.id,
        before: { callbackUrl: null },
        after: { callbackUrl: LOOPBACK_CALLBACK, secretRotated: true },
      },
    }),
  },
  {
    action: "callbacks.setReturnUrlAction",
    by: "OWNER",
    prepare: async (m) => ({
      fields: { merchantId: m.merchant.id, url: "https://shop.example/orders" },
      state: () => db.merchant.findUnique({ where: { id: m.merchant.id }, select: { returnUrl: true } }),
      audit: {
        action: "merchant.return_url",
        entity: "merchant",
        entityId: m.merchant.id,
        merchantId: m.merchant.id,
        before: { returnUrl: null },
        after: { returnUrl: "https://shop.example/orders" },
      },
    }),
  },
  {
    action: "callbacks.requeueAction",
    by: "OWNER",
    merchant: merchantWithDelivery,
    prepare: async (m) => ({
      fields: { deliveryId: m.deliveryId! },
      state: () => db.delivery.findUnique({ where: { id: m.deliveryId }, select: { state: true } }),
      audit: {
        action: "delivery.requeue",
        entity: "delivery",
        entityId: m.deliveryId,
        merchantId: m.merchant.id,
        before: null,
        after: { requeued: 1, deliveryIds: [m.deliveryId] },
      },
    }),
  },
  {
    action: "callbacks.attemptNowAction",
    by: "OWNER",
    merchant: merchantWithDelivery,
    prepare: async (m) => {
      // A PENDING delivery whose next attempt is a day away: "Attempt now" makes it due now and asks for it.
      const due = new Date(Date.now() + 86_400_000);
      await db.delivery.update({ where: { id: m.deliveryId }, data: { state: "PENDING", nextAttemptAt: due } });
      const eventId = (await db.delivery.findUniqueOrThrow({ where: { id: m.deliveryId } })).eventId;
      return {
        fields: { deliveryId: m.deliveryId! },
        state: () => db.delivery.findUnique({ where: { id: m.deliveryId }, select: { nextAttemptAt: true } }),
        audit: { action: "delivery.attempt_now", entity: "delivery", entityId: m.deliveryId, merchantId: m.merchant.id, before: null, after: { eventId } },
      };
    },
  },
  {
    action: "callbacks.sendTestAction",
    by: "OWNER",
    prepare: async (m) => {
      await db.merchant.update({ where: { id: m.merchant.id }, data: { callbackUrl: LOOPBACK_CALLBACK, callbackSecret: "whsec_fixture" } });
      return {
        fields: { merchantId: m.merchant.id },
        state: () => db.event.findMany({ where: { merchantId: m.merchant.id } }),
        audit: {
          action: "delivery.test_event",
          entity: "event",
          merchantId: m.merchant.id,
          before: null,
          after: { eventId: expect.any(String), deliveryId: expect.any(String) },
        },
      };
    },
  },
  {
    action: "callbacks.setChaosModeAction",
    by: "OWNER",
    prepare: async (m) => ({
      fields: { merchantId: m.merchant.id, enabled: "on", reason: "testing duplicate handling" },
      state: () => db.merchant.findUnique({ where: { id: m.merchant.id }, select: { chaosMode: true } }),
      audit: {
        action: "merchant.chaos_mode",
        entity: "merchant",
        entityId: m.merchant.id,
        merchantId: m.merchant.id,
        before: { chaosMode: false },
        after: { chaosMode: true },
        reason: "testing duplicate handling",
      },
    }),
  },
  {
    action: "callbacks.setFastRetriesAction",
    by: "OWNER",
    prepare: async (m) => ({
      fields: { merchantId: m.merchant.id, enabled: "on", reason: "testing retry handling" },
      state: () => db.merchant.findUnique({ where: { id: m.merchant.id }, select: { fastRetries: true } }),
      audit: {
        action: "merchant.fast_retries",
        entity: "merchant",
        entityId: m.merchant.id,
        merchantId: m.merchant.id,
        before: { fastRetries: false },
        after: { fastRetries: true },
        reason: "testing retry handling",
      },
    }),
  },
  {
    action: "callbacks.rotateSecretAction",
    by: "OWNER",
    prepare: async (m) => {
      await db.merchant.update({ where: { id: m.merchant.id }, data: { callbackUrl: LOOPBACK_CALLBACK, callbackSecret: "whsec_fixture" } });
      return {
        fields: { merchantId: m.merchant.id, overlap: "24h", reason: "yearly rotation" },
        state: () => db.merchant.findUnique({ where: { id: m.merchant.id }, select: { callbackSecret: true, previousCallbackSecret: true } }),
        audit: {
          action: "merchant.callback_secret_rotated",
          entity: "merchant",
          entityId: m.merchant.id,
          merchantId: m.merchant.id,
          before: { overlapEndsAt: null },
          after: { secretRotated: true, overlapEndsAt: expect.any(String) },
          reason: "yearly rotation",
        },
      };
    },
  },
  {
    action: "callbacks.endOverlapAction",
    by: "OWNER",
    prepare: async (m) => {
      const until = new Date(Date.now() + 3600_000);
      await db.merchant.update({
        where: { id: m.merchant.id },
        data: { callbackUrl: LOOPBACK_CALLBACK, callbackSecret: "whsec_fixture", previousCallbackSecret: "whsec_before", previousCallbackSecretUntil: until },
      });
      return {
        fields: { merchantId: m.merchant.id },
        state: () => db.merchant.findUnique({ where: { id: m.merchant.id }, select: { previousCallbackSecret: true, previousCallbackSecretUntil: true } }),
        audit: {
          action: "merchant.callback_secret_overlap_ended",
          entity: "merchant",
          entityId: m.merchant.id,
          merchantId: m.merchant.id,
          before: { overlapEndsAt: until.toISOString() },
          after: { overlapEndsAt: null },
          reason: "ended from the console",
        },
      };
    },
  },
  {
    action: "scenario-rules.addScenarioRuleAction",
    by: "OWNER",
    prepare: async (m) => ({
      fields: {
        merchantId: m.merchant.id,
        name: "99.99 fails",
        amount: "99.99",
        referencePrefix: "",
        outcome: "FAILED",
        delaySeconds: "5",
        failureCode: "insufficient_funds",
        enabled: "on",
      },
      state: () => db.scenarioRule.findMany({ where: { merchantId: m.merchant.id } }),
      audit: {
        action: "scenario_rule.create",
        entity: "scenario_rule",
        merchantId: m.merchant.id,
        before: null,
        after: expect.objectContaining({
          name: "99.99 fails",
          enabled: true,
          outcome: "FAILED",
          delayMs: 5000,
          failureCode: "insufficient_funds",
          match: expect.objectContaining({ amount: "99.99" }),
        }),
      },
    }),
  },
  {
    action: "scenario-rules.switchScenarioRuleAction",
    by: "OWNER",
    prepare: async (m) => {
      const rule = (await m.api("/v1/sandbox/scenario-rules", { body: { name: "fail-", match: { referencePrefix: "fail-" }, outcome: "FAILED" } })).body;
      return {
        fields: { merchantId: m.merchant.id, ruleId: rule.id, enabled: "on" },
        state: () => db.scenarioRule.findUnique({ where: { id: rule.id }, select: { enabled: true } }),
        audit: {
          action: "scenario_rule.update",
          entity: "scenario_rule",
          entityId: rule.id,
          merchantId: m.merchant.id,
          before: expect.objectContaining({ enabled: false }),
          after: expect.objectContaining({ enabled: true }),
        },
      };
    },
  },
  {
    action: "scenario-rules.deleteScenarioRuleAction",
    by: "OWNER",
    prepare: async (m) => {
      const rule = (await m.api("/v1/sandbox/scenario-rules", { body: { name: "gone", match: { amount: "1.23" }, outcome: "SUCCEEDED" } })).body;
      return {
        fields: { merchantId: m.merchant.id, ruleId: rule.id },
        state: () => db.scenarioRule.findUnique({ where: { id: rule.id } }),
        audit: { action: "scenario_rule.delete", entity: "scenario_rule", entityId: rule.id, merchantId: m.merchant.id, after: null },
      };
    },
  },
  {
    action: "scenario-rules.addStandardScenarioRulesAction",
    by: "OWNER",
    prepare: async (m) => ({
      fields: { merchantId: m.merchant.id },
      state: () => db.scenarioRule.count({ where: { merchantId: m.merchant.id, enabled: true } }),
      audit: { action: "scenario_rule.add_standard", entity: "merchant", entityId: m.merchant.id, merchantId: m.merchant.id },
    }),
  },
  {
    action: "callbacks.checkSignatureAction",
    by: "OWNER",
    merchant: merchantWithDelivery,
    prepare: async (m) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      await db.deliveryAttempt.create({
        data: {
          deliveryId: m.deliveryId!,
          number: 1,
          url: LOOPBACK_CALLBACK,
          startedAt: new Date(),
          durationMs: 1,
          statusCode: 500,
          signedTimestamp: timestamp,
          signature: "0".repeat(64),
        },
      });
      return {
        fields: { deliveryId: m.deliveryId!, attempt: "1", timestamp, body: "{}", signature: "f".repeat(64) },
        page: `/console/callbacks/${m.deliveryId}`,
        state: () => db.delivery.findUnique({ where: { id: m.deliveryId }, include: { attempts: true } }),
        stateUnchangedWhenAllowed: true,
        audit: {
          action: "delivery.signature_check",
          entity: "delivery",
          entityId: m.deliveryId,
          merchantId: m.merchant.id,
          before: null,
          after: { attempt: 1, verified: false },
        },
      };
    },
  },
  {
    action: "callbacks.checkForwardSignatureAction",
    by: "OWNER",
    merchant: merchantWithDelivery,
    prepare: async (m) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const { eventId } = await db.delivery.findUniqueOrThrow({ where: { id: m.deliveryId! }, select: { eventId: true } });
      const forward = await db.listenerForward.create({
        data: {
          merchantId: m.merchant.id,
          eventId,
          apiKeyId: m.keyId,
          forwardId: randomUUID(),
          cursor: 1n,
          kind: "event",
          attempt: 1,
          startedAt: new Date(),
          durationMs: 1,
          statusCode: 500,
          forwardTo: "http://localhost:4000/hook",
          signedTimestamp: timestamp,
          signature: "0".repeat(64),
        },
      });
      return {
        fields: { deliveryId: m.deliveryId!, forwardAttemptId: forward.id, timestamp, body: "{}", signature: "f".repeat(64) },
        page: `/console/callbacks/${m.deliveryId}`,
        state: () => db.listenerForward.findMany({ where: { eventId } }),
        stateUnchangedWhenAllowed: true,
        audit: {
          action: "listener_forward.signature_check",
          entity: "delivery",
          entityId: m.deliveryId,
          merchantId: m.merchant.id,
          before: null,
          after: { forwardId: forward.forwardId, attempt: 1, verified: false },
        },
      };
    },
  },
  {
    action: "sandbox-clock.moveClockAction",
    by: "OWNER",
    prepare: async (m) => ({
      fields: { merchantId: m.merchant.id, by: "2h", reason: "testing expiry handling" },
      state: () => db.merchant.findUnique({ where: { id: m.merchant.id }, select: { clockOffsetMs: true } }),
      audit: {
        action: "merchant.sandbox_clock",
        entity: "merchant",
        entityId: m.merchant.id,
        merchantId: m.merchant.id,
        before: { offsetMs: 0 },
        after: { offsetMs: 7_200_000 },
        reason: "testing expiry handling",
      },
    }),
  },
  {
    action: "payments.approvePayment",
    by: "APPROVER",
    prepare: async (m) => {
      const paymentId = await withdrawalOf(m);
      return {
        fields: { paymentId },
        state: () => db.payment.findUnique({ where: { id: paymentId }, select: { status: true, approvedAt: true, approvedById: true } }),
        audit: {
          action: "payment.approve",
          entity: "payment",
          entityId: paymentId,
          merchantId: m.merchant.id,
          before: { status: "PENDING_APPROVAL", approvedAt: null },
          after: { status: "PENDING" },
        },
      };
    },
  },
];

/** The signed-in user who runs a case as allowed: the shared operator, or the merchant's owner or approver. */
async function allowedUser(c: ActionCase, m: FixtureMerchant): Promise<{ id: string; username: string; cookie: string }> {
  if (c.by === "OPERATOR") return operator;
  const [user, password] = c.by === "OWNER" ? [m.owner, OWNER_PASSWORD] : [m.approver, APPROVER_PASSWORD];
  return { id: user.id, username: user.username, cookie: await sessionOf(user, password) };
}

describe("console Server Actions: the tables cover the build", () => {
  it("every Server Action of app/console/actions has exactly one case", () => {
    expect(CASES.map((c) => c.action).sort()).toEqual([...consoleActions().keys()].sort());
  });
});

describe("console Server Actions over HTTP: CSRF and session", () => {
  it("another site's Origin or a null Origin is refused 403 and changes nothing, no session changes nothing; the console's own Origin with a session does", async () => {
    // The page the operator works on hands its block-list form exactly this action.
    const page = await getWithSession("/console/settings", operator.cookie);
    expect(page.status).toBe(200);
    expect(actionIdsIn(await page.text())).toContain(actionId("settings.addBlock"));

    for (const transport of ["fetch", "form"] as const) {
      const value = `csrf-${transport}-${unique()}@example.com`;
      const fields = { kind: "EMAIL", value, merchantId: "", reason: "csrf probe" };
      const entries = () => db.blockListEntry.count({ where: { value } });
      for (const origin of ["https://evil.example", "null"]) {
        const { result, rows } = await newAuditRows(operator.id, () => postAction("settings.addBlock", fields, { cookie: operator.cookie, origin, transport }));
        expect(result.status, `${transport} from ${origin}`).toBe(403);
        expect(result.state).toBeNull();
        expect(JSON.parse(result.text).error).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/another site/) });
        expect(rows).toEqual([]);
        expect(await entries()).toBe(0);
      }
      // Without a session the form is refused before its body is decoded (docs/operating.md "The HTTP front"): the
      // console's JavaScript is told to go to the sign-in page, a form without JavaScript is redirected there.
      const signedOut = await postAction("settings.addBlock", fields, { cookie: null, transport });
      if (transport === "fetch") expect([signedOut.status, signedOut.headers.get("x-action-redirect")]).toEqual([401, "/console/sign-in;replace"]);
      else expect([signedOut.status, signedOut.headers.get("location")]).toEqual([303, "/console/sign-in"]);
      expect(await entries()).toBe(0);
      expect(await db.auditLog.count({ where: { entity: "block_list", after: { path: ["value"], equals: value } } })).toBe(0);

      // The same request from the console's own origin with the session: the entry exists, audited once.
      const { result, rows } = await newAuditRows(operator.id, () => postAction("settings.addBlock", fields, { cookie: operator.cookie, transport }));
      expect(result.status).toBe(200);
      if (transport === "fetch") expect(result.state).toMatchObject({ status: "ok", message: `Blocked EMAIL ${value}.` });
      expect(await entries()).toBe(1);
      expect(rows).toMatchObject([{ action: "block_list.add", after: { value } }]);
    }
  });

  it("a mutation with no Origin header is refused with a clear message unless it says Sec-Fetch-Site: same-origin", async () => {
    const value = `no-origin-${unique()}@example.com`;
    const fields = { kind: "EMAIL", value, merchantId: "", reason: "origin probe" };
    const entries = () => db.blockListEntry.count({ where: { value } });
    const bare = await newAuditRows(operator.id, () => postAction("settings.addBlock", fields, { cookie: operator.cookie, origin: null }));
    expect(bare.result.state).toMatchObject({ status: "error", message: expect.stringMatching(/no Origin header and no Sec-Fetch-Site: same-origin/) });
    expect(bare.rows).toEqual([]);
    expect(await entries()).toBe(0);
    const crossSite = await postAction("settings.addBlock", fields, { cookie: operator.cookie, origin: null, headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.state).toMatchObject({ status: "error" });
    expect(await entries()).toBe(0);
    const sameSite = await postAction("settings.addBlock", fields, { cookie: operator.cookie, origin: null, headers: { "sec-fetch-site": "same-origin" } });
    expect(sameSite.state).toMatchObject({ status: "ok" });
    expect(await entries()).toBe(1);
  });

  it("a MERCHANT user's key revocation from another site is refused; from the key page's own origin it revokes", async () => {
    const m = await newMerchant();
    const cookie = await sessionOf(m.owner, OWNER_PASSWORD);
    const keyPage = `/console/keys/${m.keyId}`;
    expect(actionIdsIn(await (await getWithSession(keyPage, cookie)).text())).toContain(actionId("keys.revokeKeyAction"));
    const revokedAt = async () => (await db.apiKey.findUniqueOrThrow({ where: { id: m.keyId } })).revokedAt;
    const fields = { keyId: m.keyId, reason: "" };

    const evil = await newAuditRows(m.owner.id, () => postAction("keys.revokeKeyAction", fields, { cookie, origin: "https://evil.example", page: keyPage }));
    expect(evil.result.status).toBe(403);
    expect(evil.rows).toEqual([]);
    expect(await revokedAt()).toBeNull();
    expect((await m.api("/v1/payments")).status).toBe(200);

    const own = await newAuditRows(m.owner.id, () => postAction("keys.revokeKeyAction", fields, { cookie, page: keyPage }));
    expect(own.result.state).toMatchObject({ status: "ok" });
    expect(own.rows).toMatchObject([{ action: "api_key.revoke", entityId: m.keyId }]);
    expect(await revokedAt()).not.toBeNull();
    expect((await m.api("/v1/payments")).status).toBe(401);
  });

  it("a form naming the action without its state (no useActionState fields) changes nothing and answers a page, not a crash", async () => {
    const value = `unbound-${unique()}@example.com`;
    const { result, rows } = await newAuditRows(operator.id, () =>
      postAction("settings.addBlock", { kind: "EMAIL", value, merchantId: "", reason: "unbound form" }, { cookie: operator.cookie, transport: "form-unbound" }),
    );
    expect(result.status).toBe(200);
    expect(rows).toEqual([]);
    expect(await db.blockListEntry.count({ where: { value } })).toBe(0);
  });
});

describe("operator-only console actions sent by a MERCHANT user over HTTP", () => {
  const operatorOnly = CASES.filter((c) => c.by === "OPERATOR");

  it.each(operatorOnly.map((c) => [c.action, c] as const))("%s: refused as FORBIDDEN; nothing changes and no audit row is written", async (_name, c) => {
    const m = await (c.merchant ?? newMerchant)();
    const prepared = await c.prepare(m);
    // The merchant's own user, on its own merchant where the action names one: only the role stands in the way.
    const cookie = await sessionOf(m.owner, OWNER_PASSWORD);
    const before = await prepared.state();
    const fields = prepared.refusedFields ?? prepared.fields;
    const { result, rows } = await newAuditRows(m.owner.id, () => postAction(c.action, fields, { cookie, page: prepared.page }));
    expect(result.state).toEqual({ ...FORBIDDEN, at: expect.any(Number) });
    expect(await prepared.state()).toEqual(before);
    expect(rows).toEqual([]);
  });
});

describe("merchant isolation of console actions over HTTP", () => {
  it("a MERCHANT user gets NOT_FOUND for another merchant's address, callbacks, delivery, key and withdrawal; nothing changes; the owner's own requests succeed", async () => {
    const a = await merchantWithDelivery();
    const secondIp = await db.allowedIp.create({ data: { merchantId: a.merchant.id, address: "192.0.2.88" } });
    const requestOfA = await pendingRequest(a, "198.51.100.44");
    const withdrawal = await withdrawalOf(a);
    const b = await newMerchant();
    const cookieB = await sessionOf(b.owner, OWNER_PASSWORD);
    const stateOfA = async () => ({
      merchant: await db.merchant.findUnique({ where: { id: a.merchant.id } }),
      ips: await db.allowedIp.findMany({ where: { merchantId: a.merchant.id }, orderBy: { address: "asc" } }),
      requests: await db.allowedIpRequest.findMany({ where: { merchantId: a.merchant.id }, orderBy: { address: "asc" } }),
      keys: await db.apiKey.findMany({ where: { merchantId: a.merchant.id }, orderBy: { id: "asc" } }),
      events: await db.event.count({ where: { merchantId: a.merchant.id } }),
      deliveries: await db.delivery.findMany({ where: { merchantId: a.merchant.id }, select: { id: true, state: true, attemptCount: true } }),
      withdrawal: await db.payment.findUnique({ where: { id: withdrawal }, select: { status: true, approvedAt: true } }),
    });

    // `page`: the merchant page of the user's own merchant, for actions used only there.
    const merchantPage = (own: TestMerchant) => `/console/merchants/${own.merchant.id}`;
    const attempts: { what: string; action: string; fields: ActionFields; page?: (own: TestMerchant) => string; ownUser?: "owner" | "approver" }[] = [
      {
        what: "request an address for A's allow-list",
        action: "allow-list.addIp",
        fields: { merchantId: a.merchant.id, address: "192.0.2.99" },
        page: merchantPage,
        ownUser: "owner",
      },
      {
        what: "cancel A's allow-list request",
        action: "allow-list.cancelIpRequest",
        fields: { merchantId: a.merchant.id, requestId: requestOfA.id },
        page: merchantPage,
        ownUser: "owner",
      },
      {
        what: "remove A's address",
        action: "allow-list.removeIp",
        fields: { merchantId: a.merchant.id, allowedIpId: secondIp.id },
        page: merchantPage,
        ownUser: "owner",
      },
      {
        what: "remove A's address naming its own merchant",
        action: "allow-list.removeIp",
        fields: { merchantId: b.merchant.id, allowedIpId: secondIp.id },
        page: merchantPage,
      },
      {
        what: "set A's callback address",
        action: "callbacks.setCallbackAction",
        fields: { merchantId: a.merchant.id, url: LOOPBACK_CALLBACK },
        ownUser: "owner",
      },
      { what: "send A a test event", action: "callbacks.sendTestAction", fields: { merchantId: a.merchant.id }, ownUser: "owner" },
      { what: "requeue A's delivery", action: "callbacks.requeueAction", fields: { deliveryId: a.deliveryId }, ownUser: "owner" },
      { what: "revoke A's key", action: "keys.revokeKeyAction", fields: { keyId: a.keyId, reason: "" }, ownUser: "owner" },
      { what: "approve A's withdrawal", action: "payments.approvePayment", fields: { paymentId: withdrawal }, ownUser: "approver" },
    ];
    const before = await stateOfA();
    for (const attempt of attempts) {
      const { result, rows } = await newAuditRows(b.owner.id, () => postAction(attempt.action, attempt.fields, { cookie: cookieB, page: attempt.page?.(b) }));
      expect(result.state, attempt.what).toMatchObject({ status: "error", message: expect.stringMatching(/^\w[\w -]* not found$/) });
      expect(rows, attempt.what).toEqual([]);
      expect(await stateOfA(), attempt.what).toEqual(before);
    }
    // "Requeue all" naming A requeues only the user's own merchant's deliveries (none): A's stays NOT_CONFIGURED.
    const all = await newAuditRows(b.owner.id, () => postAction("callbacks.requeueAction", { merchantId: a.merchant.id }, { cookie: cookieB }));
    expect(all.result.state).toMatchObject({ status: "ok", message: expect.stringMatching(/^Nothing was requeued/) });
    expect(all.rows).toEqual([]);
    expect(await stateOfA()).toEqual(before);

    // Pages by URL: 404 for B's user, 200 for A's own.
    const cookieA = await sessionOf(a.owner, OWNER_PASSWORD);
    for (const path of [
      `/console/callbacks/${a.deliveryId}`,
      `/console/merchants/${a.merchant.id}`,
      `/console/payments/${withdrawal}`,
      `/console/keys/${a.keyId}`,
    ]) {
      expect((await getWithSession(path, cookieB)).status, path).toBe(404);
      expect((await getWithSession(path, cookieA)).status, path).toBe(200);
    }

    // The same requests from A's own users succeed: the refusals above were about the merchant, not the input.
    const cookies = { owner: cookieA, approver: await sessionOf(a.approver, APPROVER_PASSWORD) };
    for (const attempt of attempts.filter((x) => x.ownUser)) {
      const answer = await postAction(attempt.action, attempt.fields, { cookie: cookies[attempt.ownUser!], page: attempt.page?.(a) });
      expect(answer.state, attempt.what).toMatchObject({ status: "ok" });
    }
    const after = await stateOfA();
    expect(after.ips.map((ip) => ip.address)).toEqual([a.ip]); // the second address removed; the request is not an entry
    expect(after.requests.map((r) => [r.address, r.state])).toEqual([
      ["192.0.2.99", "PENDING"],
      ["198.51.100.44", "CANCELLED"],
    ]);
    expect(after.keys.find((k) => k.id === a.keyId)?.revokedAt).not.toBeNull();
    expect(after.withdrawal?.status).toBe("PENDING");
    expect(after.events).toBe(before.events + 1);
  });
});

it("an inactive merchant's users cannot create API keys (nothing written), and reactivation brings no key back", async () => {
  const m = await newMerchant();
  const cookie = await sessionOf(m.owner, OWNER_PASSWORD);
  await db.apiKey.updateMany({ where: { merchantId: m.merchant.id }, data: { revokedAt: new Date() } }); // what deactivation does
  await db.merchant.update({ where: { id: m.merchant.id }, data: { status: "INACTIVE" } });
  const { result, rows } = await newAuditRows(m.owner.id, () =>
    postAction("keys.createKeyAction", { name: "while inactive", scopes: ["payments:read"] }, { cookie }),
  );
  expect(result.state).toMatchObject({ status: "error", message: expect.stringMatching(/^This merchant is inactive, so no API key can be created/) });
  expect(rows).toEqual([]);
  expect(await db.apiKey.count({ where: { merchantId: m.merchant.id, revokedAt: null } })).toBe(0);
  await db.merchant.update({ where: { id: m.merchant.id }, data: { status: "ACTIVE" } });
  expect(await db.apiKey.count({ where: { merchantId: m.merchant.id, revokedAt: null } })).toBe(0);
  expect((await m.api("/v1/payments?limit=1")).status).toBe(401);
});

describe("every console action writes exactly one audit row", () => {
  it.each(CASES.map((c) => [c.action, c] as const))("%s, run by an allowed user", async (_name, c) => {
    const m = await (c.merchant ?? newMerchant)();
    const prepared = await c.prepare(m);
    const user = await allowedUser(c, m);
    const before = await prepared.state();
    const { result, rows } = await newAuditRows(user.id, () => postAction(c.action, prepared.fields, { cookie: user.cookie, page: prepared.page }));
    expect(result.state).toMatchObject({ status: "ok" });
    if (prepared.stateUnchangedWhenAllowed) expect(await prepared.state()).toEqual(before);
    else expect(await prepared.state()).not.toEqual(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorId: user.id, actorName: user.username, ...prepared.audit });
  });
});
