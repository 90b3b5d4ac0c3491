// npm run seed [-- --json]: idempotent bootstrap of the sandbox (see docs/guides/operate-sandpiper.md "Seeded sandbox").
import { config, configOrExit } from "@/lib/platform/config";
import { getDb, transaction, type Tx } from "@/lib/platform/db";
import { issueApiKey, SCOPES } from "@/lib/domain/keys/api-keys";
import { createConsoleUser, randomPassword } from "@/lib/domain/users/create-console-user";
import { createMerchant } from "@/lib/domain/merchants/create-merchant";
import { extendSeededRates, SEED_SETTING_KEY } from "@/lib/domain/pricing/seeded-rates";
import { systemNow } from "@/lib/platform/clock";
import { ApiError } from "@/lib/contract/errors";
import { issueSandboxKeys, makeSandboxMerchant } from "@/lib/simulators/sandbox-merchants/make-merchant";
import { SEED_CATALOG } from "@/lib/simulators/test-store/catalog-seed";

// A refused variable (e.g. SEED_ALLOWED_IPS with a name instead of an address) ends the seed here, one line each.
configOrExit(undefined, "npm run seed refused");
const db = getDb();
const json = process.argv.includes("--json");
const password = randomPassword;
const SEED_KEY = SEED_SETTING_KEY;

type SeedIds = {
  merchantId: string;
  secondMerchantId: string;
  merchantUserId: string;
  approverUserId: string;
  secondUserId: string;
  /** Added later: databases seeded before it get it on their next seed run. */
  amountEntryMerchantId?: string;
  amountEntryUserId?: string;
};

/**
 * The "Amount-entry Merchant": customer amount-entry switched on (so POST /v1/checkout-sessions works and
 * POST /v1/store-payments answers LEGACY_FLOW_DISABLED), its console user `amountentry`, and a USD gateway-deposit
 * profile charged in AED so the customer page can quote USD as well as AED.
 */
async function seedAmountEntryMerchant(tx: Tx, allowedIps: string[], operatorId: string | null) {
  const userPassword = password();
  const made = await makeSandboxMerchant(tx, {
    name: "Amount-entry Merchant",
    allowedIps,
    amountEntry: true,
    owner: { username: "amountentry", password: userPassword },
    pricing: { reason: "seed: USD amount-entry quotes charged in AED", createdById: operatorId },
    now: systemNow(),
  });
  return { merchantId: made.merchantId, userId: made.ownerId, password: userPassword };
}

/** SEED_ALLOWED_IPS through the one configuration (lib/platform/config.ts; default 127.0.0.1 and ::1). */
const seedAllowedIps = () => config().SEED_ALLOWED_IPS;

/** Creates everything of the sandbox in one transaction: a refused SEED_CALLBACK_URL leaves nothing behind. */
async function firstSeed(tx: Tx) {
  const allowedIps = seedAllowedIps();
  const passwords = { operator: password(), merchant: password(), approver: password(), second: password() };
  const operator = await createConsoleUser(tx, { username: "operator", password: passwords.operator, role: "OPERATOR" });
  // The same address policy and secret as a console save (a loopback receiver needs CALLBACK_ALLOW_LOOPBACK=1).
  const merchant = await makeSandboxMerchant(tx, {
    name: "Sandbox Merchant",
    allowedIps,
    callbackUrl: config().SEED_CALLBACK_URL,
    owner: { username: "merchant", password: passwords.merchant },
    pricing: { reason: "seed: USD gateway deposits charged in AED", createdById: operator.id },
    now: systemNow(),
  });
  const callbackSecret = merchant.callbackSecret;
  const second = await createMerchant(tx, { name: "Second Sandbox Merchant", defaultCommissionBps: 200, allowedIps });
  const approver = await createConsoleUser(tx, { username: "approver", password: passwords.approver, role: "MERCHANT", merchantId: merchant.merchantId });
  const secondUser = await createConsoleUser(tx, { username: "second", password: passwords.second, role: "MERCHANT", merchantId: second.id });
  const amountEntry = await seedAmountEntryMerchant(tx, allowedIps, operator.id);
  // The seeded pairs' rates for a window of days around today (docs/guides/operate-sandpiper.md "Seeded sandbox"; the service's job keeps it ahead).
  await extendSeededRates(tx, { force: true });
  await tx.bankAccount.create({
    data: {
      name: "Sandbox clearing account",
      holder: "Sandpiper Sandbox FZ-LLC",
      iban: "AE070331234567890123456",
      bankName: "Sandbox Bank",
      dailyCapacity: 10_000,
    },
  });
  await tx.catalogItem.createMany({
    data: SEED_CATALOG.map((i) => ({ sku: i.sku, name: i.name, kind: i.kind, priceMinor: i.priceMinor })),
    skipDuplicates: true,
  });
  const ids: SeedIds = {
    merchantId: merchant.merchantId,
    secondMerchantId: second.id,
    merchantUserId: merchant.ownerId,
    approverUserId: approver.id,
    secondUserId: secondUser.id,
    amountEntryMerchantId: amountEntry.merchantId,
    amountEntryUserId: amountEntry.userId,
  };
  await tx.setting.create({ data: { key: SEED_KEY, value: ids } });
  return { ids, passwords: { ...passwords, amountEntry: amountEntry.password }, callbackSecret, operatorId: operator.id };
}

async function main() {
  const existing = await db.setting.findUnique({ where: { key: SEED_KEY } });
  if (existing) await extendSeededRates(db);
  const created = existing ? null : await transaction((tx) => firstSeed(tx), { timeout: 120_000 });
  let ids = (created?.ids ?? existing!.value) as SeedIds;
  let addedAmountEntryPassword: string | null = null;
  if (!ids.amountEntryMerchantId) {
    // A sandbox seeded before the amount-entry merchant existed gets it now (and its user's password, once).
    const added = await transaction(async (tx) => {
      const a = await seedAmountEntryMerchant(tx, seedAllowedIps(), null);
      const next: SeedIds = { ...ids, amountEntryMerchantId: a.merchantId, amountEntryUserId: a.userId };
      await tx.setting.update({ where: { key: SEED_KEY }, data: { value: next } });
      return { next, password: a.password };
    });
    ids = added.next;
    addedAmountEntryPassword = added.password;
  }
  // API keys are shown once: every seed run issues fresh ones (older keys stay valid).
  const { full, readOnly } = await issueSandboxKeys(db, { merchantId: ids.merchantId, ownerId: ids.merchantUserId, label: "seed" });
  const second = await issueApiKey(db, { merchantId: ids.secondMerchantId, ownerId: ids.secondUserId, scopes: SCOPES, name: "seed: second merchant" });
  const amountEntry = await issueApiKey(db, {
    merchantId: ids.amountEntryMerchantId!,
    ownerId: ids.amountEntryUserId!,
    scopes: SCOPES,
    name: "seed: amount-entry merchant",
  });
  const amountEntryPassword = created?.passwords.amountEntry ?? addedAmountEntryPassword;
  const users = created
    ? {
        operator: { username: "operator", password: created.passwords.operator },
        merchant: { username: "merchant", password: created.passwords.merchant },
        approver: { username: "approver", password: created.passwords.approver },
        second: { username: "second", password: created.passwords.second },
      }
    : null;
  const amountEntryUser = amountEntryPassword ? { username: "amountentry", password: amountEntryPassword } : null;
  if (json) {
    console.log(
      JSON.stringify({
        merchantId: ids.merchantId,
        secondMerchantId: ids.secondMerchantId,
        amountEntryMerchantId: ids.amountEntryMerchantId,
        keys: { full, readOnly, secondMerchant: second.key, amountEntry: amountEntry.key },
        users: users || amountEntryUser ? { ...users, ...(amountEntryUser ? { amountEntry: amountEntryUser } : {}) } : null,
        ...(created?.callbackSecret ? { callbackSecret: created.callbackSecret } : {}),
      }),
    );
    return;
  }
  const lines = [
    "",
    created
      ? "Seeded the sandbox (keep these: the database keeps only hashes of the keys and passwords):"
      : "Sandbox already seeded; new API keys issued (older keys stay valid):",
    `  merchant id          ${ids.merchantId}`,
    `  API key (all scopes) ${full}`,
    `  API key (read only)  ${readOnly}`,
    `  second merchant key  ${second.key}`,
    `  amount-entry key     ${amountEntry.key}   (merchant with customer amount-entry: POST /v1/checkout-sessions)`,
  ];
  if (users) {
    lines.push(`  console operator     ${users.operator.username} / ${users.operator.password}`);
    lines.push(`  console merchant     ${users.merchant.username} / ${users.merchant.password}   (owns the API keys)`);
    lines.push(`  console approver     ${users.approver.username} / ${users.approver.password}   (approves withdrawals)`);
  }
  if (amountEntryUser) lines.push(`  console amount-entry ${amountEntryUser.username} / ${amountEntryUser.password}   (the amount-entry merchant)`);
  if (created?.callbackSecret) lines.push(`  callback secret      ${created.callbackSecret}`);
  console.log(lines.join("\n") + "\n");
}

main()
  .then(() => db.$disconnect())
  .catch(async (error) => {
    // A refused setting (ApiError: e.g. SEED_CALLBACK_URL against the address policy) is told plainly; anything else in full.
    console.error(error instanceof ApiError ? `npm run seed refused: ${error.message}` : error);
    await db.$disconnect();
    process.exit(1);
  });
