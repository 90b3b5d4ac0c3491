import { z } from "zod";
import { getDb, withTransaction, type Db, type Tx } from "@/lib/platform/db";
import { ApiError, apiError, fieldError } from "@/lib/contract/errors";
import type { CheckoutSession, Merchant } from "@/lib/platform/generated/prisma/client";
import { fromMinor, toMinor } from "@/lib/contract/money/currency";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { assertAmountInRange } from "@/lib/domain/pricing/limits";
import { directRate, resolvePricing } from "@/lib/domain/pricing/resolve";
import { computeSnapshot } from "@/lib/domain/pricing/snapshot";
import type { CustomerAmount } from "@/lib/contract/schemas/api/checkout-sessions";
import { Amount } from "@/lib/contract/schemas/api/common";
import { PricingSnapshot as PricingSnapshotSchema } from "@/lib/contract/schemas/api/payment-resource";
import { parseStored } from "@/lib/contract/schemas/stored/parse";
import { assertWithinGlobalLimit, getSettings } from "@/lib/domain/settings/service-settings";
import { lockSessionByToken } from "@/lib/domain/checkout-sessions/read";
import { applySessionTransition, assertTransition } from "@/lib/domain/checkout-sessions/transitions";

/** The store charges in AED only (docs/api.md "Overview" 4); an amount-entry total is charged in AED. */
export const SESSION_CHARGE_CURRENCY = "AED";

/** The service bank account shown to the customer as the receiver of the transfer. */
const ReceivingAccount = z.object({ id: z.string(), holder: z.string(), bankName: z.string(), iban: z.string() });
export type ReceivingAccount = z.output<typeof ReceivingAccount>;

/**
 * What the customer saw when choosing an amount (stored on the session as `quote`): the AED charge at
 * the effective rate of today's Dubai business day, the receiving account, and the full pricing snapshot
 * a payment of this amount would carry today (kept for audit; never shown to the customer).
 */
const SessionQuote = z.object({
  rateDay: z.iso.date(),
  baseRate: z.string(),
  effectiveRate: z.string(),
  chargeCurrency: z.literal(SESSION_CHARGE_CURRENCY),
  /** Decimal amount in AED, e.g. "420.90". */
  chargeAmount: Amount,
  bankAccount: ReceivingAccount,
  pricing: PricingSnapshotSchema,
});
export type SessionQuote = z.output<typeof SessionQuote>;

/**
 * A session's stored quote (`checkout_sessions.quote`) parsed by its schema, or null before one (docs/api.md
 * "Checkout sessions").
 * @throws StoredDataError (lib/contract/schemas/stored/parse.ts) naming the wrong members
 */
export function storedQuote(value: unknown): SessionQuote | null {
  return parseStored(SessionQuote.nullable(), value, "checkout_sessions.quote");
}

type QuotingMerchant = Pick<Merchant, "id" | "defaultCommissionBps" | "enabledCurrencies">;

/**
 * Currencies a customer can choose on the page: the merchant's enabled currencies whose GATEWAY DEPOSIT
 * pricing charges in AED and is not disabled (AED itself needs no profile). Whether today's rate exists is
 * told when quoting.
 */
export async function quotableCurrencies(db: Db, merchant: QuotingMerchant): Promise<string[]> {
  const profiles = await db.pricingProfile.findMany({
    where: { merchantId: merchant.id, channel: "GATEWAY", direction: "DEPOSIT" },
    include: { versions: { orderBy: { version: "desc" }, take: 1 } },
  });
  const latest = new Map(profiles.map((p) => [p.currency, p.versions[0]]));
  return merchant.enabledCurrencies.filter((currency) => {
    const version = latest.get(currency);
    if (!version) return currency === SESSION_CHARGE_CURRENCY;
    return version.enabled && version.chargeCurrency === SESSION_CHARGE_CURRENCY;
  });
}

/** The active service bank account that receives amount-entry transfers (oldest first; display only). */
async function receivingAccount(db: Db): Promise<ReceivingAccount> {
  const account = await db.bankAccount.findFirst({ where: { active: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  if (!account) throw apiError("NO_ROUTE", "no receiving bank account is available right now; please try again later");
  return { id: account.id, holder: account.holder, bankName: account.bankName, iban: account.iban };
}

/** Pricing errors reworded for the customer (the merchant-facing texts name internals such as profiles). */
function forCustomer(error: unknown, currency: string): unknown {
  if (!(error instanceof ApiError)) return error;
  switch (error.code) {
    case "FX_RATE_MISSING":
      return apiError(
        "FX_RATE_MISSING",
        `the ${SESSION_CHARGE_CURRENCY} charge for ${currency} cannot be shown: no exchange rate is set for today; choose another currency or try again later`,
      );
    case "PRICING_DISABLED":
    case "PROVIDER_CURRENCY_MISMATCH":
      return apiError(error.code, `${currency} cannot be used for this checkout; choose another currency`);
    case "AMOUNT_OUT_OF_RANGE":
      return apiError(error.code, error.message.replace("this pricing profile's", `the ${currency}`));
    default:
      return error;
  }
}

/**
 * Prices the customer's choice like a GATEWAY deposit of today (docs/api.md "Pricing": effective rate =
 * base x (1 + markup) x (1 + buffer); charge = amount x effective rate, half up) without consuming any
 * limit: nothing is created. The profile must charge in AED.
 * @throws ApiError 400 VALIDATION_ERROR (currency not offered), 400 GLOBAL_AMOUNT_LIMIT, 400 AMOUNT_OUT_OF_RANGE,
 *   409 PRICING_DISABLED / PROVIDER_CURRENCY_MISMATCH, 409 FX_RATE_MISSING (no direct rate for today's
 *   Dubai day), 503 NO_ROUTE (no active bank account)
 */
export async function priceSessionQuote(tx: Tx, merchant: QuotingMerchant, choice: CustomerAmount, now: Date): Promise<SessionQuote> {
  const amountMinor = toMinor(choice.amount);
  const { currency } = choice;
  if (!(await quotableCurrencies(tx, merchant)).includes(currency)) {
    throw fieldError("currency", `${currency} cannot be used for this checkout; choose another currency`);
  }
  assertWithinGlobalLimit(await getSettings(tx), amountMinor);
  try {
    const { terms, version } = await resolvePricing(tx, merchant, currency, "GATEWAY", "DEPOSIT");
    if (terms.chargeCurrency !== SESSION_CHARGE_CURRENCY) throw apiError("PROVIDER_CURRENCY_MISMATCH", "charge currency is not AED");
    if (version) assertAmountInRange(version, amountMinor);
    const rateDay = dubaiDay(now);
    const baseRate = await directRate(tx, currency, SESSION_CHARGE_CURRENCY, rateDay);
    const settlementRate = await directRate(tx, currency, terms.settlementCurrency, rateDay);
    const pricing = computeSnapshot({ amountMinor, currency, direction: "DEPOSIT", terms, baseRate, settlementRate, rateDay });
    return {
      rateDay,
      baseRate: pricing.baseRate,
      effectiveRate: pricing.effectiveRate,
      chargeCurrency: SESSION_CHARGE_CURRENCY,
      chargeAmount: fromMinor(BigInt(pricing.gateway)),
      bankAccount: await receivingAccount(tx),
      pricing,
    };
  } catch (error) {
    throw forCustomer(error, currency);
  }
}

/**
 * The customer chose amount and currency on the page: AWAITING_AMOUNT or QUOTED -> QUOTED with the amount, currency
 * and quote stored (docs/api.md "Checkout sessions": the customer may choose again). One transaction, row locked: its
 * own, or the caller's when `db` is one (the test helper `POST /v1/sandbox/checkout-sessions/{id}/quote`).
 * @throws ApiError 404 NOT_FOUND (token), 409 INVALID_STATE (expired or confirmed), and as priceSessionQuote
 */
export async function quoteCheckoutSession(token: string, choice: CustomerAmount, now: Date, db: Db = getDb()): Promise<CheckoutSession> {
  return withTransaction(db, async (tx) => {
    const session = await lockSessionByToken(tx, token);
    const merchant = await tx.merchant.findUniqueOrThrow({ where: { id: session.merchantId } });
    // An expired or confirmed session is refused before pricing, so that is the message the customer sees.
    assertTransition(session, "quote", now);
    const quote = await priceSessionQuote(tx, merchant, choice, now);
    return applySessionTransition(tx, session, "quote", {
      now,
      data: { amountMinor: toMinor(choice.amount), currency: choice.currency, quote, quotedAt: now },
    });
  });
}
