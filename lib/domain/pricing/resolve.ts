import { z } from "zod";
import { parseRow, parseRows, type Db } from "@/lib/platform/db";
import { Prisma, type PricingProfileVersion } from "@/lib/platform/generated/prisma/client";
import { apiError } from "@/lib/contract/errors";
import type { PricingTerms } from "@/lib/domain/pricing/snapshot";

/** An immutable pricing profile version row. */
export type ProfileVersion = PricingProfileVersion;

const minor = z
  .string()
  .nullable()
  .transform((v) => (v === null ? null : BigInt(v)));

/** A `pricing_profile_versions` row as {@link latestVersionColumn} gives it (minor units as text, then BigInt). */
const ProfileVersionJson = z.object({
  id: z.string(),
  profileId: z.string(),
  version: z.number().int(),
  chargeCurrency: z.string(),
  settlementCurrency: z.string(),
  markupBps: z.number().int(),
  bufferBps: z.number().int(),
  commissionBps: z.number().int().nullable(),
  commissionFixedMinor: minor,
  reserveBps: z.number().int(),
  delayDays: z.number().int(),
  reserveDays: z.number().int(),
  minAmountMinor: minor,
  maxAmountMinor: minor,
  dailyLimitMinor: minor,
  monthlyLimitMinor: minor,
  enabled: z.boolean(),
  reason: z.string(),
  createdById: z.string().nullable(),
  createdAt: z.string().transform((v) => new Date(v)),
}) satisfies z.ZodType<ProfileVersion, unknown>;

export type ResolvedPricing = { terms: PricingTerms; version: ProfileVersion | null };
type Kind = { currency: string; channel: "BANK_TRANSFER" | "GATEWAY"; direction: "DEPOSIT" | "WITHDRAWAL" };

/**
 * A JSON column: the latest version of the merchant's profile for currency x channel x direction (`merchantId`: an
 * expression, e.g. `m.id`), or null; minor units as text. Read it with {@link pricingOf}.
 */
export function latestVersionColumn(merchantId: Prisma.Sql, kind: Kind): Prisma.Sql {
  return Prisma.sql`(SELECT to_jsonb(v) || jsonb_build_object('commission_fixed_minor', v.commission_fixed_minor::text,
      'min_amount_minor', v.min_amount_minor::text, 'max_amount_minor', v.max_amount_minor::text,
      'daily_limit_minor', v.daily_limit_minor::text, 'monthly_limit_minor', v.monthly_limit_minor::text)
    FROM pricing_profiles p JOIN pricing_profile_versions v ON v.profile_id = p.id
    WHERE p.merchant_id = ${merchantId} AND p.currency = ${kind.currency}
      AND p.channel = ${kind.channel}::"PaymentMethod" AND p.direction = ${kind.direction}::"PaymentDirection"
    ORDER BY v.version DESC LIMIT 1)`;
}

/**
 * The pricing of a new payment (docs/api.md "Overview" 3, "Pricing limits") from {@link latestVersionColumn}'s JSON:
 * the latest version's terms; none -> fallback (merchant default commission, same currency, no markup).
 * @throws ApiError 409 PRICING_DISABLED when the latest version is disabled
 */
export function pricingOf(json: unknown, merchant: { defaultCommissionBps: number }, kind: Kind): ResolvedPricing {
  const version = json ? parseRow(ProfileVersionJson, json as Record<string, unknown>) : null;
  if (!version) {
    return {
      version: null,
      terms: {
        ruleId: null,
        ruleVersion: 0,
        fallback: true,
        chargeCurrency: kind.currency,
        settlementCurrency: kind.currency,
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
    throw apiError("PRICING_DISABLED", `pricing for ${kind.currency} ${kind.channel} ${kind.direction} is disabled for this merchant`);
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
 * The row of `SELECT latestVersionColumn AS version`: the column must be there; its JSON is checked once, by
 * {@link pricingOf}, so the row's own check looks no deeper than the column's presence.
 */
const VersionColumnRow = z.object({ version: z.unknown() });

/**
 * Resolves the pricing of a new payment ({@link pricingOf}) with one statement.
 * @throws ApiError 409 PRICING_DISABLED
 * @throws ZodError when the row or the version's JSON does not match its schema (a schema drift)
 */
export async function resolvePricing(
  db: Db,
  merchant: { id: string; defaultCommissionBps: number },
  currency: string,
  channel: "BANK_TRANSFER" | "GATEWAY",
  direction: "DEPOSIT" | "WITHDRAWAL",
): Promise<ResolvedPricing> {
  const kind = { currency, channel, direction };
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`SELECT ${latestVersionColumn(Prisma.sql`${merchant.id}::uuid`, kind)} AS version`;
  return pricingOf(parseRow(VersionColumnRow, row).version, merchant, kind);
}

/** A JSON column: every direct rate from `base` for a Dubai day, as `{ quote: rate }` (rates are decimal text). */
export function ratesColumn(base: string, day: string): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(jsonb_object_agg(quote, rate), '{}'::jsonb) FROM fx_rates WHERE base = ${base} AND day = ${day})`;
}

/**
 * The direct base rate base -> quote among `rates` ({@link ratesColumn}'s JSON); "1" for the same currency.
 * @throws ApiError 409 FX_RATE_MISSING when no direct rate exists for that day (a reverse pair never counts).
 */
export function rateFrom(rates: Record<string, unknown>, base: string, quote: string, day: string): string {
  if (base === quote) return "1";
  const rate = rates[quote];
  if (typeof rate !== "string") throw apiError("FX_RATE_MISSING", `no ${base}->${quote} rate for Dubai business day ${day}`);
  return rate;
}

/** A row of `fx_rates` as {@link directRate} reads it: the rate as decimal text. */
const RateRow = z.object({ rate: z.string() });

/**
 * The direct base rate base -> quote for a Dubai day ("1" for the same currency).
 * @throws ApiError 409 FX_RATE_MISSING when no direct rate exists for that day (a reverse pair never counts).
 * @throws ZodError when the row does not match {@link RateRow} (a schema drift)
 */
export async function directRate(db: Db, base: string, quote: string, day: string): Promise<string> {
  if (base === quote) return "1";
  const [rate] = parseRows(
    RateRow,
    await db.$queryRaw<Record<string, unknown>[]>`SELECT rate FROM fx_rates WHERE base = ${base} AND quote = ${quote} AND day = ${day}`,
  );
  return rateFrom(rate ? { [quote]: rate.rate } : {}, base, quote, day);
}
