import { systemNow } from "@/lib/platform/clock";
import { z } from "zod";
import { writeAudit } from "@/lib/domain/audit";
import { assertOperator, auditActor, type ConsoleActor } from "@/lib/domain/auth/actor";
import { currencyField, reasonField } from "@/lib/contract/schemas/forms/fields";
import type { Db, Tx } from "@/lib/platform/db";
import { apiError, fieldError } from "@/lib/contract/errors";
import type { FxRate } from "@/lib/platform/generated/prisma/client";
import { dubaiDay, FIRST_DAY, isValidDay, LAST_DAY } from "@/lib/contract/money/dubai";
import { addDays, daysBetween } from "@/lib/domain/pricing/seeded-rates";
import { CsvError, parse } from "csv-parse/sync";
import { formatRate, parseRate, RATE_PATTERN } from "@/lib/contract/money/rates";

/** How far ahead a rate may be entered, in days (a year: a range can cover the sandbox's look-ahead). */
export const MAX_DAYS_AHEAD = 366;

const dayField = z
  .string()
  .trim()
  .refine(isValidDay, { message: `must be a date YYYY-MM-DD from ${FIRST_DAY} to ${LAST_DAY}` });

/**
 * A base rate as entered in the console (docs/api.md "Pricing": entered manually per direct currency pair per day;
 * a reverse pair is a separate entry), for one Dubai day or, with `through`, for every day from `day` to `through`
 * (both included). Rate = units of quote per 1 unit of base.
 */
export const RateInput = z
  .object({
    base: currencyField,
    quote: currencyField,
    day: dayField,
    through: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), dayField.optional()),
    rate: z
      .string()
      .trim()
      .regex(RATE_PATTERN, { message: "must be a positive decimal such as 3.6725 (up to 12 decimals)" })
      .refine((r) => /[1-9]/.test(r), { message: "must be greater than zero" }),
    reason: reasonField,
  })
  .refine((v) => v.base !== v.quote, { path: ["quote"], message: "must differ from the base currency" })
  .refine((v) => !v.through || v.through >= v.day, { path: ["through"], message: "must be the first day or a later one" });
export type RateInput = z.output<typeof RateInput>;

/** What one entry saved: the first day's rate id (the audit row's entity), the pair, its first and last day, and how many days were new or corrected. */
export type SavedRates = { id: string; base: string; quote: string; rate: string; day: string; through: string; created: number; corrected: number };

/**
 * Enters (or corrects) the direct base rate base -> quote for a Dubai business day, or for each day of a range
 * (operator only), and audits it: one audit row per entry, `fx_rate.create` or `fx_rate.correct` for one day,
 * `fx_rate.set_range` for a range (before: the days' earlier rates; after: the pair, days and rate). Only today and
 * up to MAX_DAYS_AHEAD days ahead can be set: payments of past days already carry their snapshot. A correction
 * changes only payments created after it; snapshots never change.
 * @throws ApiError 403 FORBIDDEN, 400 VALIDATION_ERROR (a day in the past or too far ahead).
 */
export async function saveRate(tx: Tx, actor: ConsoleActor, input: RateInput, now = systemNow()): Promise<SavedRates> {
  assertOperator(actor);
  const today = dubaiDay(now);
  const last = dubaiDay(new Date(now.getTime() + MAX_DAYS_AHEAD * 86_400_000));
  const through = input.through ?? input.day;
  if (input.day < today) throw fieldError("day", `rates of past days (before ${today}) cannot change`);
  if (through > last) throw fieldError(input.through ? "through" : "day", `at most ${MAX_DAYS_AHEAD} days ahead (until ${last})`);
  const rate = formatRate(parseRate(input.rate));
  const days = daysBetween(input.day, through);
  const pair = { base: input.base, quote: input.quote };
  const earlier = await tx.fxRate.findMany({ where: { ...pair, day: { gte: input.day, lte: through } }, orderBy: { day: "asc" } });
  const saved: FxRate[] = [];
  for (const day of days) {
    saved.push(
      await tx.fxRate.upsert({
        where: { base_quote_day: { ...pair, day } },
        create: { ...pair, day, rate, createdById: actor.id, createdAt: now },
        update: { rate, createdById: actor.id },
      }),
    );
  }
  const [first] = saved;
  if (!first) throw new Error(`no day from ${input.day} through ${through}`);
  const name = `${input.base}->${input.quote}`;
  const single = days.length === 1;
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: single ? (earlier.length ? "fx_rate.correct" : "fx_rate.create") : "fx_rate.set_range",
      entity: "fx_rate",
      entityId: first.id,
      before: single
        ? earlier[0] && { pair: name, day: earlier[0].day, rate: earlier[0].rate }
        : earlier.length
          ? { pair: name, rates: earlier.map((r) => ({ day: r.day, rate: r.rate })) }
          : null,
      after: single ? { pair: name, day: input.day, rate } : { pair: name, from: input.day, through, days: days.length, rate },
      reason: input.reason,
    },
    now,
  );
  return { id: first.id, ...pair, rate, day: input.day, through, created: days.length - earlier.length, corrected: earlier.length };
}

/** The console's CSV import of rates: the file's text and one reason for every entry in it. */
export const RateImportInput = z.object({
  csv: z.string().max(20_000, { message: "at most 20,000 characters: import more rates in parts" }),
  reason: reasonField,
});

/** The header of a rates CSV file: a pair, its first and last Dubai day, and the rate (`through` may be empty: one day). */
export const RATE_CSV_HEADER = ["base", "quote", "from", "through", "rate"] as const;

/**
 * Imports rates from CSV text (RFC 4180, read with csv-parse; header `base,quote,from,through,rate`, one entry a
 * line, `through` empty for one day), all or nothing: every line is checked as the console form checks one entry,
 * then each is saved with {@link saveRate} (one audit row per line, with the import's reason).
 * @returns the entries saved, in file order.
 * @throws ApiError 400 VALIDATION_ERROR naming the first lines that are wrong (line numbers of the file) and what to
 *   do; nothing is saved then. 403 FORBIDDEN for a MERCHANT user.
 */
export async function importRates(tx: Tx, actor: ConsoleActor, input: z.output<typeof RateImportInput>, now = systemNow()): Promise<SavedRates[]> {
  assertOperator(actor);
  let records: string[][];
  try {
    records = parse(input.csv, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true });
  } catch (error) {
    throw fieldError("csv", `${error instanceof CsvError ? error.message : "not readable as CSV"}; nothing was imported`);
  }
  const [header, ...rows] = records;
  if (!header || header.map((h) => h.toLowerCase()).join(",") !== RATE_CSV_HEADER.join(",")) {
    throw fieldError("csv", `the first line must be the header ${RATE_CSV_HEADER.join(",")}; nothing was imported`);
  }
  if (rows.length === 0) throw fieldError("csv", "no rates after the header; nothing was imported");
  const problems: string[] = [];
  const entries: RateInput[] = [];
  rows.forEach((fields, i) => {
    const [base, quote, day, through, rate] = fields;
    const parsed = RateInput.safeParse({ base, quote, day, through, rate, reason: input.reason });
    if (fields.length !== RATE_CSV_HEADER.length) problems.push(`line ${i + 2}: expected 5 fields (${RATE_CSV_HEADER.join(",")}), found ${fields.length}`);
    else if (!parsed.success) problems.push(`line ${i + 2}: ${parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ")}`);
    else entries.push(parsed.data);
  });
  if (problems.length) {
    throw apiError(
      "VALIDATION_ERROR",
      `Nothing was imported. ${problems.slice(0, 10).join("; ")}${problems.length > 10 ? ` (and ${problems.length - 10} more)` : ""}`,
    );
  }
  const saved: SavedRates[] = [];
  for (const entry of entries) saved.push(await saveRate(tx, actor, entry, now));
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
  const needed = new Map<string, { pair: string; base: string; quote: string; usedBy: number }>();
  const need = (base: string, quote: string, count: number) => {
    if (base === quote) return;
    const pair = `${base}->${quote}`;
    const entry = needed.get(pair) ?? { pair, base, quote, usedBy: 0 };
    entry.usedBy += count;
    needed.set(pair, entry);
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
  return [...needed.values()].filter(({ pair }) => !present.has(pair)).sort((a, b) => b.usedBy - a.usedBy || a.pair.localeCompare(b.pair));
}

/** A pair an enabled pricing profile needs, and the Dubai days of a look-ahead that have no rate for it. */
export type MissingRate = { pair: string; base: string; quote: string; days: string[]; usedBy: number };

/**
 * The direct pairs that enabled pricing profiles need (the latest version of each: currency -> charge currency, and
 * currency -> settlement currency when they differ) with no rate for some Dubai day from `from`'s day through the
 * `days - 1` days after it: the console Overview's warning ahead and a sandbox clock advance's answer.
 * @param opts.merchantId one merchant's profiles only (a clock advance); default every merchant's.
 * @returns each pair with its missing days (in order) and how many profiles need it, most needed first; none when
 *   every day has its rates.
 */
export async function missingRatesAhead(db: Db, opts: { from: Date; days: number; merchantId?: string }): Promise<MissingRate[]> {
  const first = dubaiDay(opts.from);
  const last = addDays(first, opts.days - 1);
  const profiles = await db.pricingProfile.findMany({
    where: opts.merchantId ? { merchantId: opts.merchantId } : {},
    include: { versions: { orderBy: { version: "desc" }, take: 1 } },
  });
  const needed = new Map<string, { base: string; quote: string; usedBy: number }>();
  for (const p of profiles) {
    const v = p.versions[0];
    if (!v || !v.enabled) continue;
    for (const quote of new Set([v.chargeCurrency, v.settlementCurrency])) {
      if (quote === p.currency) continue;
      const key = `${p.currency}->${quote}`;
      const entry = needed.get(key) ?? { base: p.currency, quote, usedBy: 0 };
      entry.usedBy++;
      needed.set(key, entry);
    }
  }
  if (needed.size === 0) return [];
  const present = await db.fxRate.findMany({
    where: { day: { gte: first, lte: last }, OR: [...needed.values()].map(({ base, quote }) => ({ base, quote })) },
    select: { base: true, quote: true, day: true },
  });
  const have = new Set(present.map((r) => `${r.base}->${r.quote} ${r.day}`));
  const window = daysBetween(first, last);
  return [...needed.entries()]
    .map(([pair, n]) => ({ pair, base: n.base, quote: n.quote, usedBy: n.usedBy, days: window.filter((day) => !have.has(`${pair} ${day}`)) }))
    .filter((m) => m.days.length > 0)
    .sort((a, b) => b.usedBy - a.usedBy || a.pair.localeCompare(b.pair));
}
