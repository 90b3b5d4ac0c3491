import type { Db } from "@/lib/platform/db";
import type { CheckoutSessionState } from "@/lib/platform/generated/prisma/client";
import { fromMinor } from "@/lib/contract/money/currency";
import { getSettings } from "@/lib/domain/settings/service-settings";
import { quotableCurrencies, storedQuote, type SessionQuote } from "@/lib/domain/checkout-sessions/quote";
import { findSessionByToken } from "@/lib/domain/checkout-sessions/read";
import { effectiveState } from "@/lib/domain/checkout-sessions/transitions";
import { returnLinks, type ReturnLinks } from "@/lib/domain/addresses/return-url";

/**
 * What the customer page at customerCheckout.url shows. Deliberately without the token, the customer's
 * personal data and any internal pricing figure: only the merchant's name and reference, the state, the
 * chosen amount, the AED charge, the effective rate and the receiving bank account.
 */
export type CustomerCheckoutView = {
  merchantName: string;
  reference: string;
  state: CheckoutSessionState;
  expiresAt: string;
  amount: string | null;
  currency: string | null;
  quote: PageQuote | null;
  /** Currencies the customer can choose (lib/domain/checkout-sessions/quote.ts quotableCurrencies). */
  currencies: string[];
  /** The global amount limit (decimal text). */
  minAmount: string;
  maxAmount: string;
  /** Where "Return to <merchant>" leads (docs/api.md "Returning to your site"); both null when nothing is set. */
  links: ReturnLinks;
};

/** The part of a session's quote the customer sees (the test helper's answer in /v1 too): no account id, no pricing snapshot. */
export type CustomerQuote = Pick<SessionQuote, "rateDay" | "effectiveRate" | "chargeCurrency" | "chargeAmount"> & {
  bankAccount: Omit<SessionQuote["bankAccount"], "id">;
};
/** What the page shows of a quote: the customer's part and the base rate, to say how the rate shown differs from it (not in /v1 answers). */
export type PageQuote = CustomerQuote & Pick<SessionQuote, "baseRate">;

/** What the customer sees of a stored quote (the page and the test helpers show the same), or null before one. */
export function customerQuote(quote: SessionQuote | null): CustomerQuote | null {
  return (
    quote && {
      rateDay: quote.rateDay,
      effectiveRate: quote.effectiveRate,
      chargeCurrency: quote.chargeCurrency,
      chargeAmount: quote.chargeAmount,
      bankAccount: { holder: quote.bankAccount.holder, bankName: quote.bankAccount.bankName, iban: quote.bankAccount.iban },
    }
  );
}

/** What the page shows of a stored quote ({@link PageQuote}), or null before one. */
function pageQuote(quote: SessionQuote | null): PageQuote | null {
  const shown = customerQuote(quote);
  return quote && shown && { ...shown, baseRate: quote.baseRate };
}

/**
 * Loads the page view of a token at `now` (state EXPIRED once expiresAt has passed).
 * @returns null for a malformed or unknown token (the page answers 404)
 */
export async function loadCustomerCheckout(db: Db, token: string, now: Date): Promise<CustomerCheckoutView | null> {
  const session = await findSessionByToken(db, token);
  if (!session) return null;
  const state = effectiveState(session, now);
  const merchant = await db.merchant.findUniqueOrThrow({ where: { id: session.merchantId } });
  const open = state === "AWAITING_AMOUNT" || state === "QUOTED";
  const [currencies, settings] = open ? await Promise.all([quotableCurrencies(db, merchant), getSettings(db)]) : [[], null];
  return {
    merchantName: merchant.name,
    reference: session.reference,
    state,
    expiresAt: session.expiresAt.toISOString(),
    amount: session.amountMinor === null ? null : fromMinor(session.amountMinor),
    currency: session.currency,
    quote: pageQuote(storedQuote(session.quote)),
    currencies,
    minAmount: settings?.globalMinAmount ?? "",
    maxAmount: settings?.globalMaxAmount ?? "",
    links: returnLinks(session, merchant.returnUrl),
  };
}
