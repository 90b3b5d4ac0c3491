import { later, systemNow, type RealInstant } from "@/lib/platform/clock";
import { Prisma } from "@/lib/platform/generated/prisma/client";
import { scopedMerchantId, type ConsoleActor } from "@/lib/domain/auth/actor";
import { z } from "zod";
import { parseRow, type Db } from "@/lib/platform/db";
import { fromMinor } from "@/lib/contract/money/currency";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { recordedDayMoves } from "@/lib/domain/payments/counts";
import { lastDays } from "@/lib/domain/reports/days";

// The console overview's payment charts (docs/guides/console-for-operators.md "Console tour"), from the payment counters the create path keeps
// (payment_counts and its pending deltas: counts and amount sums per merchant, Dubai day, status and currency),
// never from the payments themselves: 30 days are a few hundred counter rows at most, whatever the volume.
// Payments count on the Dubai day they were recorded (real time; docs/operating.md "Times in the console"): the
// counters are kept by the day of created_at, so the payments written under a moved sandbox clock are moved from
// their sandbox day to their real one (lib/domain/payments/counts.ts recordedDayMoves, a small partial index).

/** One Dubai day's payments by outcome (recorded that day). `pending` holds PENDING and PENDING_APPROVAL. */
export type DayOutcomes = {
  day: string;
  succeeded: number;
  failed: number;
  expired: number;
  pending: number;
  cancelled: number;
  total: number;
  successRate: number | null;
};
/** One day's SUCCEEDED volume: per currency (decimal text in that currency) and as charged in AED (decimal text). */
export type DayVolume = { day: string; chargedAed: string; byCurrency: Record<string, string> };
/** A day's headline figures for "today against the same weekday last week". */
export type DayFigures = { day: string; payments: number; succeeded: number; chargedAed: string };

export type PaymentsOverview = {
  merchantId: string | null;
  days: string[];
  outcomes: DayOutcomes[];
  volume: DayVolume[];
  currencies: string[];
  today: DayFigures;
  lastWeek: DayFigures;
  /** SWR keeps polling while the page is open. */
  open: true;
};

/** A row of the day counts read by {@link paymentsOverview} (amounts in minor units). */
const DayCounts = z.object({ day: z.string(), status: z.string(), currency: z.string(), n: z.bigint(), amount: z.bigint(), aed: z.bigint() });

/**
 * Payments per Dubai day recorded (real time) of the last 30 days (today included) for the actor: a MERCHANT user's own merchant, an
 * operator's chosen merchant or all merchants (`merchantId` undefined). Per day: counts by outcome and the success
 * rate (SUCCEEDED / (SUCCEEDED + FAILED + EXPIRED), null when none ended), SUCCEEDED volume per currency and as
 * charged in AED; and today's figures against the same weekday a week earlier. One statement over the counters.
 */
export async function paymentsOverview(db: Db, actor: ConsoleActor, opts: { merchantId?: string | null; now?: RealInstant } = {}): Promise<PaymentsOverview> {
  const now = opts.now ?? systemNow();
  const merchantId = scopedMerchantId(actor, opts.merchantId) ?? null;
  const days = lastDays(now);
  const scope = merchantId ? Prisma.sql`AND merchant_id = ${merchantId}::uuid` : Prisma.empty;
  const raw = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT day, status::text AS status, currency, sum(n)::bigint AS n, sum(amount_minor)::bigint AS amount, sum(charged_aed_minor)::bigint AS aed
    FROM (
      SELECT day, status, currency, n, amount_minor, charged_aed_minor FROM payment_counts WHERE day BETWEEN ${days[0]} AND ${days.at(-1)} ${scope}
      UNION ALL
      SELECT day, status, currency, delta, amount_minor, charged_aed_minor FROM payment_count_deltas WHERE day BETWEEN ${days[0]} AND ${days.at(-1)} ${scope}
      UNION ALL
      ${recordedDayMoves(merchantId ? [Prisma.sql`merchant_id = ${merchantId}::uuid`] : [], days[0], days.at(-1))}
    ) AS counts
    GROUP BY day, status, currency`;
  const rows = raw.map((r) => parseRow(DayCounts, r));
  const outcomeList = days.map((d) => ({
    day: d,
    succeeded: 0,
    failed: 0,
    expired: 0,
    pending: 0,
    cancelled: 0,
    total: 0,
    successRate: null as number | null,
  }));
  const volumeList = days.map((d) => ({ day: d, aed: 0n, byCurrency: new Map<string, bigint>() }));
  const outcome = new Map(outcomeList.map((o) => [o.day, o]));
  const volume = new Map(volumeList.map((v) => [v.day, v]));
  const currencies = new Set<string>();
  for (const r of rows) {
    const o = outcome.get(r.day);
    const v = volume.get(r.day);
    if (!o || !v) continue;
    const n = Number(r.n);
    o.total += n;
    if (r.status === "SUCCEEDED") {
      o.succeeded += n;
      v.aed += r.aed;
      v.byCurrency.set(r.currency, (v.byCurrency.get(r.currency) ?? 0n) + r.amount);
      if (r.amount !== 0n) currencies.add(r.currency);
    } else if (r.status === "FAILED") o.failed += n;
    else if (r.status === "EXPIRED") o.expired += n;
    else if (r.status === "CANCELLED") o.cancelled += n;
    else o.pending += n;
  }
  const outcomes = outcomeList.map((o) => {
    const ended = o.succeeded + o.failed + o.expired;
    return { ...o, successRate: ended === 0 ? null : Math.round((o.succeeded / ended) * 1000) / 1000 };
  });
  const sortedCurrencies = [...currencies].sort();
  const volumes: DayVolume[] = volumeList.map((v) => {
    return { day: v.day, chargedAed: fromMinor(v.aed), byCurrency: Object.fromEntries(sortedCurrencies.map((c) => [c, fromMinor(v.byCurrency.get(c) ?? 0n)])) };
  });
  const figures = (day: string): DayFigures => {
    const o = outcome.get(day);
    return { day, payments: o?.total ?? 0, succeeded: o?.succeeded ?? 0, chargedAed: fromMinor(volume.get(day)?.aed ?? 0n) };
  };
  return {
    merchantId,
    days,
    outcomes,
    volume: volumes,
    currencies: sortedCurrencies,
    today: figures(dubaiDay(now)),
    lastWeek: figures(dubaiDay(later(now, -7 * 86_400_000))),
    open: true,
  };
}
