import { z } from "zod";
import { parseRow, type Db } from "@/lib/db";
import type { PricingProfileVersion } from "@/lib/generated/prisma/client";
import { apiError } from "@/lib/errors";
import type { PricingTerms } from "@/lib/pricing/snapshot";

/** An immutable pricing profile version row. */
export type ProfileVersion = PricingProfileVersion;

/** A `pricing_profile_versions` row as `resolvePricing`'s raw statement returns it, checked by `parseRow` (lib/db.ts). */
const ProfileVersionRow = z.object({
  id: z.string(),
  profileId: z.string(),
  version: z.number().int(),
  chargeCurrency: z.string(),
  settlementCurrency: z.string(),
  markupBps: z.number().int(),
  bufferBps: z.number().int(),
  commissionBps: z.number().int().nullable(),
  commissionFixedMinor: z.bigint().nullable(),
  reserveBps: z.number().int(),
  delayDays: z.number().int(),
  reserveDays: z.number().int(),
  minAmountMinor: z.bigint().nullable(),
  maxAmountMinor: z.bigint().nullable(),
  dailyLimitMinor: z.bigint().nullable(),
  monthlyLimitMinor: z.bigint().nullable(),
  enabled: z.boolean(),
  reason: z.string(),
  createdById: z.string().nullable(),
  createdAt: z.date(),
}) satisfies z.ZodType<ProfileVersion>;

export type ResolvedPricing = { terms: PricingTerms; version: ProfileVersion | null };

/**
 * Resolves the pricing of a new payment (docs/api.md "Overview" 3, "Pricing limits"): the latest
 * version of the merchant's profile for currency x channel x direction; none -> fallback (merchant default
 * commission, same currency, no markup). The latest version disabled -> 409 PRICING_DISABLED.
 */
export async function resolvePricing(
  db: Db,
  merchant: { id: string; defaultCommissionBps: number },
  currency: string,
  channel: "BANK_TRANSFER" | "GATEWAY",
  direction: "DEPOSIT" | "WITHDRAWAL",
): Promise<ResolvedPricing> {
  // Raw SQL: runs on every payment creation (the row checked by lib/db.ts parseRow). The profile's latest version.
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT v.* FROM pricing_profiles p
    JOIN LATERAL (SELECT * FROM pricing_profile_versions WHERE profile_id = p.id ORDER BY version DESC LIMIT 1) v ON true
    WHERE p.merchant_id = ${merchant.id}::uuid AND p.currency = ${currency}
      AND p.channel = ${channel}::"PaymentMethod" AND p.direction = ${direction}::"PaymentDirection"`;
  const version = row ? parseRow(ProfileVersionRow, row) : undefined;
  if (!version) {
    return {
      version: null,
      terms: {
        ruleId: null,
        ruleVersion: 0,
        fallback: true,
        chargeCurrency: currency,
        settlementCurrency: currency,
        markupBps: 0,
        bufferBps: 0,
        commissionBps: merchant.defaultCommissionBps,
        commissionFixedMinor: null,
        reserveBps: 0,
        delayDays: 0,
        reserveDays: 0,
      },
    };
  }
  if (!version.enabled) {
    throw apiError("PRICING_DISABLED", `pricing for ${currency} ${channel} ${direction} is disabled for this merchant`);
  }
  return {
    version,
    terms: {
      ruleId: version.profileId,
      ruleVersion: version.version,
      fallback: false,
      chargeCurrency: version.chargeCurrency,
      settlementCurrency: version.settlementCurrency,
      markupBps: version.markupBps,
      bufferBps: version.bufferBps,
      commissionBps: version.commissionBps,
      commissionFixedMinor: version.commissionFixedMinor,
      reserveBps: version.reserveBps,
      delayDays: version.delayDays,
      reserveDays: version.reserveDays,
    },
  };
}

/**
 * The direct base rate base -> quote for a Dubai day ("1" for the same currency).
 * @throws ApiError 409 FX_RATE_MISSING when no direct rate exists for that day (a reverse pair never counts).
 */
export async function directRate(db: Db, base: string, quote: string, day: string): Promise<string> {
  if (base === quote) return "1";
  const [rate] = await db.$queryRaw<{ rate: string }[]>`SELECT rate FROM fx_rates WHERE base = ${base} AND quote = ${quote} AND day = ${day}`;
  if (!rate) throw apiError("FX_RATE_MISSING", `no ${base}->${quote} rate for Dubai business day ${day}`);
  return rate.rate;
}
