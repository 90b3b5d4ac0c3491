// Amount text helpers of the checkout page (pure; used in the browser and on the server).
import { AMOUNT_PATTERN, enteredAmount, toMinor } from "@/lib/contract/money/currency";

/** "1000000.00" -> "1,000,000.00" (amount text stays text: money never becomes a JS number). */
export function groupedAmount(amount: string): string {
  const [whole = "", fraction] = amount.split(".");
  const digits = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  return fraction === undefined ? digits : `${digits}.${fraction}`;
}

/**
 * Checks the customer's amount before sending it: API amount pattern (up to 10 digits, 2 decimals; a
 * decimal comma is accepted and sent as a point) and the global amount limit.
 * @returns the amount text to send, or a message for the customer
 */
export function checkAmount(raw: string, min: string, max: string): { amount: string } | { message: string } {
  const amount = enteredAmount(raw);
  if (amount === "") return { message: "Enter an amount." };
  if (!AMOUNT_PATTERN.test(amount)) return { message: "Enter an amount in digits with at most 2 decimals, for example 150.00." };
  const minor = toMinor(amount);
  if (minor < toMinor(min) || minor > toMinor(max)) return { message: `Enter an amount between ${groupedAmount(min)} and ${groupedAmount(max)}.` };
  return { amount };
}

/**
 * An amount with its currency as the customer pages show it ("10.15", "AED" -> "AED 10.15"; "1500", "USD" ->
 * "USD 1,500.00"): Intl.NumberFormat's currency style with the currency's code. The amount text is formatted exactly
 * as a decimal string, never through a JS number.
 * @param amount decimal text ("1500.00"); @param currency ISO 4217 code; @param locale the page's language (BCP 47).
 */
export function money(amount: string, currency: string, locale = "en"): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay: "code" }).format(amount as `${number}`);
}

/** A signed fraction as a percentage with 2 decimals, without its sign ("0.0201" -> "2.01%", "-0.005" -> "0.50%"); Intl.NumberFormat's percent style. */
export function percent(fraction: string, locale = "en"): string {
  return new Intl.NumberFormat(locale, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    fraction.replace(/^-/, "") as `${number}`,
  );
}
