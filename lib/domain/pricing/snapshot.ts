import { fromMinor } from "@/lib/contract/money/currency";
import { DUBAI_TIMEZONE } from "@/lib/contract/money/dubai";
import { PricingSnapshot as PricingSnapshotSchema, type PricingSnapshot } from "@/lib/contract/schemas/api/payment-resource";
import { parseStored } from "@/lib/contract/schemas/stored/parse";
import { bpsFactor, bpsOfMinor, convertMinor, formatRate, parseRate } from "@/lib/contract/money/rates";

/** docs/api.md "Pricing": the immutable pricing terms stored on a payment (type of the contract's zod schema). */
export type { PricingSnapshot };

/**
 * A payment's stored snapshot (`payments.pricing`, or a session quote's `pricing`) parsed by the contract's schema,
 * its members in the documented order (JSONB storage does not keep key order; the schema's output does). Null stays
 * null: v0.1 payments.
 * @throws StoredDataError (lib/contract/schemas/stored/parse.ts) naming `what` and the wrong members, e.g. a missing `reserve`
 */
export function storedSnapshot(stored: unknown, what = "payments.pricing"): PricingSnapshot | null {
  return parseStored(PricingSnapshotSchema.nullable(), stored, what);
}

/** The pricing terms that feed a snapshot (a profile version, or the merchant fallback). */
export type PricingTerms = {
  ruleId: string | null;
  ruleVersion: number;
  fallback: boolean;
  chargeCurrency: string;
  settlementCurrency: string;
  markupBps: number;
  bufferBps: number;
  /** Percentage commission in basis points; null when a fixed commission applies. */
  commissionBps: number | null;
  /** Fixed commission in minor units of the original currency; null when percentage. */
  commissionFixedMinor: bigint | null;
  reserveBps: number;
  delayDays: number;
  reserveDays: number;
};

export type SnapshotInput = {
  amountMinor: bigint;
  currency: string;
  direction: "DEPOSIT" | "WITHDRAWAL";
  terms: PricingTerms;
  /** Base rate original -> charge currency ("1" when the same). */
  baseRate: string;
  /** Base rate original -> settlement currency ("1" when the same). */
  settlementRate: string;
  rateDay: string;
};

/**
 * Computes the pricing snapshot (docs/api.md "Pricing", formulas):
 * effective = base x (1 + markup) x (1 + buffer); gateway = round(amount x effective) in charge minor units;
 * atBase = round(amount x base); markupIncome = round(amount x base x (1 + markup)) - atBase;
 * bufferIncome = gateway - atBase - markupIncome; fxIncome = gateway - atBase;
 * fee = commission (bps of amount, half up, or fixed); reserve = reserveBps of amount (deposits only);
 * merchantNet: deposit = amount - fee - reserve, withdrawal (debt) = amount + fee;
 * settlementNet = round(merchantNet x settlementRate) in the settlement currency.
 * Minor-unit fields (amountMinor, gateway, atBase, markupIncome, bufferIncome, fxIncome) are integer
 * strings; fee, reserve, merchantNet, settlementNet are decimal amounts. Rounding: half up, once per figure.
 * @throws Error on a malformed rate (callers validate rates when they are saved).
 */
export function computeSnapshot(input: SnapshotInput): PricingSnapshot {
  const { amountMinor, terms } = input;
  const base = parseRate(input.baseRate);
  const settlement = parseRate(input.settlementRate);
  const markedUp = base.times(bpsFactor(terms.markupBps));
  const effective = markedUp.times(bpsFactor(terms.bufferBps));

  const atBase = convertMinor(amountMinor, base);
  const atMarkup = convertMinor(amountMinor, markedUp);
  const gateway = convertMinor(amountMinor, effective);

  const fee = terms.commissionFixedMinor ?? bpsOfMinor(amountMinor, terms.commissionBps ?? 0);
  const reserve = input.direction === "DEPOSIT" ? bpsOfMinor(amountMinor, terms.reserveBps) : 0n;
  const merchantNet = input.direction === "DEPOSIT" ? amountMinor - fee - reserve : amountMinor + fee;
  const settlementNet = convertMinor(merchantNet, settlement);

  return {
    schema: 1,
    fallback: terms.fallback,
    ruleId: terms.ruleId,
    ruleVersion: terms.ruleVersion,
    rateDay: input.rateDay,
    timezone: DUBAI_TIMEZONE,
    originalCurrency: input.currency,
    chargeCurrency: terms.chargeCurrency,
    settlementCurrency: terms.settlementCurrency,
    baseRate: formatRate(base),
    effectiveRate: formatRate(effective),
    settlementRate: formatRate(settlement),
    commissionBps: terms.commissionBps ?? 0,
    markupBps: terms.markupBps,
    bufferBps: terms.bufferBps,
    reserveBps: input.direction === "DEPOSIT" ? terms.reserveBps : 0,
    amountMinor: amountMinor.toString(),
    fee: fromMinor(fee),
    reserve: fromMinor(reserve),
    merchantNet: fromMinor(merchantNet),
    settlementNet: fromMinor(settlementNet),
    gateway: gateway.toString(),
    atBase: atBase.toString(),
    markupIncome: (atMarkup - atBase).toString(),
    bufferIncome: (gateway - atMarkup).toString(),
    fxIncome: (gateway - atBase).toString(),
    delayDays: terms.delayDays,
    reserveDays: terms.reserveDays,
  };
}
