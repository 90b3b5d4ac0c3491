import type { Tx } from "@/lib/db";
import { apiError } from "@/lib/errors";
import { fromMinor } from "@/lib/money/currency";
import type { ProfileVersion } from "@/lib/pricing/resolve";

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

/**
 * Checks the profile's transaction bounds and consumes its daily and monthly limits in the caller's
 * transaction (docs/api.md "Pricing"; docs/architecture.md "Consistency": counters, not a SUM over history).
 * A null limit is unlimited. Both counter rows are incremented in one statement; the transaction holds their
 * row locks until it ends, so callers consume as late as they can (every payment of the profile waits on them).
 * @throws ApiError AMOUNT_OUT_OF_RANGE (400), DAILY_LIMIT or MONTHLY_LIMIT (409)
 */
export async function consumeLimits(tx: Tx, version: ProfileVersion, amountMinor: bigint, day: string): Promise<void> {
  assertAmountInRange(version, amountMinor);
  // Counters are kept even for unlimited profiles, so a limit set later starts from the true usage.
  const rows = await tx.$queryRaw<{ period: string; used_minor: bigint }[]>`
    INSERT INTO limit_counters (profile_id, period, used_minor)
    VALUES (${version.profileId}::uuid, ${dayPeriod(day)}, ${amountMinor}), (${version.profileId}::uuid, ${monthPeriod(day)}, ${amountMinor})
    ON CONFLICT (profile_id, period) DO UPDATE SET used_minor = limit_counters.used_minor + EXCLUDED.used_minor
    RETURNING period, used_minor`;
  const used = (period: string) => rows.find((r) => r.period === period)!.used_minor;
  if (version.dailyLimitMinor !== null && used(dayPeriod(day)) > version.dailyLimitMinor) {
    throw apiError("DAILY_LIMIT", "the daily limit of this pricing profile would be exceeded");
  }
  if (version.monthlyLimitMinor !== null && used(monthPeriod(day)) > version.monthlyLimitMinor) {
    throw apiError("MONTHLY_LIMIT", "the monthly limit of this pricing profile would be exceeded");
  }
}

/**
 * Gives a payment's amount back to the counters of its creation day and month (on FAILED or EXPIRED).
 */
export async function releaseLimits(tx: Tx, profileId: string, amountMinor: bigint, day: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE limit_counters SET used_minor = GREATEST(used_minor - ${amountMinor}, 0)
    WHERE profile_id = ${profileId}::uuid AND period IN (${dayPeriod(day)}, ${monthPeriod(day)})`;
}
