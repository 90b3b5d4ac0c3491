import { systemNow } from "@/lib/clock";
import { z } from "zod";
import { writeAudit } from "@/lib/audit";
import { assertOperator, auditActor, type ConsoleActor } from "@/lib/auth/actor";
import { currencyField, reasonField } from "@/lib/schemas/form-fields";
import type { Db, Tx } from "@/lib/db";
import { apiError } from "@/lib/errors";
import type { FxRate } from "@/lib/generated/prisma/client";
import { dubaiDay, FIRST_DAY, isValidDay, LAST_DAY } from "@/lib/money/dubai";
import { formatRate, parseRate, RATE_PATTERN } from "@/lib/money/rates";

/** How far ahead a rate may be entered, in days. */
export const MAX_DAYS_AHEAD = 31;

/**
 * A base rate as entered in the console (docs/api.md "Pricing": entered manually per direct
 * currency pair per day; a reverse pair is a separate entry). Rate = units of quote per 1 unit of base.
 */
export const RateInput = z
  .object({
    base: currencyField,
    quote: currencyField,
    day: z
      .string()
      .trim()
      .refine(isValidDay, { message: `must be a date YYYY-MM-DD from ${FIRST_DAY} to ${LAST_DAY}` }),
    rate: z
      .string()
      .trim()
      .regex(RATE_PATTERN, { message: "must be a positive decimal such as 3.6725 (up to 12 decimals)" })
      .refine((r) => /[1-9]/.test(r), { message: "must be greater than zero" }),
    reason: reasonField,
  })
  .refine((v) => v.base !== v.quote, { path: ["quote"], message: "must differ from the base currency" });
export type RateInput = z.output<typeof RateInput>;

/**
 * Enters (or corrects) the direct base rate base -> quote for a Dubai business day (operator only) and audits it.
 * Only today and up to MAX_DAYS_AHEAD days ahead can be set: payments of past days already carry their snapshot.
 * A correction changes only payments created after it; snapshots never change.
 * @throws ApiError 403 FORBIDDEN, 400 VALIDATION_ERROR (day in the past or too far ahead).
 */
export async function saveRate(tx: Tx, actor: ConsoleActor, input: RateInput, now = systemNow()): Promise<FxRate> {
  assertOperator(actor);
  const today = dubaiDay(now);
  const last = dubaiDay(new Date(now.getTime() + MAX_DAYS_AHEAD * 86_400_000));
  if (input.day < today) throw apiError("VALIDATION_ERROR", `day: rates of past days (before ${today}) cannot change`);
  if (input.day > last) throw apiError("VALIDATION_ERROR", `day: at most ${MAX_DAYS_AHEAD} days ahead (until ${last})`);
  const rate = formatRate(parseRate(input.rate));
  const key = { base: input.base, quote: input.quote, day: input.day };
  const before = await tx.fxRate.findUnique({ where: { base_quote_day: key } });
  const saved = await tx.fxRate.upsert({
    where: { base_quote_day: key },
    create: { ...key, rate, createdById: actor.id, createdAt: now },
    update: { rate, createdById: actor.id },
  });
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: before ? "fx_rate.correct" : "fx_rate.create",
      entity: "fx_rate",
      entityId: saved.id,
      before: before && { pair: `${before.base}->${before.quote}`, day: before.day, rate: before.rate },
      after: { pair: `${saved.base}->${saved.quote}`, day: saved.day, rate: saved.rate },
      reason: input.reason,
    },
    now,
  );
  return saved;
}

/** The rates of one Dubai day, by pair. */
export async function ratesOfDay(db: Db, day: string) {
  return db.fxRate.findMany({ where: { day }, orderBy: [{ base: "asc" }, { quote: "asc" }] });
}

/** Days that have rates, newest first (for the day picker), at most `limit`. */
export async function rateDays(db: Db, limit = 30): Promise<string[]> {
  const rows = await db.fxRate.findMany({ distinct: ["day"], select: { day: true }, orderBy: { day: "desc" }, take: limit });
  return rows.map((r) => r.day);
}

/**
 * Direct pairs needed today that have no rate for today's Dubai day: for the latest,
 * enabled version of every pricing profile, currency -> charge currency and currency -> settlement currency
 * when they differ, plus every pair that had a rate on an earlier day. Each with the profiles that need it.
 */
export async function missingRatesToday(db: Db, now = systemNow()): Promise<{ pair: string; base: string; quote: string; usedBy: number }[]> {
  const today = dubaiDay(now);
  const profiles = await db.pricingProfile.findMany({ include: { versions: { orderBy: { version: "desc" }, take: 1 } } });
  const needed = new Map<string, number>();
  const need = (base: string, quote: string, count: number) => {
    if (base !== quote) needed.set(`${base}->${quote}`, (needed.get(`${base}->${quote}`) ?? 0) + count);
  };
  for (const p of profiles) {
    const v = p.versions[0];
    if (!v || !v.enabled) continue;
    need(p.currency, v.chargeCurrency, 1);
    if (v.settlementCurrency !== v.chargeCurrency) need(p.currency, v.settlementCurrency, 1);
  }
  const earlier = await db.fxRate.findMany({ where: { day: { lt: today } }, distinct: ["base", "quote"], select: { base: true, quote: true } });
  for (const r of earlier) need(r.base, r.quote, 0);
  const present = new Set((await ratesOfDay(db, today)).map((r) => `${r.base}->${r.quote}`));
  return [...needed.entries()]
    .filter(([pair]) => !present.has(pair))
    .map(([pair, usedBy]) => {
      const [base, quote] = pair.split("->");
      return { pair, base, quote, usedBy };
    })
    .sort((a, b) => b.usedBy - a.usedBy || a.pair.localeCompare(b.pair));
}
