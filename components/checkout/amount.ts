// Amount text helpers of the checkout page (pure; used in the browser and on the server).
import { AMOUNT_PATTERN, toMinor } from "@/lib/contract/money/currency";

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
  const amount = raw.trim().replace(/^(\d+),(\d{1,2})$/, "$1.$2");
  if (amount === "") return { message: "Enter an amount." };
  if (!AMOUNT_PATTERN.test(amount)) return { message: "Enter an amount in digits with at most 2 decimals, for example 150.00." };
  const minor = toMinor(amount);
  if (minor < toMinor(min) || minor > toMinor(max)) return { message: `Enter an amount between ${groupedAmount(min)} and ${groupedAmount(max)}.` };
  return { amount };
}
