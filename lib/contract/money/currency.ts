/** Supported currencies (docs/api.md "Payments"); all have two decimals. */
export const CURRENCIES = ["TRY", "EUR", "USD", "GBP", "AED", "SAR", "CHF"] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Pattern of API amounts (docs/api.md "Limits"): up to 10 integer digits and up to 2 decimals. */
export const AMOUNT_PATTERN = /^\d{1,10}(\.\d{1,2})?$/;

/**
 * The amount a customer typed, as the API reads it: trimmed, and a decimal comma with one or two decimals sent as a
 * point ("150,5" -> "150.5"). Anything else is returned as typed for the amount's own check to refuse
 * (docs/guides/amount-entry-checkout.md "Customer amount-entry checkout": the page's script and its form without
 * JavaScript read the field the same way).
 */
export function enteredAmount(raw: string): string {
  return raw.trim().replace(/^(\d+),(\d{1,2})$/, "$1.$2");
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
