import { systemNow } from "@/lib/platform/clock";
import { scopedMerchantId, type ConsoleActor } from "@/lib/domain/auth/actor";
import { missingRatesAhead, missingRatesToday } from "@/lib/domain/pricing/fx-rates";
import { z } from "zod";
import { parseRow, Prisma, type Db } from "@/lib/platform/db";
import { deliveredByListener } from "@/lib/domain/events/listener-forwards";
import { countAwaitingApproval } from "@/lib/domain/payments/payment-views";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { getSettings } from "@/lib/domain/settings/service-settings";

/** How many days after today the overview checks for missing rates. */
export const RATE_LOOKAHEAD_DAYS = 7;

/** Deliveries that ended without reaching the callback address: needing attention, and delivered by a listener. */
const AttentionRow = z.object({ needing: z.number().int(), byListener: z.number().int() });

/**
 * The figures of the console's overview for the actor (today's payments are in lib/domain/reports/payments-overview.ts,
 * with the charts): withdrawals awaiting approval, deliveries that need attention (FAILED or NOT_CONFIGURED, unless a
 * `sandpiper listen` process delivered the event: those count as received by a listener), allow-list requests waiting for an operator
 * (every merchant's for operators), and for operators the intake switches, inactive merchants, the pairs missing
 * today's rate and the pairs an enabled pricing profile needs that miss a rate on one of the next
 * {@link RATE_LOOKAHEAD_DAYS} days (tomorrow first).
 */
export async function overview(db: Db, actor: ConsoleActor, now = systemNow()) {
  const merchantId = scopedMerchantId(actor);
  const scope = merchantId ? { merchantId } : {};
  const inScope = merchantId ? Prisma.sql`d.merchant_id = ${merchantId}::uuid` : Prisma.sql`true`;
  const [awaitingApproval, attention, pendingAllowListRequests, settings] = await Promise.all([
    countAwaitingApproval(db, actor),
    db.$queryRaw<Record<string, unknown>[]>`
      SELECT count(*) FILTER (WHERE NOT ${deliveredByListener(Prisma.sql`d.event_id`)})::int AS needing,
             count(*) FILTER (WHERE ${deliveredByListener(Prisma.sql`d.event_id`)})::int AS "byListener"
      FROM deliveries d WHERE ${inScope} AND d.state IN ('FAILED', 'NOT_CONFIGURED')`.then(([row]) => parseRow(AttentionRow, row)),
    db.allowedIpRequest.count({ where: { ...scope, state: "PENDING" } }),
    getSettings(db),
  ]);
  const operator =
    actor.role === "OPERATOR"
      ? {
          inactiveMerchants: await db.merchant.count({ where: { status: "INACTIVE" } }),
          missingRates: await missingRatesToday(db, now),
          // The warning ahead: the days from tomorrow through 7 days ahead without a rate that a profile needs.
          missingRatesAhead: await missingRatesAhead(db, { from: new Date(now.getTime() + 86_400_000), days: RATE_LOOKAHEAD_DAYS }),
        }
      : null;
  const merchant = merchantId ? await db.merchant.findUnique({ where: { id: merchantId }, select: { name: true, status: true, callbackUrl: true } }) : null;
  return {
    day: dubaiDay(now),
    awaitingApproval,
    deliveriesNeedingAttention: attention.needing,
    deliveredByListener: attention.byListener,
    pendingAllowListRequests,
    settings,
    operator,
    merchant,
  };
}
