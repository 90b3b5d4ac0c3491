import { z } from "zod";
import { parseRows, type Tx } from "@/lib/platform/db";
import { apiError, type ApiError } from "@/lib/contract/errors";
import { Prisma } from "@/lib/platform/generated/prisma/client";
import { fromMinor } from "@/lib/contract/money/currency";
import type { ProfileVersion } from "@/lib/domain/pricing/resolve";

const dayPeriod = (day: string) => `D:${day}`;
const monthPeriod = (day: string) => `M:${day.slice(0, 7)}`;

/**
 * Checks the profile's lower and upper transaction amount (docs/api.md "Pricing"; null = no bound).
 * @throws ApiError 400 AMOUNT_OUT_OF_RANGE
 */
export function assertAmountInRange(version: Pick<ProfileVersion, "minAmountMinor" | "maxAmountMinor">, amountMinor: bigint): void {
  if (version.minAmountMinor !== null && amountMinor < version.minAmountMinor) {
    throw apiError("AMOUNT_OUT_OF_RANGE", `amount is below this pricing profile's lower limit of ${fromMinor(version.minAmountMinor)}`);
  }
  if (version.maxAmountMinor !== null && amountMinor > version.maxAmountMinor) {
    throw apiError("AMOUNT_OUT_OF_RANGE", `amount is above this pricing profile's upper limit of ${fromMinor(version.maxAmountMinor)}`);
  }
}

type LimitedVersion = Pick<ProfileVersion, "profileId" | "minAmountMinor" | "maxAmountMinor" | "dailyLimitMinor" | "monthlyLimitMinor">;

/** How many slots (1..LIMIT_SLOTS) the creates of a period without a limit spread their amounts over. */
export const LIMIT_SLOTS = 32;

/**
 * A period's limit usage in minor units (bigint in SQL): the sum of its counter's slots, clamped at 0, for the
 * profile `profileId` names (a uuid expression) and the period (`D:<day>` or `M:<month>`). Every reader of a counter
 * uses it (docs/architecture.md "Consistency"): a release takes from slot 0 what creates may have added elsewhere.
 */
export function limitUsedSql(profileId: Prisma.Sql, period: string): Prisma.Sql {
  return Prisma.sql`GREATEST(COALESCE((SELECT sum(used_minor) FROM limit_counters WHERE profile_id = ${profileId} AND period = ${period}), 0), 0)::bigint`;
}

/**
 * The statement that consumes a profile's daily and monthly limits (docs/api.md "Pricing"; docs/architecture.md
 * "Consistency": counters, not a SUM over history), each bound in the statement itself (a null limit is
 * unlimited): a row comes back (`period`) for each counter still within its limit with this payment. Counters are
 * kept even for unlimited periods, so a limit set later starts from the true usage. A counter is the sum of its
 * slots (table limit_counters, key (profile, period, slot)):
 * - a period without a limit adds the amount to one of slots 1..{@link LIMIT_SLOTS}, picked at random per row, and
 *   always comes back: concurrent creates of one profile rarely wait on the same row;
 * - a period with limit b adds it to slot 0, only when GREATEST(slot 0 + the other slots, 0) + amount <= b. On the
 *   insert path (no slot 0 row yet) the other slots are summed in the statement's snapshot; when slot 0 exists the
 *   ON CONFLICT ... DO UPDATE WHERE decides, on slot 0's latest committed value (READ COMMITTED re-reads the
 *   conflicting row once it holds its lock) plus the other slots in the statement's snapshot.
 *
 * Guarantee: every create under a limit locks slot 0 and sees the previous one's committed amount, so those creates
 * serialise on that one row and the limit holds under any concurrency. The other slots change only through creates
 * priced with a version without that limit; such a create that commits into another slot while the limit is being
 * introduced (after a create under the limit took its snapshot) is not seen by it: it was admitted under the rules in
 * force when it was priced, and every create after its commit counts it. Both rows are changed in one statement,
 * the day before the month; they stay locked until the transaction ends. The statement's text does not depend on
 * which limits are set (one prepared statement).
 */
export function limitCount(version: LimitedVersion, amountMinor: bigint, day: string): Prisma.Sql {
  const daily = version.dailyLimitMinor;
  const monthly = version.monthlyLimitMinor;
  // The insert path's check: a profile whose slot 0 row exists goes on to the DO UPDATE below, which checks it on
  // that row's latest value (its value in this snapshot may be stale); without it, the other slots must leave room.
  return Prisma.sql`
    INSERT INTO limit_counters AS c (profile_id, period, slot, used_minor)
    SELECT v.profile_id, v.period, CASE WHEN v.bound IS NULL THEN 1 + floor(random() * ${LIMIT_SLOTS})::smallint ELSE 0 END, v.used
    FROM (VALUES (${version.profileId}::uuid, ${dayPeriod(day)}, ${amountMinor}::bigint, ${daily}::bigint),
      (${version.profileId}::uuid, ${monthPeriod(day)}, ${amountMinor}::bigint, ${monthly}::bigint)) AS v(profile_id, period, used, bound)
    WHERE v.bound IS NULL
       OR (SELECT bool_or(o.slot = 0) OR GREATEST(COALESCE(sum(o.used_minor), 0), 0) + v.used <= v.bound
           FROM limit_counters o WHERE o.profile_id = v.profile_id AND o.period = v.period)
    ON CONFLICT (profile_id, period, slot) DO UPDATE SET used_minor = c.used_minor + EXCLUDED.used_minor
    WHERE c.slot <> 0
       OR GREATEST(c.used_minor + COALESCE((SELECT sum(o.used_minor) FROM limit_counters o
                                            WHERE o.profile_id = c.profile_id AND o.period = c.period AND o.slot <> 0), 0), 0)
          + EXCLUDED.used_minor <= CASE WHEN c.period = ${dayPeriod(day)} THEN ${daily}::bigint ELSE ${monthly}::bigint END
    RETURNING period`;
}

/** A counter {@link limitCount} changed: its period (`D:<day>` or `M:<month>`). */
const CountedPeriod = z.object({ period: z.string() });

/** The refusal when a counter did not come back from {@link limitCount} (`passed`: the periods that did); the day first. */
export function limitRefusal(day: string, passed: ReadonlySet<string>): ApiError | null {
  if (!passed.has(dayPeriod(day))) return apiError("DAILY_LIMIT", "the daily limit of this pricing profile would be exceeded");
  if (!passed.has(monthPeriod(day))) return apiError("MONTHLY_LIMIT", "the monthly limit of this pricing profile would be exceeded");
  return null;
}

/**
 * Checks the profile's transaction bounds and consumes its daily and monthly limits in the caller's transaction
 * ({@link limitCount}), so callers consume as late as they can (every payment of the profile waits on the rows).
 * @throws ApiError AMOUNT_OUT_OF_RANGE (400), DAILY_LIMIT or MONTHLY_LIMIT (409)
 */
export async function consumeLimits(tx: Tx, version: LimitedVersion, amountMinor: bigint, day: string): Promise<void> {
  assertAmountInRange(version, amountMinor);
  const rows = parseRows(CountedPeriod, await tx.$queryRaw<Record<string, unknown>[]>(limitCount(version, amountMinor, day)));
  const refusal = limitRefusal(day, new Set(rows.map((r) => r.period)));
  if (refusal) throw refusal;
}

/** One counter's release: the profile, the period (`D:<day>` or `M:<month>`) and the amount in minor units. */
type Release = { profileId: string; period: string; amountMinor: bigint };

/**
 * The statement that gives `releases` back, in their order: an upsert into slot 0 of each counter, whose row may not
 * exist yet when the usage sits in slots 1..{@link LIMIT_SLOTS}; slot 0 may go below zero, the counter is the sum of
 * the slots ({@link limitUsedSql}). The releases name distinct counters.
 */
function releaseStatement(releases: readonly Release[]): Prisma.Sql {
  const rows = releases.map((r) => Prisma.sql`(${r.profileId}::uuid, ${r.period}, 0::smallint, -${r.amountMinor}::bigint)`);
  return Prisma.sql`
    INSERT INTO limit_counters AS c (profile_id, period, slot, used_minor) VALUES ${Prisma.join(rows, ", ")}
    ON CONFLICT (profile_id, period, slot) DO UPDATE SET used_minor = c.used_minor + EXCLUDED.used_minor`;
}

/**
 * Gives a payment's amount (minor units) back to the counters of its creation day and month (on FAILED or EXPIRED),
 * in one statement, the day before the month as a create locks them ({@link applyLimitReleases} on the order).
 */
export async function releaseLimits(tx: Tx, profileId: string, amountMinor: bigint, day: string): Promise<void> {
  await tx.$executeRaw(releaseStatement([dayPeriod(day), monthPeriod(day)].map((period) => ({ profileId, period, amountMinor }))));
}

/**
 * Limit releases gathered over a batch of transitions (the expiry sweep's), given back together at the batch's end
 * with {@link applyLimitReleases}: the counters a create needs are then locked for one short statement per counter
 * at the end of the batch, not from the batch's first expiry to its commit (docs/architecture.md "Jobs").
 * Amounts are minor units (bigint), summed per profile and period.
 */
export class LimitReleases {
  private readonly amounts = new Map<string, Release>();

  /** Adds a payment's amount (minor units) to the release of its creation day's and month's counters. */
  add(profileId: string, amountMinor: bigint, day: string): void {
    for (const period of [dayPeriod(day), monthPeriod(day)]) {
      const key = `${profileId} ${period}`;
      const entry = this.amounts.get(key) ?? { profileId, period, amountMinor: 0n };
      entry.amountMinor += amountMinor;
      this.amounts.set(key, entry);
    }
  }

  /** The releases in lock order: by profile, then the day (`D:`) before the month (`M:`), as a create locks them. */
  inLockOrder(): Release[] {
    return [...this.amounts.values()].sort((a, b) => a.profileId.localeCompare(b.profileId) || a.period.localeCompare(b.period));
  }
}

/**
 * Gives back the gathered releases in the caller's transaction, one statement per counter (slot 0 of each,
 * {@link releaseStatement}) in the order a create locks them. Call it last in the transaction.
 *
 * Why creates and releases never wait on each other in a circle: a create locks one row of its profile's day counter
 * and then one of its month counter (slot 0 under a limit, a random slot otherwise); a release locks only slot 0
 * rows, by profile and the day before the month. Every transaction thus takes at most one row per counter, and its
 * counters in the one order (profile, day, month), so whoever waits for a row of a counter holds only rows of
 * counters earlier in that order; the random slot changes which row of a counter is taken, never that order.
 */
export async function applyLimitReleases(tx: Tx, releases: LimitReleases): Promise<void> {
  for (const r of releases.inLockOrder()) await tx.$executeRaw(releaseStatement([r]));
}
