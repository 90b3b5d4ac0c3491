// A merchant as the sandbox's seed makes it (docs/guides/operate-sandpiper.md "Seeded sandbox"): the one recipe of
// `npm run seed`'s merchants and of the merchants a running @sandpiper/sandbox makes on demand, one per test
// (docs/guides/test-in-your-own-suite.md "A merchant per test").
import type { Tx } from "@/lib/platform/db";
import { SYSTEM_ACTOR } from "@/lib/domain/audit";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { issueApiKey, SCOPES } from "@/lib/domain/keys/api-keys";
import { createMerchant } from "@/lib/domain/merchants/create-merchant";
import { savePricingVersion } from "@/lib/domain/pricing/profile-versions";
import { SEEDED_USD_DEPOSIT_TERMS } from "@/lib/domain/pricing/seeded-rates";
import { addStandardRules } from "@/lib/domain/scenarios/rules";
import { createConsoleUser } from "@/lib/domain/users/create-console-user";

/** The seeded merchants' fallback commission, basis points (docs/guides/operate-sandpiper.md "Seeded sandbox"). */
const SEEDED_COMMISSION_BPS = 150;

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
  /** The sandbox time of the audit rows the standard rules write. */
  now: Date;
};

/**
 * Makes a merchant as the seed does, inside `tx`: ACTIVE, every currency, the seeded commission, `allowedIps`; its
 * console user `owner`; the seeded USD gateway-deposit pricing (SEEDED_USD_DEPOSIT_TERMS: AED charge, limits none);
 * and, as `input` asks, customer amount-entry, a callback address (a new secret), fast retries and the standard
 * scenario rules. Nothing is shared with another merchant: payments, events, deliveries, the request log, the sandbox
 * clock, rules and settings are each merchant's own.
 * @returns the merchant's id, its owner's id and the callback secret (null without a callback address)
 * @throws ApiError 400 VALIDATION_ERROR "callbackUrl: ..." for an address the policy refuses (roll `tx` back: nothing made);
 *   Error for an allow-list entry that is not an IP address; a database error for a user name taken
 */
export async function makeSandboxMerchant(
  tx: Tx,
  input: SandboxMerchantInput,
): Promise<{ merchantId: string; ownerId: string; callbackSecret: string | null }> {
  const merchant = await createMerchant(tx, {
    name: input.name,
    defaultCommissionBps: SEEDED_COMMISSION_BPS,
    allowedIps: input.allowedIps,
    amountEntryEnabled: input.amountEntry ?? false,
    fastRetries: input.fastRetries ?? false,
  });
  const callbackSecret = input.callbackUrl ? (await setCallbackUrl(tx, { merchantId: merchant.id, url: input.callbackUrl })).secret : null;
  const owner = await createConsoleUser(tx, { username: input.owner.username, password: input.owner.password, role: "MERCHANT", merchantId: merchant.id });
  await savePricingVersion(tx, { merchantId: merchant.id, ...SEEDED_USD_DEPOSIT_TERMS, reason: input.pricing.reason, createdById: input.pricing.createdById });
  if (input.standardRules) await addStandardRules(tx, SYSTEM_ACTOR, merchant.id, input.now);
  return { merchantId: merchant.id, ownerId: owner.id, callbackSecret };
}

/**
 * Issues a merchant's two API keys as the seed does: `full` (every scope) and `readOnly` (payments:read), named
 * `<label>: full` and `<label>: read-only`, owned by `ownerId`. The secrets are answered this once.
 */
export async function issueSandboxKeys(db: Tx | Parameters<typeof issueApiKey>[0], input: { merchantId: string; ownerId: string; label: string }) {
  const full = await issueApiKey(db, { merchantId: input.merchantId, ownerId: input.ownerId, scopes: SCOPES, name: `${input.label}: full` });
  const readOnly = await issueApiKey(db, {
    merchantId: input.merchantId,
    ownerId: input.ownerId,
    scopes: ["payments:read"],
    name: `${input.label}: read-only`,
  });
  return { full: full.key, readOnly: readOnly.key };
}
