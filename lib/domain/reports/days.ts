import { later, type RealInstant } from "@/lib/platform/clock";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { isUuid } from "@/lib/contract/schemas/api/common";

/** How many Dubai days the console charts show, today included. */
export const CHART_DAYS = 30;

/**
 * The last `count` Dubai days (YYYY-MM-DD) ending with the day of `now`, oldest first. Real days: the console's charts
 * place rows by the real time they were recorded (docs/operating.md "Times in the console").
 */
export function lastDays(now: RealInstant, count = CHART_DAYS): string[] {
  return Array.from({ length: count }, (_, i) => dubaiDay(later(now, -(count - 1 - i) * 86_400_000)));
}

/** The `merchant` filter of a chart's URL: a merchant id, or null (all merchants) for anything else. */
export function reportMerchantParam(value: string | string[] | null | undefined): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  return v && isUuid(v) ? v : null;
}
