/** Supported currencies (docs/api.md "Payments"); all have two decimals. */
export const CURRENCIES = ["TRY", "EUR", "USD", "GBP", "AED", "SAR", "CHF"] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Pattern of API amounts (docs/api.md "Limits"): up to 10 integer digits and up to 2 decimals. */
export const AMOUNT_PATTERN = /^\d{1,10}(\.\d{1,2})?$/;

/**
 * Why a customer's amount text could not be read ({@link readEnteredAmount}): `empty` (nothing typed), `ambiguous` (a
 * comma that is not a thousands separator, "150,5": a decimal comma or a misplaced separator, so the amount is not
 * certain), `currency` (a currency code beside the number that is not the one chosen), `digits` (anything else that is
 * not an amount with at most 2 decimals).
 */
export type AmountTextProblem = "empty" | "ambiguous" | "currency" | "digits";

/** Arabic-Indic (U+0660-0669) and Eastern Arabic-Indic (U+06F0-06F9) digits, each to its Latin digit. */
const NATIVE_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;
/** Direction marks a pasted amount may carry (LRM, RLM, ALM); dropped wherever they are. */
const DIRECTION_MARKS = /[\u200E\u200F\u061C]/g;
/** A number with its thousands grouped by commas: "1,500", "12,345,678.90". */
const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;
/** A three-letter currency code before or after the number, spaces between or not ("AED 150", "150aed"). */
const CODE_BEFORE = /^([A-Za-z]{3})\s*([^A-Za-z]*)$/;
const CODE_AFTER = /^([^A-Za-z]*?)\s*([A-Za-z]{3})$/;

/**
 * Reads the amount a customer typed into the amount field, as the page's script and the page's form without JavaScript
 * both read it (docs/guides/amount-entry-checkout.md "The amount field"): surrounding spaces; Latin, Arabic-Indic
 * and Eastern Arabic-Indic digits; the Arabic decimal separator (U+066B) as a point and the Arabic thousands separator
 * (U+066C) as a comma; commas between groups of three digits ("1,500.00"); the chosen currency's code before or after
 * the number ("AED 150", "150 AED"). Any other comma is refused as ambiguous ("150,5"). Pure; no JS number is made.
 * @param raw the field's text as typed
 * @param currency the chosen currency (ISO 4217); a code typed beside the number must be this one
 * @returns `{ amount }`, decimal text in the API's pattern ({@link AMOUNT_PATTERN}: "1500.00", "150"), or `{ problem }`
 */
export function readEnteredAmount(raw: string, currency?: string): { amount: string } | { problem: AmountTextProblem } {
  let text = raw
    .replace(NATIVE_DIGITS, (d) => String((d.charCodeAt(0) - 0x0660) % 0x90))
    .replace(/\u066B/g, ".")
    .replace(/\u066C/g, ",")
    .replace(DIRECTION_MARKS, "")
    .trim();
  if (text === "") return { problem: "empty" };
  const before = CODE_BEFORE.exec(text);
  const after = before ? null : CODE_AFTER.exec(text);
  if (before || after) {
    const typed = (before ? before[1] : after?.[2]) ?? "";
    if (!(CURRENCIES as readonly string[]).includes(typed.toUpperCase())) return { problem: "digits" };
    if (currency !== undefined && typed.toUpperCase() !== currency.toUpperCase()) return { problem: "currency" };
    text = (before ? before[2] : after?.[1]) ?? "";
    if (text === "") return { problem: "empty" };
  }
  if (text.includes(",")) {
    if (!GROUPED.test(text)) return { problem: "ambiguous" };
    text = text.replace(/,/g, "");
  }
  return AMOUNT_PATTERN.test(text) ? { amount: text } : { problem: "digits" };
}

/**
 * The amount of a customer's form as the API reads it: {@link readEnteredAmount}'s amount, or the text as typed
 * (trimmed) when it cannot be read, for the amount's own check to refuse and the page to word why
 * (docs/decisions/0209-customer-forms-post-to-their-action-routes.md).
 */
export function enteredAmount(raw: string, currency?: string): string {
  const read = readEnteredAmount(raw, currency);
  return "amount" in read ? read.amount : raw.trim();
}

/**
 * Decimal amount text -> bigint minor units ("1123.52" -> 112352n).
 * @throws Error when the text does not match AMOUNT_PATTERN.
 */
export function toMinor(amount: string): bigint {
  if (!AMOUNT_PATTERN.test(amount)) throw new Error(`not an amount: ${amount}`);
  const [whole = "", frac = ""] = amount.split(".");
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, "0"));
}

/** bigint minor units -> decimal text with two decimals (112352n -> "1123.52", -5n -> "-0.05"). */
export function fromMinor(minor: bigint): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const text = `${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
  return negative ? `-${text}` : text;
}
