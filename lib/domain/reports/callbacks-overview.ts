import { systemNow, type RealInstant } from "@/lib/platform/clock";
import { Prisma } from "@/lib/platform/generated/prisma/client";
import { scopedMerchantId, type ConsoleActor } from "@/lib/domain/auth/actor";
import { z } from "zod";
import { parseRow, type Db } from "@/lib/platform/db";
import { lastDays } from "@/lib/domain/reports/days";

// The console's callback charts (docs/guides/console-for-operators.md "Console tour"), from the counters a trigger on deliveries keeps in the
// delivery's own transaction (delivery_day_stats: outcomes per merchant and Dubai day of the outcome;
// delivery_latency_stats: a histogram of event-recorded (real time) -> 2xx latencies in powers of two of milliseconds), and
// the backlog from the deliveries' (state, next_attempt_at) index.

/**
 * One Dubai day's callback outcomes: delivered at the first attempt, after retries, FAILED, NOT_CONFIGURED, and
 * `listener`: deliveries that ended FAILED or NOT_CONFIGURED for an event a `sandpiper listen` process delivered
 * (docs/callbacks.md "Forwards on the service"), counted there and not under their state.
 */
export type DayDeliveries = { day: string; firstAttempt: number; afterRetries: number; listener: number; failed: number; notConfigured: number };
/**
 * One day's delivery latency (event recorded, real time -> 2xx answer): p50 and p95 as the upper bound of their histogram
 * bucket, in milliseconds (null on a day without a delivered callback).
 */
export type DayLatency = { day: string; delivered: number; p50Ms: number | null; p95Ms: number | null };
export type CallbacksOverview = {
  merchantId: string | null;
  days: string[];
  outcomes: DayDeliveries[];
  latency: DayLatency[];
  /** Deliveries waiting for an attempt now, in all and (for operators looking at every merchant) per merchant. */
  backlog: { pending: number; byMerchant: { merchantId: string; name: string; pending: number }[] };
  open: true;
};

/** The upper bound in ms of the histogram bucket that holds quantile `q` (0..1) of `buckets` (bucket -> count). */
export function quantileMs(buckets: Map<number, number>, q: number): number | null {
  const total = [...buckets.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (const [bucket, count] of [...buckets.entries()].sort(([a], [b]) => a - b)) {
    seen += count;
    if (seen >= rank) return 2 ** (bucket + 1);
  }
  return null;
}

/** Rows read by {@link callbacksOverview}: deliveries by day and outcome, by day and latency bucket, backlog by merchant. */
const OutcomeRow = z.object({ day: z.string(), outcome: z.string(), n: z.bigint() });
const LatencyRow = z.object({ day: z.string(), bucket: z.number().int(), n: z.bigint() });
const BacklogRow = z.object({ merchantId: z.string(), name: z.string(), pending: z.bigint() });

/**
 * Callback outcomes and latency per Dubai day of the last 30 days, and the current backlog, for the actor (a
 * MERCHANT user's own merchant; an operator's chosen merchant or all). Three statements over counters and an index.
 */
export async function callbacksOverview(db: Db, actor: ConsoleActor, opts: { merchantId?: string | null; now?: RealInstant } = {}): Promise<CallbacksOverview> {
  const now = opts.now ?? systemNow();
  const merchantId = scopedMerchantId(actor, opts.merchantId) ?? null;
  const days = lastDays(now);
  const scope = merchantId ? Prisma.sql`AND merchant_id = ${merchantId}::uuid` : Prisma.empty;
  const rows =
    <S extends z.ZodType>(schema: S) =>
    (raw: Record<string, unknown>[]) =>
      raw.map((r) => parseRow(schema, r));
  const [stats, latencies, backlog] = await Promise.all([
    db.$queryRaw<Record<string, unknown>[]>`
      SELECT day, outcome, sum(n)::bigint AS n FROM delivery_day_stats WHERE day BETWEEN ${days[0]} AND ${days.at(-1)} ${scope} GROUP BY day, outcome`.then(
      rows(OutcomeRow),
    ),
    db.$queryRaw<Record<string, unknown>[]>`
      SELECT day, bucket, sum(n)::bigint AS n FROM delivery_latency_stats WHERE day BETWEEN ${days[0]} AND ${days.at(-1)} ${scope} GROUP BY day, bucket`.then(
      rows(LatencyRow),
    ),
    db.$queryRaw<Record<string, unknown>[]>`
      SELECT d.merchant_id AS "merchantId", m.name, count(*)::bigint AS pending
      FROM deliveries d JOIN merchants m ON m.id = d.merchant_id
      WHERE d.state = 'PENDING' ${merchantId ? Prisma.sql`AND d.merchant_id = ${merchantId}::uuid` : Prisma.empty}
      GROUP BY d.merchant_id, m.name ORDER BY pending DESC, m.name`.then(rows(BacklogRow)),
  ]);
  const outcomeList = days.map((d) => ({ day: d, firstAttempt: 0, afterRetries: 0, listener: 0, failed: 0, notConfigured: 0 }));
  const outcomes = new Map(outcomeList.map((o) => [o.day, o]));
  const key = {
    FIRST_ATTEMPT: "firstAttempt",
    AFTER_RETRIES: "afterRetries",
    LISTENER: "listener",
    FAILED: "failed",
    NOT_CONFIGURED: "notConfigured",
  } as const;
  for (const s of stats) {
    const o = outcomes.get(s.day);
    const k = key[s.outcome as keyof typeof key];
    if (o && k) o[k] += Number(s.n);
  }
  const histograms = days.map((d) => ({ day: d, buckets: new Map<number, number>() }));
  const histogramOf = new Map(histograms.map((h) => [h.day, h.buckets]));
  for (const l of latencies) {
    const h = histogramOf.get(l.day);
    h?.set(Number(l.bucket), (h.get(Number(l.bucket)) ?? 0) + Number(l.n));
  }
  return {
    merchantId,
    days,
    outcomes: outcomeList,
    latency: histograms.map(({ day, buckets: h }) => {
      return { day, delivered: [...h.values()].reduce((a, b) => a + b, 0), p50Ms: quantileMs(h, 0.5), p95Ms: quantileMs(h, 0.95) };
    }),
    backlog: {
      pending: backlog.reduce((a, b) => a + Number(b.pending), 0),
      byMerchant: merchantId ? [] : backlog.map((b) => ({ merchantId: b.merchantId, name: b.name, pending: Number(b.pending) })),
    },
    open: true,
  };
}
