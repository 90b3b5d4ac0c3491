// npm run seed [-- --json]: idempotent bootstrap of the sandbox (see README "Seeded sandbox").
import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db";
import { issueApiKey, SCOPES } from "@/lib/auth/api-keys";
import { createConsoleUser, createMerchant, savePricingVersion } from "@/lib/merchants/provision";
import { dubaiDay } from "@/lib/money/dubai";
import { SEED_CATALOG } from "@/lib/store/catalog-seed";

const db = getDb();
const json = process.argv.includes("--json");
const password = () => randomBytes(12).toString("base64url");
const SEED_KEY = "seed";

type SeedIds = { merchantId: string; secondMerchantId: string; merchantUserId: string; approverUserId: string; secondUserId: string };

async function firstSeed() {
  const callbackUrl = process.env.SEED_CALLBACK_URL || null;
  const callbackSecret = callbackUrl ? `whsec_${randomBytes(24).toString("base64url")}` : null;
  const allowedIps = (process.env.SEED_ALLOWED_IPS ?? "127.0.0.1,::1").split(",").map((s) => s.trim()).filter(Boolean);
  const merchant = await createMerchant(db, { name: "Sandbox Merchant", defaultCommissionBps: 150, callbackUrl, callbackSecret, allowedIps });
  const second = await createMerchant(db, { name: "Second Sandbox Merchant", defaultCommissionBps: 200, allowedIps });
  const passwords = { operator: password(), merchant: password(), approver: password(), second: password() };
  const operator = await createConsoleUser(db, { username: "operator", password: passwords.operator, role: "OPERATOR" });
  const merchantUser = await createConsoleUser(db, { username: "merchant", password: passwords.merchant, role: "MERCHANT", merchantId: merchant.id });
  const approver = await createConsoleUser(db, { username: "approver", password: passwords.approver, role: "MERCHANT", merchantId: merchant.id });
  const secondUser = await createConsoleUser(db, { username: "second", password: passwords.second, role: "MERCHANT", merchantId: second.id });
  await savePricingVersion(db, {
    merchantId: merchant.id, currency: "USD", channel: "GATEWAY", direction: "DEPOSIT",
    chargeCurrency: "AED", settlementCurrency: "USD", markupBps: 150, bufferBps: 50, commissionBps: 250, reserveBps: 500,
    delayDays: 2, reserveDays: 90, reason: "seed: USD gateway deposits charged in AED", createdById: operator.id,
  });
  await ensureSeedRate(operator.id);
  await db.bankAccount.create({
    data: { name: "Sandbox clearing account", holder: "Sandpiper Sandbox FZ-LLC", iban: "AE070331234567890123456", bankName: "Sandbox Bank", dailyCapacity: 10_000 },
  });
  await db.catalogItem.createMany({ data: SEED_CATALOG.map((i) => ({ sku: i.sku, name: i.name, kind: i.kind, priceMinor: i.priceMinor })), skipDuplicates: true });
  const ids: SeedIds = { merchantId: merchant.id, secondMerchantId: second.id, merchantUserId: merchantUser.id, approverUserId: approver.id, secondUserId: secondUser.id };
  await db.setting.create({ data: { key: SEED_KEY, value: ids } });
  return { ids, passwords, callbackSecret, operatorId: operator.id };
}

/** The seeded sandbox's standing USD->AED base rate (README "Seeded sandbox"). */
const SEED_RATE = { base: "USD", quote: "AED", rate: "3.6725" } as const;

/**
 * Gives the seeded pair a rate for today's Dubai day when it has none, so the README walk-through works on any
 * day the sandbox is started. A rate an operator entered for today is never changed (skipDuplicates on the
 * unique (base, quote, day)); other pairs are never touched.
 */
async function ensureSeedRate(createdById: string | null) {
  await db.fxRate.createMany({ data: [{ ...SEED_RATE, day: dubaiDay(), createdById }], skipDuplicates: true });
}

async function main() {
  const existing = await db.setting.findUnique({ where: { key: SEED_KEY } });
  if (process.argv.includes("--refresh-rates")) {
    // npm start on a database seeded earlier: top up today's rate, issue nothing, print nothing.
    if (existing) await ensureSeedRate(null);
    return;
  }
  if (existing) await ensureSeedRate(null);
  const created = existing ? null : await firstSeed();
  const ids = (created?.ids ?? existing!.value) as SeedIds;
  // API keys are shown once: every seed run issues fresh ones (older keys stay valid).
  const full = await issueApiKey(db, { merchantId: ids.merchantId, ownerId: ids.merchantUserId, scopes: SCOPES, name: "seed: full" });
  const readOnly = await issueApiKey(db, { merchantId: ids.merchantId, ownerId: ids.merchantUserId, scopes: ["payments:read"], name: "seed: read-only" });
  const second = await issueApiKey(db, { merchantId: ids.secondMerchantId, ownerId: ids.secondUserId, scopes: SCOPES, name: "seed: second merchant" });
  const users = created
    ? {
        operator: { username: "operator", password: created.passwords.operator },
        merchant: { username: "merchant", password: created.passwords.merchant },
        approver: { username: "approver", password: created.passwords.approver },
        second: { username: "second", password: created.passwords.second },
      }
    : null;
  if (json) {
    console.log(JSON.stringify({
      merchantId: ids.merchantId,
      secondMerchantId: ids.secondMerchantId,
      keys: { full: full.key, readOnly: readOnly.key, secondMerchant: second.key },
      users,
      ...(created?.callbackSecret ? { callbackSecret: created.callbackSecret } : {}),
    }));
    return;
  }
  const lines = [
    "",
    created ? "Seeded the sandbox (shown once; keep these):" : "Sandbox already seeded; new API keys issued (older keys stay valid):",
    `  merchant id          ${ids.merchantId}`,
    `  API key (all scopes) ${full.key}`,
    `  API key (read only)  ${readOnly.key}`,
    `  second merchant key  ${second.key}`,
  ];
  if (users) {
    lines.push(`  console operator     ${users.operator.username} / ${users.operator.password}`);
    lines.push(`  console merchant     ${users.merchant.username} / ${users.merchant.password}   (owns the API keys)`);
    lines.push(`  console approver     ${users.approver.username} / ${users.approver.password}   (approves withdrawals)`);
  }
  if (created?.callbackSecret) lines.push(`  callback secret      ${created.callbackSecret}`);
  console.log(lines.join("\n") + "\n");
}

main()
  .then(() => db.$disconnect())
  .catch(async (error) => {
    console.error(error);
    await db.$disconnect();
    process.exit(1);
  });
