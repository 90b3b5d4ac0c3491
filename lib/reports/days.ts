import { dubaiDay } from "@/lib/money/dubai";

/** How many Dubai days the console charts show, today included. */
export const CHART_DAYS = 30;

/** The last `count` Dubai days (YYYY-MM-DD) ending with the day of `now`, oldest first. */
export function lastDays(now: Date, count = CHART_DAYS): string[] {
  return Array.from({ length: count }, (_, i) => dubaiDay(new Date(now.getTime() - (count - 1 - i) * 86_400_000)));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The `merchant` filter of a chart's URL: a merchant id, or null (all merchants) for anything else. */
export function reportMerchantParam(value: string | string[] | null | undefined): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  return v && UUID.test(v) ? v : null;
}
