// Shared by the e2e provisioning scripts (run with DATABASE_URL = the e2e database): an active merchant
// allow-listing 127.0.0.1 and ::1, a MERCHANT console user owning a full-scope API key, one GATEWAY DEPOSIT
// pricing profile charged in AED, and today's direct rate of that currency to AED.
import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/platform/db";
import { issueApiKey, SCOPES } from "@/lib/domain/keys/api-keys";
import { createConsoleUser } from "@/lib/domain/users/create-console-user";
import { createMerchant } from "@/lib/domain/merchants/create-merchant";
import { savePricingVersion } from "@/lib/domain/pricing/profile-versions";
import { dubaiDay } from "@/lib/contract/money/dubai";

export type E2eMerchant = {
  name: string;
  enabledCurrencies: string[];
  amountEntryEnabled?: boolean;
  /** The profile's currency, settled in itself; its rate to AED (decimal text) for today's Dubai day. */
  currency: string;
  rateToAed: string;
  markupBps: number;
  bufferBps: number;
  commissionBps: number;
  reason: string;
};

/** Provisions the merchant; returns its id and the API key (shown once). */
export async function provisionE2eMerchant(input: E2eMerchant): Promise<{ merchantId: string; key: string }> {
  const db = getDb();
  const merchant = await createMerchant(db, {
    name: input.name,
    amountEntryEnabled: input.amountEntryEnabled,
    enabledCurrencies: input.enabledCurrencies,
    allowedIps: ["127.0.0.1", "::1"],
  });
  const owner = await createConsoleUser(db, { username: `e2e-${randomUUID().slice(0, 8)}`, password: randomUUID(), role: "MERCHANT", merchantId: merchant.id });
  await savePricingVersion(db, {
    merchantId: merchant.id,
    currency: input.currency,
    channel: "GATEWAY",
    direction: "DEPOSIT",
    chargeCurrency: "AED",
    settlementCurrency: input.currency,
    markupBps: input.markupBps,
    bufferBps: input.bufferBps,
    commissionBps: input.commissionBps,
    reason: input.reason,
  });
  const day = dubaiDay();
  const pair = { base: input.currency, quote: "AED", day };
  await db.fxRate.upsert({ where: { base_quote_day: pair }, create: { ...pair, rate: input.rateToAed }, update: {} });
  const { key } = await issueApiKey(db, { merchantId: merchant.id, ownerId: owner.id, scopes: SCOPES, name: `e2e: ${input.name}` });
  return { merchantId: merchant.id, key };
}

/** Runs a provisioning script's main and exits 1 with the error on failure. */
export function runScript(main: () => Promise<void>): void {
  main()
    .then(() => getDb().$disconnect())
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
