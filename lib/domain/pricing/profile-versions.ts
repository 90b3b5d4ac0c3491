import { systemNow } from "@/lib/platform/clock";
import { z } from "zod";
import { writeAudit } from "@/lib/domain/audit";
import { assertOperator, auditActor, type ConsoleActor } from "@/lib/domain/auth/actor";
import { checkbox, currencyField, integer, optionalAmountMinor, reasonField, uuidField } from "@/lib/contract/schemas/forms/fields";
import type { Db, Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import type { PricingProfileVersion } from "@/lib/platform/generated/prisma/client";
import { AMOUNT_PATTERN, fromMinor, toMinor } from "@/lib/contract/money/currency";
import { pageOf } from "@/lib/contract/pagination";
import { CurrencyCode, isUuid } from "@/lib/contract/schemas/api/common";
import { parseStored } from "@/lib/contract/schemas/stored/parse";

const bps = integer(0, 10_000);

/**
 * A new pricing profile version as entered in the console (docs/api.md "Pricing": per merchant,
 * transaction currency, channel and direction: charge and settlement currencies, FX markup, risk buffer,
 * percentage or fixed commission, reserve, settlement delay in days, lower and upper transaction amount, daily
 * and monthly limits (empty = unlimited), with a reason on save). Rates and percentages are basis points.
 */
export const PricingVersionInput = z
  .object({
    merchantId: uuidField,
    currency: currencyField,
    channel: z.enum(["BANK_TRANSFER", "GATEWAY"], { message: "choose a channel" }),
    direction: z.enum(["DEPOSIT", "WITHDRAWAL"], { message: "choose a direction" }),
    chargeCurrency: currencyField,
    settlementCurrency: currencyField,
    markupBps: bps,
    bufferBps: bps,
    commissionType: z.enum(["PERCENT", "FIXED"], { message: "choose percentage or fixed" }),
    commissionBps: z.preprocess((v) => (v === "" || v === undefined ? "0" : v), bps),
    commissionFixed: z.preprocess(
      (v) => (v === "" || v === undefined ? "0" : typeof v === "string" ? v.trim() : v),
      z.string().regex(AMOUNT_PATTERN, { message: "must be an amount such as 1.50" }),
    ),
    reserveBps: bps,
    delayDays: integer(0, 3650),
    reserveDays: integer(0, 3650),
    minAmount: optionalAmountMinor,
    maxAmount: optionalAmountMinor,
    dailyLimit: optionalAmountMinor,
    monthlyLimit: optionalAmountMinor,
    enabled: checkbox,
    reason: reasonField,
  })
  .superRefine((v, ctx) => {
    if (v.channel === "GATEWAY" && v.direction === "WITHDRAWAL") {
      ctx.addIssue({ code: "custom", path: ["direction"], message: "GATEWAY supports deposits only" });
    }
    if (v.minAmount !== null && v.maxAmount !== null && v.minAmount > v.maxAmount) {
      ctx.addIssue({ code: "custom", path: ["maxAmount"], message: "must not be below the lower amount" });
    }
    if (v.dailyLimit !== null && v.monthlyLimit !== null && v.dailyLimit > v.monthlyLimit) {
      ctx.addIssue({ code: "custom", path: ["monthlyLimit"], message: "must not be below the daily limit" });
    }
  });
export type PricingVersionInput = z.output<typeof PricingVersionInput>;

/**
 * Saves a new immutable version of a merchant's pricing profile (operator only) and audits it with the previous
 * version as `before`. Snapshots of existing payments never change: they were copied onto the payments.
 * @throws ApiError 403 FORBIDDEN (not an operator), 404 NOT_FOUND (unknown merchant), 409 INVALID_STATE when
 *   another version was saved at the same moment.
 */
export async function saveProfileVersion(tx: Tx, actor: ConsoleActor, input: PricingVersionInput, now = systemNow()): Promise<PricingProfileVersion> {
  assertOperator(actor);
  const merchant = await tx.merchant.findUnique({ where: { id: input.merchantId }, select: { id: true } });
  if (!merchant) throw apiError("NOT_FOUND", "merchant not found");
  const previous = await tx.pricingProfileVersion.findFirst({
    where: { profile: { merchantId: input.merchantId, currency: input.currency, channel: input.channel, direction: input.direction } },
    orderBy: { version: "desc" },
  });
  const fixed = input.commissionType === "FIXED";
  const version = await savePricingVersion(tx, {
    merchantId: input.merchantId,
    currency: input.currency,
    channel: input.channel,
    direction: input.direction,
    chargeCurrency: input.chargeCurrency,
    settlementCurrency: input.settlementCurrency,
    markupBps: input.markupBps,
    bufferBps: input.bufferBps,
    commissionBps: fixed ? null : input.commissionBps,
    commissionFixedMinor: fixed ? toMinor(input.commissionFixed) : null,
    reserveBps: input.reserveBps,
    delayDays: input.delayDays,
    reserveDays: input.reserveDays,
    minAmountMinor: input.minAmount,
    maxAmountMinor: input.maxAmount,
    dailyLimitMinor: input.dailyLimit,
    monthlyLimitMinor: input.monthlyLimit,
    enabled: input.enabled,
    reason: input.reason,
    createdById: actor.id,
  });
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: previous ? "pricing_profile.new_version" : "pricing_profile.create",
      entity: "pricing_profile_version",
      entityId: version.id,
      merchantId: input.merchantId,
      before: previous,
      after: version,
      reason: input.reason,
    },
    now,
  );
  return version;
}

/** Switches a profile on or off by saving a copy of its latest version with `enabled` changed (operator only). */
export async function setProfileEnabled(
  tx: Tx,
  actor: ConsoleActor,
  input: { profileId: string; enabled: boolean; reason: string },
  now = systemNow(),
): Promise<PricingProfileVersion> {
  assertOperator(actor);
  const profile = await tx.pricingProfile.findUnique({
    where: { id: input.profileId },
    include: { versions: { orderBy: { version: "desc" }, take: 1 } },
  });
  const latest = profile?.versions[0];
  if (!profile || !latest) throw apiError("NOT_FOUND", "pricing profile not found");
  if (latest.enabled === input.enabled) throw apiError("INVALID_STATE", `the profile is already ${input.enabled ? "enabled" : "disabled"}`);
  return saveProfileVersion(tx, actor, { ...versionAsInput(profile, latest), enabled: input.enabled, reason: input.reason }, now);
}

/**
 * The input that re-creates `version` of `profile` (the form's starting values for the next version); the stored
 * currencies read through CurrencyCode.
 * @throws StoredDataError naming the column when a stored currency is not one the service offers
 */
export function versionAsInput(
  profile: { merchantId: string; currency: string; channel: "BANK_TRANSFER" | "GATEWAY"; direction: "DEPOSIT" | "WITHDRAWAL" },
  version: PricingProfileVersion,
): PricingVersionInput {
  return {
    merchantId: profile.merchantId,
    currency: parseStored(CurrencyCode, profile.currency, "pricing_profiles.currency"),
    channel: profile.channel,
    direction: profile.direction,
    chargeCurrency: parseStored(CurrencyCode, version.chargeCurrency, "pricing_profile_versions.charge_currency"),
    settlementCurrency: parseStored(CurrencyCode, version.settlementCurrency, "pricing_profile_versions.settlement_currency"),
    markupBps: version.markupBps,
    bufferBps: version.bufferBps,
    commissionType: version.commissionFixedMinor === null ? "PERCENT" : "FIXED",
    commissionBps: version.commissionBps ?? 0,
    commissionFixed: version.commissionFixedMinor === null ? "0" : fromMinor(version.commissionFixedMinor),
    reserveBps: version.reserveBps,
    delayDays: version.delayDays,
    reserveDays: version.reserveDays,
    minAmount: version.minAmountMinor,
    maxAmount: version.maxAmountMinor,
    dailyLimit: version.dailyLimitMinor,
    monthlyLimit: version.monthlyLimitMinor,
    enabled: version.enabled,
    reason: version.reason,
  };
}

/** Pricing profiles with their latest version, optionally for one merchant, newest first. */
export async function listProfiles(db: Db, q: { merchantId?: string; page: number; limit: number }) {
  const where = q.merchantId ? { merchantId: q.merchantId } : {};
  const [total, rows] = await Promise.all([
    db.pricingProfile.count({ where }),
    db.pricingProfile.findMany({
      where,
      include: { merchant: { select: { name: true } }, versions: { orderBy: { version: "desc" }, take: 1 } },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      skip: (q.page - 1) * q.limit,
      take: q.limit,
    }),
  ]);
  return pageOf(rows, total, q);
}

/**
 * A profile with every version, newest first, and the user name of each version's author.
 * @throws ApiError 404 NOT_FOUND for a malformed or unknown id
 */
export async function profileHistory(db: Db, profileId: string) {
  if (!isUuid(profileId)) throw apiError("NOT_FOUND", "pricing profile not found");
  const profile = await db.pricingProfile.findUnique({
    where: { id: profileId },
    include: { merchant: { select: { id: true, name: true } }, versions: { orderBy: { version: "desc" } } },
  });
  if (!profile) throw apiError("NOT_FOUND", "pricing profile not found");
  const authors = await db.consoleUser.findMany({
    where: { id: { in: profile.versions.map((v) => v.createdById).filter((x): x is string => !!x) } },
    select: { id: true, username: true },
  });
  const author = new Map(authors.map((a) => [a.id, a.username]));
  return { profile, versions: profile.versions.map((v) => ({ ...v, createdBy: v.createdById ? (author.get(v.createdById) ?? null) : null })) };
}

/** A pricing version's terms as a caller gives them (amounts in minor units, rates in basis points); defaults in {@link pricingVersionValues}. */
export type NewPricingTerms = {
  chargeCurrency: string;
  settlementCurrency: string;
  markupBps?: number;
  bufferBps?: number;
  commissionBps?: number | null;
  commissionFixedMinor?: bigint | null;
  reserveBps?: number;
  delayDays?: number;
  reserveDays?: number;
  minAmountMinor?: bigint | null;
  maxAmountMinor?: bigint | null;
  dailyLimitMinor?: bigint | null;
  monthlyLimitMinor?: bigint | null;
  enabled?: boolean;
  reason: string;
  createdById?: string | null;
};

/** Saves a new immutable pricing profile version (creating the profile on first use); version = last + 1. */
export async function savePricingVersion(
  db: Db,
  input: NewPricingTerms & { merchantId: string; currency: string; channel: "BANK_TRANSFER" | "GATEWAY"; direction: "DEPOSIT" | "WITHDRAWAL" },
) {
  const profile = await db.pricingProfile.upsert({
    where: {
      merchantId_currency_channel_direction: {
        merchantId: input.merchantId,
        currency: input.currency,
        channel: input.channel,
        direction: input.direction,
      },
    },
    create: { merchantId: input.merchantId, currency: input.currency, channel: input.channel, direction: input.direction },
    update: {},
    include: { versions: { orderBy: { version: "desc" }, take: 1 } },
  });
  return db.pricingProfileVersion.create({
    data: { profileId: profile.id, version: (profile.versions[0]?.version ?? 0) + 1, ...pricingVersionValues(input) },
  });
}

/**
 * A new pricing profile version's terms (Prisma's field names) with every default applied: a fixed commission
 * (`commissionFixedMinor`, minor units) replaces the percentage one. The one recipe of {@link savePricingVersion} and of
 * the sandbox's one-statement merchant make (lib/simulators/sandbox-merchants).
 */
export function pricingVersionValues(input: NewPricingTerms) {
  const fixed = input.commissionFixedMinor ?? null;
  return {
    chargeCurrency: input.chargeCurrency,
    settlementCurrency: input.settlementCurrency,
    markupBps: input.markupBps ?? 0,
    bufferBps: input.bufferBps ?? 0,
    commissionBps: fixed === null ? (input.commissionBps ?? 0) : null,
    commissionFixedMinor: fixed,
    reserveBps: input.reserveBps ?? 0,
    delayDays: input.delayDays ?? 0,
    reserveDays: input.reserveDays ?? 0,
    minAmountMinor: input.minAmountMinor ?? null,
    maxAmountMinor: input.maxAmountMinor ?? null,
    dailyLimitMinor: input.dailyLimitMinor ?? null,
    monthlyLimitMinor: input.monthlyLimitMinor ?? null,
    enabled: input.enabled ?? true,
    reason: input.reason,
    createdById: input.createdById ?? null,
  };
}
