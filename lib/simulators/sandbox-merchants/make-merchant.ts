// A merchant as the sandbox's seed makes it (docs/guides/operate-sandpiper.md "Seeded sandbox"): the one recipe of
// `npm run seed`'s merchants and of the merchants a running @sandpiper/sandbox makes on demand, one per test
// (docs/guides/test-in-your-own-suite.md "A merchant per test"). Its rows are written by one statement beside Prisma
// (docs/architecture.md "Hot paths"): a make is a test's first step, and a dozen ORM statements cost a test more than
// the make's own work (docs/benchmarks.md "Sandbox merchants").
import { randomUUID } from "node:crypto";
import { Prisma, query, transaction, type Tx } from "@/lib/platform/db";
import { systemNow } from "@/lib/platform/clock";
import { SYSTEM_ACTOR } from "@/lib/domain/audit";
import { checkedCallbackAddress } from "@/lib/domain/callbacks/callback-config";
import { issueApiKey, newApiKey, SCOPES, type Scope } from "@/lib/domain/keys/api-keys";
import { newMerchantValues } from "@/lib/domain/merchants/create-merchant";
import { pricingVersionValues } from "@/lib/domain/pricing/profile-versions";
import { SEEDED_USD_DEPOSIT_TERMS } from "@/lib/domain/pricing/seeded-rates";
import { addStandardRules } from "@/lib/domain/scenarios/rules";
import { consolePasswordHash } from "@/lib/domain/users/create-console-user";

/** The seeded merchants' fallback commission, basis points (docs/guides/operate-sandpiper.md "Seeded sandbox"). */
const SEEDED_COMMISSION_BPS = 150;

/** A sandbox merchant's two keys: `full` (every scope) and `readOnly` (payments:read), named after `label`. */
const SANDBOX_KEYS = (label: string) =>
  ({
    full: { scopes: SCOPES, name: `${label}: full` },
    readOnly: { scopes: ["payments:read"], name: `${label}: read-only` },
  }) satisfies Record<string, { scopes: readonly Scope[]; name: string }>;

/** What {@link makeSandboxMerchant} makes. */
export type SandboxMerchantInput = {
  name: string;
  /** The server IP allow-list (the seed's SEED_ALLOWED_IPS). */
  allowedIps: string[];
  /** Its console user, who owns its API keys; `password: null` makes a user who cannot sign in until an operator sets a password. */
  owner: { username: string; password: string | null };
  /** Customer amount-entry switched on (POST /v1/checkout-sessions works, POST /v1/store-payments answers LEGACY_FLOW_DISABLED). */
  amountEntry?: boolean;
  /** Its callback address, checked by the address policy as a console save is; none when null or absent. */
  callbackUrl?: string | null;
  /** Fast callback retries (docs/callbacks.md "Fast retries") from the start; default off. */
  fastRetries?: boolean;
  /** The standard scenario rules (docs/guides/test-every-path.md "Scenario rules") from the start; default none. */
  standardRules?: boolean;
  /** The USD gateway-deposit pricing version's reason and author (a console user id, or null for the system). */
  pricing: { reason: string; createdById: string | null };
  /** Its two API keys ({@link issueSandboxKeys}' `full` and `readOnly`) made with it, named after this label; none when absent. */
  keysLabel?: string;
  /** The sandbox time of the audit rows the standard rules write. */
  now: Date;
};

/** What {@link makeSandboxMerchant} answers: the ids, the callback secret (null without an address) and the keys asked for. */
export type MadeSandboxMerchant = {
  merchantId: string;
  ownerId: string;
  callbackSecret: string | null;
  keys: { full: string; readOnly: string } | null;
};

/**
 * Makes a merchant as the seed does: ACTIVE, every currency, the seeded commission, `allowedIps`; its console user
 * `owner`; the seeded USD gateway-deposit pricing (SEEDED_USD_DEPOSIT_TERMS: AED charge, limits none); and, as `input`
 * asks, customer amount-entry, a callback address (a new secret), fast retries, the standard scenario rules and its
 * two keys. Nothing is shared with another merchant: payments, events, deliveries, the request log, the sandbox clock,
 * rules and settings are each merchant's own.
 *
 * The rows are one statement: inside `tx` when one is given (the seed's transaction), else on its own through the
 * pool, atomic by itself; with the standard rules, the statement and the rules share a transaction.
 * @returns {@link MadeSandboxMerchant}
 * @throws ApiError 400 VALIDATION_ERROR "callbackUrl: ..." for an address the policy refuses (nothing made);
 *   Error for an allow-list entry that is not an IP address; a database error for a user name taken (nothing made)
 */
export async function makeSandboxMerchant(tx: Tx | null, input: SandboxMerchantInput): Promise<MadeSandboxMerchant> {
  const callback = input.callbackUrl ? await checkedCallbackAddress(input.callbackUrl) : null;
  const { addresses, values: merchant } = newMerchantValues({
    name: input.name,
    defaultCommissionBps: SEEDED_COMMISSION_BPS,
    allowedIps: input.allowedIps,
    amountEntryEnabled: input.amountEntry ?? false,
    fastRetries: input.fastRetries ?? false,
    callbackUrl: callback?.url ?? null,
    callbackSecret: callback?.secret ?? null,
  });
  const now = systemNow();
  const ids = { merchantId: randomUUID(), ownerId: randomUUID(), profileId: randomUUID() };
  const passwordHash = await consolePasswordHash(input.owner.password);
  const version = pricingVersionValues({ ...SEEDED_USD_DEPOSIT_TERMS, reason: input.pricing.reason, createdById: input.pricing.createdById });
  const terms = SEEDED_USD_DEPOSIT_TERMS;
  const made = input.keysLabel === undefined ? null : SANDBOX_KEYS(input.keysLabel);
  const keys = made && { full: newApiKey({ ...made.full, now }), readOnly: newApiKey({ ...made.readOnly, now }) };
  const keyRows = keys ? [keys.full.values, keys.readOnly.values] : [];
  // Each CTE's INSERT takes its values by column (VALUES infers their types); the ids come from here, so no CTE reads
  // another's rows, and the foreign keys are checked at the statement's end, when every row is in.
  const statement = Prisma.sql`
    WITH merchant AS (
      INSERT INTO merchants (id, name, status, enabled_currencies, default_commission_bps, callback_url, callback_secret,
        amount_entry_enabled, fast_retries, required_customer_fields, store_requires_country, bank_transfer_deposit_minutes,
        gateway_deposit_minutes, withdrawal_approval_minutes, store_checkout_minutes, checkout_session_minutes, created_at, updated_at)
      VALUES (${ids.merchantId}::uuid, ${merchant.name}, ${merchant.status}::"MerchantStatus", ${merchant.enabledCurrencies}::text[],
        ${merchant.defaultCommissionBps}::int, ${merchant.callbackUrl}::text, ${merchant.callbackSecret}::text, ${merchant.amountEntryEnabled}::boolean,
        ${merchant.fastRetries}::boolean, ${merchant.requiredCustomerFields}::text[], ${merchant.storeRequiresCountry}::boolean,
        ${merchant.bankTransferDepositMinutes}::int, ${merchant.gatewayDepositMinutes}::int, ${merchant.withdrawalApprovalMinutes}::int,
        ${merchant.storeCheckoutMinutes}::int, ${merchant.checkoutSessionMinutes}::int, ${now}::timestamptz, ${now}::timestamptz)
    ), allowed AS (
      INSERT INTO allowed_ips (id, merchant_id, address, created_at)
      SELECT gen_random_uuid(), ${ids.merchantId}::uuid, address, ${now}::timestamptz FROM unnest(${addresses}::text[]) AS address
    ), owner AS (
      INSERT INTO console_users (id, username, password_hash, role, merchant_id, created_at, updated_at)
      VALUES (${ids.ownerId}::uuid, ${input.owner.username}, ${passwordHash}, 'MERCHANT', ${ids.merchantId}::uuid, ${now}::timestamptz, ${now}::timestamptz)
    ), profile AS (
      INSERT INTO pricing_profiles (id, merchant_id, currency, channel, direction, created_at)
      VALUES (${ids.profileId}::uuid, ${ids.merchantId}::uuid, ${terms.currency}, ${terms.channel}::"PaymentMethod",
        ${terms.direction}::"PaymentDirection", ${now}::timestamptz)
    ), version AS (
      INSERT INTO pricing_profile_versions (id, profile_id, version, charge_currency, settlement_currency, markup_bps, buffer_bps,
        commission_bps, commission_fixed_minor, reserve_bps, delay_days, reserve_days, min_amount_minor, max_amount_minor,
        daily_limit_minor, monthly_limit_minor, enabled, reason, created_by_id, created_at)
      VALUES (gen_random_uuid(), ${ids.profileId}::uuid, 1, ${version.chargeCurrency}, ${version.settlementCurrency}, ${version.markupBps}::int,
        ${version.bufferBps}::int, ${version.commissionBps}::int, ${version.commissionFixedMinor?.toString() ?? null}::bigint, ${version.reserveBps}::int,
        ${version.delayDays}::int, ${version.reserveDays}::int, ${version.minAmountMinor?.toString() ?? null}::bigint,
        ${version.maxAmountMinor?.toString() ?? null}::bigint, ${version.dailyLimitMinor?.toString() ?? null}::bigint,
        ${version.monthlyLimitMinor?.toString() ?? null}::bigint, ${version.enabled}::boolean, ${version.reason}, ${version.createdById}::uuid, ${now}::timestamptz)
    ), keys AS (
      INSERT INTO api_keys (id, merchant_id, owner_id, name, prefix, hash, scopes, expires_at, created_at)
      SELECT gen_random_uuid(), ${ids.merchantId}::uuid, ${ids.ownerId}::uuid, k.name, k.prefix, k.hash, k.scopes, k."expiresAt", k."createdAt"
      FROM jsonb_to_recordset(${JSON.stringify(keyRows)}::jsonb)
        AS k(name text, prefix text, hash text, scopes text[], "expiresAt" timestamptz, "createdAt" timestamptz)
    )
    SELECT 1`;
  const write = async (on: Tx) => {
    await on.$queryRaw(statement);
    if (input.standardRules) await addStandardRules(on, SYSTEM_ACTOR, ids.merchantId, input.now);
  };
  if (tx) await write(tx);
  else if (input.standardRules) await transaction(write);
  else await query(statement);
  return {
    merchantId: ids.merchantId,
    ownerId: ids.ownerId,
    callbackSecret: callback?.secret ?? null,
    keys: keys && { full: keys.full.key, readOnly: keys.readOnly.key },
  };
}

/**
 * Issues a merchant's two API keys as the seed does: `full` (every scope) and `readOnly` (payments:read), named
 * `<label>: full` and `<label>: read-only`, owned by `ownerId`. The secrets are answered this once.
 */
export async function issueSandboxKeys(db: Tx | Parameters<typeof issueApiKey>[0], input: { merchantId: string; ownerId: string; label: string }) {
  const keys = SANDBOX_KEYS(input.label);
  const full = await issueApiKey(db, { merchantId: input.merchantId, ownerId: input.ownerId, ...keys.full });
  const readOnly = await issueApiKey(db, { merchantId: input.merchantId, ownerId: input.ownerId, ...keys.readOnly });
  return { full: full.key, readOnly: readOnly.key };
}
