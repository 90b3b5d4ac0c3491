// Every time the console and the customer pages show is formatted here, and only here (docs/operating.md "Times in
// the console"; a lint rule in eslint.config.mjs refuses formatting a time elsewhere in app/, components/,
// lib/application/console and lib/domain/reports). One format per audience:
// - the console: Dubai time, 24-hour, the zone named once: "2026-11-26 23:57 Dubai" (or "2026-11-26 23:57" in a
//   column whose header says "(Dubai)");
// - a time taken from a merchant's moved sandbox clock: "2026-11-27 01:35 sandbox · 2026-11-26 23:35 Dubai", the
//   sandbox time beside the real time it was written;
// - the customer pages: the customer's own zone, named: "26 Nov 2026, 15:57 New York time".
// Pure functions of their arguments (no clock is read here: relative times take `now`), safe in the browser.

/** The console's zone: the service's business-day zone (lib/contract/money: Dubai business days). */
export const CONSOLE_ZONE = "Asia/Dubai";

/** An instant as the pages hold it: a Date, ISO 8601 text, or epoch milliseconds. */
export type TimeInput = Date | string | number;

/** Options of the console formats: `seconds` adds ":ss"; `zone: false` leaves the zone out (the column header says it). */
export type ConsoleTimeOptions = { seconds?: boolean; zone?: boolean };

declare const TEXT_CLOCK: unique symbol;
/**
 * An instant as ISO text known to be real time (deliveries, ledger entries, `recorded_at`; docs/architecture.md
 * "Which clock a column holds"): shown with {@link formatRealTime}, never as the merchant's clock.
 */
export type RealTimeText = string & { readonly [TEXT_CLOCK]: "real" };
/**
 * An instant as ISO text on the merchant's clock (its sandbox time under a moved clock): a payment's and an event's
 * own times, which the API answers as plain text (docs/api.md "Times"). A {@link RealTimeText} is not one.
 */
export type MerchantTimeText = string & { readonly [TEXT_CLOCK]?: "merchant" };

/** The ISO text of a real instant, typed as real time. */
export function realTimeText(at: Date): RealTimeText {
  return at.toISOString() as RealTimeText;
}

/** A real time as the console shows it ({@link formatConsoleTime}); takes only text typed as real time. */
export function formatRealTime(value: RealTimeText | null | undefined, options: ConsoleTimeOptions = {}): string {
  return formatConsoleTime(value, options);
}

/**
 * How far a row's time may run ahead of the real time it was written and still be the real clock's: the service
 * takes `now` a moment before (or, inside a transaction, after) the database stamps the row. A sandbox clock is moved
 * by at least a second (docs/api.md "Sandbox clock"); a smaller gap is the same instant seen twice.
 */
export const SANDBOX_SLACK_MS = 1_000;

const partFormats = new Map<string, Intl.DateTimeFormat>();

function partsIn(value: TimeInput, timeZone: string): Record<"year" | "month" | "day" | "hour" | "minute" | "second", string> {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    partFormats.set(timeZone, format);
  }
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = Object.fromEntries(format.formatToParts(toDate(value)).map((p) => [p.type, p.value]));
  const part = (type: Intl.DateTimeFormatPartTypes): string => {
    const text = parts[type];
    if (text === undefined) throw new Error(`the ${timeZone} time format gave no ${type}`);
    return text;
  };
  return { year: part("year"), month: part("month"), day: part("day"), hour: part("hour"), minute: part("minute"), second: part("second") };
}

function toDate(value: TimeInput): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a time: ${String(value)}`);
  return date;
}

/** The ISO 8601 text of an instant, for `<time dateTime>` (not shown to people). */
export function isoOf(value: TimeInput): string {
  return toDate(value).toISOString();
}

/**
 * A zone's name as pages show it: "UTC" for UTC, the city of an IANA zone otherwise ("Asia/Dubai" -> "Dubai",
 * "America/New_York" -> "New York", "America/Argentina/Buenos_Aires" -> "Buenos Aires").
 */
export function zoneName(timeZone: string): string {
  if (/^(Etc\/)?(UTC|UCT|GMT|Zulu|Universal)$/i.test(timeZone)) return "UTC";
  const city = timeZone.split("/").pop() ?? timeZone;
  return city.replace(/_/g, " ");
}

/** "2026-11-26 23:57" in `timeZone` (24-hour; ":ss" with `seconds`). */
function wallClock(value: TimeInput, timeZone: string, seconds = false): string {
  const p = partsIn(value, timeZone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}${seconds ? `:${p.second}` : ""}`;
}

/**
 * A real-clock instant as the console shows it: "2026-11-26 23:57 Dubai" ("2026-11-26 23:57" with `zone: false`,
 * under a header that names the zone); "—" for null or undefined.
 * @throws RangeError for text that is not a time
 */
export function formatConsoleTime(value: TimeInput | null | undefined, options: ConsoleTimeOptions = {}): string {
  if (value === null || value === undefined) return "—";
  const text = wallClock(value, CONSOLE_ZONE, options.seconds);
  return options.zone === false ? text : `${text} Dubai`;
}

/** The Dubai day of an instant: "2026-11-26" (a day, no time of day); "—" for null or undefined. */
export function formatConsoleDay(value: TimeInput | null | undefined): string {
  if (value === null || value === undefined) return "—";
  return wallClock(value, CONSOLE_ZONE).slice(0, 10);
}

/** A time read from a merchant's moved sandbox clock: "2026-11-27 01:35 sandbox" (its Dubai wall clock); "—" for none. */
export function formatSandboxTime(value: TimeInput | null | undefined, options: Pick<ConsoleTimeOptions, "seconds"> = {}): string {
  if (value === null || value === undefined) return "—";
  return `${wallClock(value, CONSOLE_ZONE, options.seconds)} sandbox`;
}

/**
 * Whether a row's time came from a moved sandbox clock: it runs more than {@link SANDBOX_SLACK_MS} ahead of the real
 * time the row was written (`recordedAt`). False when the real time is unknown (rows written before it was kept).
 */
export function isSandboxTime(at: TimeInput, recordedAt: TimeInput | null | undefined): boolean {
  if (recordedAt === null || recordedAt === undefined) return false;
  return toDate(at).getTime() - toDate(recordedAt).getTime() > SANDBOX_SLACK_MS;
}

/**
 * A row's time with the clock it is from: the console format on the real clock, or under a moved sandbox clock the
 * sandbox time beside the real time ("2026-11-27 01:35 sandbox · 2026-11-26 23:35 Dubai").
 * @param at the row's time (created_at: the sandbox time under a moved clock)
 * @param recordedAt the real time the row was written (recorded_at), null when unknown
 */
export function formatRowTime(at: TimeInput | null | undefined, recordedAt: TimeInput | null | undefined, options: ConsoleTimeOptions = {}): string {
  if (at === null || at === undefined) return "—";
  if (!isSandboxTime(at, recordedAt)) return formatConsoleTime(at, options);
  return `${formatSandboxTime(at, options)} · ${formatConsoleTime(recordedAt, { seconds: options.seconds })}`;
}

const RELATIVE_UNITS = [
  ["day", 86_400_000],
  ["h", 3_600_000],
  ["min", 60_000],
  ["s", 1_000],
] as const;

/**
 * An instant relative to `now`: "just now" (under 10 s), "3 min ago", "in 2 h", "5 days ago" (the largest whole unit;
 * days, hours, minutes, seconds). Pages show it with the exact time on hover and for screen readers
 * (components/time.tsx).
 */
export function formatRelativeTime(value: TimeInput, now: TimeInput): string {
  const diff = toDate(now).getTime() - toDate(value).getTime();
  const size = Math.abs(diff);
  if (size < 10_000) return "just now";
  const [unit, ms] = RELATIVE_UNITS.find(([, ms]) => size >= ms) ?? RELATIVE_UNITS[3];
  const n = Math.floor(size / ms);
  const text = `${n} ${unit}${unit === "day" && n !== 1 ? "s" : ""}`;
  return diff > 0 ? `${text} ago` : `in ${text}`;
}

/** A customer's zone as their browser resolves it ("UTC" when it names none). */
export function browserTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * An instant for a customer, in their zone and naming it: in English "26 Nov 2026, 15:57 New York time" (24-hour;
 * "UTC" for UTC); in another language Intl.DateTimeFormat's own words for the date and the zone's long name
 * (ar-AE: "26 نوفمبر 2026، 15:57 التوقيت الرسمي الشرقي لأمريكا الشمالية", Latin digits). docs/guides/amount-entry-checkout.md "Languages".
 * @param timeZone an IANA zone, the browser's ({@link browserTimeZone}) or "UTC" before the page runs in one
 * @param locale the page's formatting language (BCP 47, lib/platform/locale.ts formattingLocale); English by default
 * @throws RangeError for an unknown zone or text that is not a time
 */
export function formatCustomerTime(value: TimeInput, timeZone: string, locale = "en-GB"): string {
  if (!locale.startsWith("en")) {
    return new Intl.DateTimeFormat(locale, {
      timeZone,
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "long",
    }).format(toDate(value));
  }
  const p = partsIn(value, timeZone);
  const month = MONTHS[Number(p.month) - 1];
  const zone = zoneName(timeZone);
  return `${Number(p.day)} ${month} ${p.year}, ${p.hour}:${p.minute} ${zone === "UTC" ? "UTC" : `${zone} time`}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/**
 * A calendar day as the customer pages show it ("2026-11-28" -> "28 November 2026"): a Dubai business day such as a
 * rate's (docs/api.md "Pricing"), formatted as written, in no time zone's reckoning.
 * @param day ISO date text (YYYY-MM-DD); @param locale the page's language (BCP 47).
 */
export function formatCalendarDay(day: string, locale = "en-GB"): string {
  const [y = 1970, m = 1, d = 1] = day.split("-").map(Number);
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(Date.UTC(y, m - 1, d));
}
