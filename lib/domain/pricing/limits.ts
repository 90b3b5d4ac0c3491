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

/**
 * The statement that consumes a profile's daily and monthly limits (docs/api.md "Pricing"; docs/architecture.md
 * "Consistency": counters, not a SUM over history), each bound in the statement itself (a null limit is
 * unlimited): a row comes back (`period`) for each counter still within its limit with this payment. Counters are
 * kept even for unlimited profiles, so a limit set later starts from the true usage. Both rows are changed in one
 * statement, in one order; they stay locked until the transaction ends.
 */
export function limitCount(version: LimitedVersion, amountMinor: bigint, day: string): Prisma.Sql {
  const daily = version.dailyLimitMinor;
  const monthly = version.monthlyLimitMinor;
  return Prisma.sql`
    INSERT INTO limit_counters AS c (profile_id, period, used_minor)
    SELECT profile_id, period, used FROM (VALUES (${version.profileId}::uuid, ${dayPeriod(day)}, ${amountMinor}::bigint, ${daily}::bigint),
      (${version.profileId}::uuid, ${monthPeriod(day)}, ${amountMinor}::bigint, ${monthly}::bigint)) AS v(profile_id, period, used, bound)
    WHERE bound IS NULL OR used <= bound
    ON CONFLICT (profile_id, period) DO UPDATE SET used_minor = c.used_minor + EXCLUDED.used_minor
    WHERE CASE WHEN c.period = ${dayPeriod(day)} THEN ${daily}::bigint IS NULL OR c.used_minor + EXCLUDED.used_minor <= ${daily}::bigint
               ELSE ${monthly}::bigint IS NULL OR c.used_minor + EXCLUDED.used_minor <= ${monthly}::bigint END
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

/**
 * Gives a payment's amount back to the counters of its creation day and month (on FAILED or EXPIRED).
 */
export async function releaseLimits(tx: Tx, profileId: string, amountMinor: bigint, day: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE limit_counters SET used_minor = GREATEST(used_minor - ${amountMinor}, 0)
    WHERE profile_id = ${profileId}::uuid AND period IN (${dayPeriod(day)}, ${monthPeriod(day)})`;
}

/**
 * Limit releases gathered over a batch of transitions (the expiry sweep's), given back together at the batch's end
 * with {@link applyLimitReleases}: the counters a create needs are then locked for one short statement per counter
 * at the end of the batch, not from the batch's first expiry to its commit (docs/architecture.md "Jobs").
 * Amounts are minor units (bigint), summed per profile and period.
 */
export class LimitReleases {
  private readonly amounts = new Map<string, { profileId: string; period: string; amountMinor: bigint }>();

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
  inLockOrder(): { profileId: string; period: string; amountMinor: bigint }[] {
    return [...this.amounts.values()].sort((a, b) => a.profileId.localeCompare(b.profileId) || a.period.localeCompare(b.period));
  }
}

/**
 * Gives back the gathered releases in the caller's transaction, one statement per counter in the order a create
 * locks them (so the two never deadlock). Call it last in the transaction.
 */
export async function applyLimitReleases(tx: Tx, releases: LimitReleases): Promise<void> {
  for (const r of releases.inLockOrder()) {
    await tx.$executeRaw`
      UPDATE limit_counters SET used_minor = GREATEST(used_minor - ${r.amountMinor}, 0)
      WHERE profile_id = ${r.profileId}::uuid AND period = ${r.period}`;
  }
}
