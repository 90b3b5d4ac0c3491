import { systemNow } from "@/lib/platform/clock";
/** Asia/Dubai is UTC+4 with no daylight saving (docs/api.md "Conventions": rate days and from/to filters). */
export const DUBAI_TIMEZONE = "Asia/Dubai";
const OFFSET_MS = 4 * 60 * 60 * 1000;
export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The Dubai business day of an instant, "YYYY-MM-DD". */
export function dubaiDay(at: Date = systemNow()): string {
  return new Date(at.getTime() + OFFSET_MS).toISOString().slice(0, 10);
}

/** The Dubai month of an instant, "YYYY-MM". */
export function dubaiMonth(at: Date = systemNow()): string {
  return dubaiDay(at).slice(0, 7);
}

/** The first and last calendar days accepted anywhere a day is entered (filters, rate days). */
export const FIRST_DAY = "1970-01-01";
export const LAST_DAY = "9999-12-31";

/**
 * True when `day` is a real calendar date in YYYY-MM-DD form from {@link FIRST_DAY} to {@link LAST_DAY}. Earlier
 * years are refused: a Dubai day start of year 0001 falls in year 0, which the database cannot take.
 */
export function isValidDay(day: string): boolean {
  if (!DAY_PATTERN.test(day) || day < FIRST_DAY || day > LAST_DAY) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** UTC instant at which the Dubai day starts (00:00 in Dubai = 20:00 UTC the day before). */
export function dubaiDayStart(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - OFFSET_MS);
}

/** UTC instant at which the Dubai day ends (exclusive): the start of the next day. */
export function dubaiDayEnd(day: string): Date {
  return new Date(dubaiDayStart(day).getTime() + 24 * 60 * 60 * 1000);
}
