import { systemNow } from "@/lib/platform/clock";
import { Prisma } from "@/lib/platform/generated/prisma/client";
import { scopedMerchantId, type ConsoleActor } from "@/lib/domain/auth/actor";
import { z } from "zod";
import { parseRow, type Db } from "@/lib/platform/db";
import { fromMinor } from "@/lib/contract/money/currency";
import { dubaiDay, dubaiMonth } from "@/lib/contract/money/dubai";
import { limitUsedSql } from "@/lib/domain/pricing/limits";

// The pricing page's limit chart (docs/guides/console-for-operators.md "Console tour"): each pricing profile's daily and monthly limit against what
// pending and succeeded payments use of it now, from the limit counters the create path keeps (limit_counters,
// period "D:<Dubai day>" and "M:<Dubai month>", the sum of the period's slots clamped at 0: limitUsedSql).

/** Used and limit as decimal text in the profile's currency; `ratio` used/limit (0..1+), null when unlimited. */
export type LimitFigure = { used: string; limit: string | null; ratio: number | null };
export type ProfileUsage = {
  profileId: string;
  merchantId: string;
  merchantName: string;
  label: string;
  currency: string;
  channel: "BANK_TRANSFER" | "GATEWAY";
  direction: "DEPOSIT" | "WITHDRAWAL";
  daily: LimitFigure;
  monthly: LimitFigure;
};
export type LimitUsage = { day: string; month: string; profiles: ProfileUsage[]; open: true };

function figure(used: bigint, limit: bigint | null): LimitFigure {
  return {
    used: fromMinor(used),
    limit: limit === null ? null : fromMinor(limit),
    ratio: limit === null || limit === 0n ? null : Number((used * 10_000n) / limit) / 10_000,
  };
}

/** A profile's limits and use as {@link limitUsage} reads them (minor units of the profile's currency). */
const UsageRow = z.object({
  profileId: z.string(),
  merchantId: z.string(),
  merchantName: z.string(),
  currency: z.string(),
  channel: z.enum(["BANK_TRANSFER", "GATEWAY"]),
  direction: z.enum(["DEPOSIT", "WITHDRAWAL"]),
  daily: z.bigint().nullable(),
  monthly: z.bigint().nullable(),
  usedDay: z.bigint(),
  usedMonth: z.bigint(),
});

/**
 * Every pricing profile with a daily or monthly limit in its latest version, for the actor's merchants (a MERCHANT
 * user's own; an operator's chosen one or all), with today's and this month's use. One statement.
 */
export async function limitUsage(db: Db, actor: ConsoleActor, opts: { merchantId?: string | null; now?: Date } = {}): Promise<LimitUsage> {
  const now = opts.now ?? systemNow();
  const merchantId = scopedMerchantId(actor, opts.merchantId) ?? null;
  const day = dubaiDay(now);
  const month = dubaiMonth(now);
  const raw = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT p.id AS "profileId", p.merchant_id AS "merchantId", m.name AS "merchantName", p.currency, p.channel::text AS channel, p.direction::text AS direction,
           v.daily_limit_minor AS daily, v.monthly_limit_minor AS monthly,
           ${limitUsedSql(Prisma.sql`p.id`, `D:${day}`)} AS "usedDay", ${limitUsedSql(Prisma.sql`p.id`, `M:${month}`)} AS "usedMonth"
    FROM pricing_profiles p
    JOIN merchants m ON m.id = p.merchant_id
    JOIN LATERAL (SELECT daily_limit_minor, monthly_limit_minor FROM pricing_profile_versions WHERE profile_id = p.id ORDER BY version DESC LIMIT 1) v ON true
    WHERE (v.daily_limit_minor IS NOT NULL OR v.monthly_limit_minor IS NOT NULL) ${merchantId ? Prisma.sql`AND p.merchant_id = ${merchantId}::uuid` : Prisma.empty}
    ORDER BY m.name, p.currency, p.channel, p.direction`;
  const rows = raw.map((r) => parseRow(UsageRow, r));
  return {
    day,
    month,
    profiles: rows.map((r) => ({
      profileId: r.profileId,
      merchantId: r.merchantId,
      merchantName: r.merchantName,
      currency: r.currency,
      channel: r.channel,
      direction: r.direction,
      label: `${r.currency} ${r.channel === "GATEWAY" ? "gateway" : "bank-transfer"} ${r.direction === "DEPOSIT" ? "deposits" : "withdrawals"}`,
      daily: figure(r.usedDay, r.daily),
      monthly: figure(r.usedMonth, r.monthly),
    })),
    open: true,
  };
}
