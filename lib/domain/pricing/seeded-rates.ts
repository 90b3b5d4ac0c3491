// The seeded sandbox's FX rates (docs/guides/operate-sandpiper.md "Seeded sandbox"): its pairs have a rate for every Dubai day of a window
// around today, so a sandbox left running for weeks, or a sandbox clock moved ahead, never meets FX_RATE_MISSING for
// them. The seed fills the window, the job `extend-seeded-rates` (lib/application/jobs/registry.ts) keeps it ahead of the real
// clock and of every moved sandbox clock, and a clock advance extends it in its own transaction. A rate that exists
// (an operator's) is never changed, and no other pair is ever filled in.
import { z } from "zod";
import { systemNow } from "@/lib/platform/clock";
import { parseRows, type Db } from "@/lib/platform/db";
import { dubaiDay } from "@/lib/contract/money/dubai";

/** The settings row the seed writes (`npm run seed`): its presence says this database is a seeded sandbox. */
export const SEED_SETTING_KEY = "seed";

/** The seeded sandbox's standing direct base rates (docs/guides/operate-sandpiper.md "Seeded sandbox"). */
export const SEEDED_RATES: readonly { base: string; quote: string; rate: string }[] = [{ base: "USD", quote: "AED", rate: "3.6725" }];

/**
 * The seeded sandbox merchant's pricing terms (docs/guides/operate-sandpiper.md "Seeded sandbox"): USD gateway
 * deposits charged in AED and settled in USD, with a markup, a buffer, a commission and a reserve. Basis points are
 * whole numbers; `delayDays` and `reserveDays` are Dubai business days. Pass it to `savePricingVersion` with a
 * `merchantId` and a `reason`; benchmarks and tests that need the same profile use it too.
 */
export const SEEDED_USD_DEPOSIT_TERMS = {
  currency: "USD",
  channel: "GATEWAY",
  direction: "DEPOSIT",
  chargeCurrency: "AED",
  settlementCurrency: "USD",
  markupBps: 150,
  bufferBps: 50,
  commissionBps: 250,
  reserveBps: 500,
  delayDays: 2,
  reserveDays: 90,
} as const;

/** Days before today that the window covers (the charts' history), and days ahead of the latest sandbox day. */
export const SEEDED_RATE_WINDOW = { pastDays: 30, daysAhead: 90 } as const;

const DAY_MS = 86_400_000;

/** The Dubai days from `first` to `last` (YYYY-MM-DD, both included), in order; none when `last` is before `first`. */
export function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** The Dubai day `n` days after `day` (before it for a negative `n`). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The furthest any merchant's sandbox clock runs ahead (ms; null without merchants), for the window's end. */
const FurthestRow = z.object({ offset: z.bigint().nullable() });

/**
 * Gives each seeded pair a rate for every Dubai day of the window that has none: from {@link SEEDED_RATE_WINDOW}
 * `pastDays` before today to `daysAhead` after the latest of today, `through` and every merchant's sandbox day.
 * Nothing happens on a database that was not seeded (no `settings` row {@link SEED_SETTING_KEY}). Rates that exist
 * are kept as they are (the insert skips a day that has one: an operator's rate always wins).
 * @param opts.now the real time (default the clock); opts.through a sandbox time the window must also cover (a
 *   clock advance passes the merchant's new time); opts.force fills the window even before the seed's row exists
 *   (the seed itself, in its first transaction).
 * @returns how many rates were added.
 */
export async function extendSeededRates(db: Db, opts: { now?: Date; through?: Date; force?: boolean } = {}): Promise<{ added: number; until: string | null }> {
  const now = opts.now ?? systemNow();
  if (!opts.force && !(await db.setting.findUnique({ where: { key: SEED_SETTING_KEY }, select: { key: true } }))) return { added: 0, until: null };
  const [furthest] = parseRows(FurthestRow, await db.$queryRaw<Record<string, unknown>[]>`SELECT max(clock_offset_ms) AS offset FROM merchants`);
  const latest = Math.max(now.getTime() + Number(furthest?.offset ?? 0n), opts.through?.getTime() ?? 0);
  const first = addDays(dubaiDay(now), -SEEDED_RATE_WINDOW.pastDays);
  const until = addDays(dubaiDay(new Date(latest)), SEEDED_RATE_WINDOW.daysAhead);
  const days = daysBetween(first, until);
  const { count } = await db.fxRate.createMany({
    data: SEEDED_RATES.flatMap((r) => days.map((day) => ({ base: r.base, quote: r.quote, rate: r.rate, day, createdById: null, createdAt: now }))),
    skipDuplicates: true,
  });
  return { added: count, until };
}
