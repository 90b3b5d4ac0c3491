import Decimal from "decimal.js";

/** Rate math: exact decimals, rounding only where the contract's formulas produce money (half up). */
const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 60 });
export { D as RateDecimal };

/** A positive rate in decimal text, up to 12 decimals. */
export const RATE_PATTERN = /^(?:0|[1-9]\d{0,11})(?:\.\d{1,12})?$/;

/** Parses a rate string; throws when it is not a positive decimal. */
export function parseRate(rate: string): Decimal {
  if (!RATE_PATTERN.test(rate)) throw new Error(`not a rate: ${rate}`);
  const value = new D(rate);
  if (value.lte(0)) throw new Error(`rate must be positive: ${rate}`);
  return value;
}

/** Rate text without exponent or trailing zeros ("3.672500" -> "3.6725"). */
export function formatRate(rate: Decimal): string {
  return new D(rate).toString();
}

/**
 * A rate as a person reads it: 6 significant digits, rounded half up, no exponent, no trailing zeros
 * ("3.7462254375" -> "3.74623", "0.0912345678" -> "0.0912346", "1" -> "1"). For display only: money is always
 * computed with the exact rate, and the pricing snapshot keeps it.
 */
export function displayRate(rate: string): string {
  return formatRate(new D(rate).toSignificantDigits(6, Decimal.ROUND_HALF_UP));
}

/**
 * How far a rate is from its reference rate, as a fraction of the reference rounded half up to 4 decimals, signed
 * ("3.74623", "3.6725" -> "0.0201"; a lower rate gives a negative fraction, an equal one "0"). For display: the
 * customer page says the difference in percent (docs/guides/amount-entry-checkout.md).
 */
export function rateDifference(rate: string, reference: string): string {
  return formatRate(new D(rate).div(new D(reference)).minus(1).toDecimalPlaces(4, Decimal.ROUND_HALF_UP));
}

/** (1 + bps / 10000) as an exact decimal; 250 bps -> 1.025. */
export function bpsFactor(bps: number): Decimal {
  return new D(bps).div(10_000).plus(1);
}

/**
 * minor x rate, rounded half up to an integer minor unit (docs/api.md "Pricing": minor-unit
 * integers, half up). Both currencies have two decimals, so minor maps to minor.
 */
export function convertMinor(minor: bigint, rate: Decimal): bigint {
  return BigInt(new D(minor.toString()).times(rate).toDecimalPlaces(0, D.ROUND_HALF_UP).toString());
}

/** minor x bps / 10000, half up (commission and reserve). */
export function bpsOfMinor(minor: bigint, bps: number): bigint {
  return (minor * BigInt(bps) * 2n + 10_000n) / 20_000n;
}
