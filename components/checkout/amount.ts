// Amount text helpers of the customer pages (pure; used in the browser and on the server). Every amount, rate and
// figure shown is formatted with Intl.NumberFormat in the page's formatting language (lib/platform/locale.ts
// formattingLocale; docs/decisions/0210-customer-pages-in-arabic-and-english.md), from decimal text, never a JS number.
import { readEnteredAmount, toMinor, type AmountTextProblem } from "@/lib/contract/money/currency";

/**
 * A decimal figure with its thousands grouped and its decimals as written ("1000000.00" -> "1,000,000.00", "12" ->
 * "12", "3.6725" -> "3.6725"): Intl.NumberFormat of the text itself (no JS number).
 * @param amount decimal text; @param locale the page's formatting language (BCP 47).
 */
export function groupedAmount(amount: string, locale = "en-GB"): string {
  const decimals = amount.split(".")[1]?.length ?? 0;
  return new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(amount as `${number}`);
}

/**
 * The words of the amount field's refusals, in the page's language (messages/*.json `customer.amount`): one per
 * {@link AmountTextProblem}, and `range` with the checkout's bounds already in it.
 */
export type AmountWords = Record<AmountTextProblem | "range", string>;

/**
 * Checks the customer's amount before sending it: the field read as the page's form is read without JavaScript
 * (lib/contract/money/currency.ts readEnteredAmount: Arabic-Indic digits, grouping commas, the chosen currency's code
 * beside the number; docs/guides/amount-entry-checkout.md "The amount field"), then the checkout's bounds.
 * @param bounds.min, bounds.max the checkout's bounds (decimal text); bounds.currency the chosen currency
 * @returns the amount text to send ("1500.00"), or the words of why not
 */
export function checkAmount(
  raw: string,
  bounds: { min: string; max: string; currency?: string | null },
  words: AmountWords,
): { amount: string } | { message: string } {
  const read = readEnteredAmount(raw, bounds.currency ?? undefined);
  if ("problem" in read) return { message: words[read.problem] };
  const minor = toMinor(read.amount);
  if (minor < toMinor(bounds.min) || minor > toMinor(bounds.max)) return { message: words.range };
  return { amount: read.amount };
}

/**
 * An amount with its currency as the customer pages show it ("10.15", "AED" -> "AED 10.15"; "1500", "USD" ->
 * "USD 1,500.00"; in ar-AE "‏1,500.00 USD"): Intl.NumberFormat's currency style with the currency's code. The amount
 * text is formatted exactly as a decimal string, never through a JS number.
 * @param amount decimal text ("1500.00"); @param currency ISO 4217 code; @param locale the page's formatting language (BCP 47).
 */
export function money(amount: string, currency: string, locale = "en-GB"): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay: "code" }).format(amount as `${number}`);
}

/** A signed fraction as a percentage with 2 decimals, without its sign ("0.0201" -> "2.01%", "-0.005" -> "0.50%"); Intl.NumberFormat's percent style. */
export function percent(fraction: string, locale = "en-GB"): string {
  return new Intl.NumberFormat(locale, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    fraction.replace(/^-/, "") as `${number}`,
  );
}
