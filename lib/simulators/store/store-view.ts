import { z } from "zod";
import type { Db } from "@/lib/platform/db";
import type { CheckoutState } from "@/lib/platform/generated/prisma/client";
import { fromMinor } from "@/lib/contract/money/currency";
import { STORE_LEGAL_NAME, STORE_NAME } from "@/lib/contract/schemas/api/payment-resource";
import { parseStored } from "@/lib/contract/schemas/stored/parse";
import { STORE_TOKEN_PATTERN } from "@/lib/simulators/test-store/connector";
import { returnLinks, type ReturnLinks } from "@/lib/domain/addresses/return-url";

/** One basket line as the store page shows it (AED decimal text). */
export type StoreViewLine = { sku: string; name: string; kind: "PRODUCT" | "PACKAGE"; quantity: number; unitPrice: string; lineTotal: string };

/**
 * What the store page at checkout.url shows: the store's names, the merchant's name and order
 * reference, the basket, subtotal, discount and AED total, the original amount and currency, and the
 * state. Deliberately without the token and the customer's personal data.
 */
export type StoreCheckoutView = {
  store: string;
  legalName: string;
  merchantName: string;
  /** True when the merchant has a callback address, so it is sent a signed notification of the result. */
  merchantNotified: boolean;
  reference: string;
  /** Effective state: a READY checkout whose payment is past expiresAt reads EXPIRED. */
  state: CheckoutState;
  matchType: string | null;
  lines: StoreViewLine[];
  subtotal: string;
  discount: string;
  total: string;
  chargeCurrency: "AED";
  originalAmount: string;
  originalCurrency: string;
  expiresAt: string;
  /** Where "Return to <merchant>" leads (docs/api.md "Returning to your site"); both null when nothing is set. */
  links: ReturnLinks;
};

/** A checkout's stored basket (`store_checkouts.lines`, written by lib/simulators/store/handoff.ts): unit prices in AED minor units as integer text. */
export const StoredLines = z.array(
  z.object({ sku: z.string(), name: z.string(), kind: z.enum(["PRODUCT", "PACKAGE"]), unitPriceMinor: z.string().regex(/^\d+$/), quantity: z.int().min(1) }),
);

/**
 * Loads the store page view of a token at `now`.
 * @returns null for a malformed or unknown token (the page answers 404). Tokens exist only from READY on,
 *   so the states seen here are READY, SUCCEEDED, FAILED and EXPIRED.
 * @throws StoredDataError (lib/contract/schemas/stored/parse.ts) when the stored basket does not match {@link StoredLines}
 */
export async function loadStoreCheckout(db: Db, token: string, now: Date): Promise<StoreCheckoutView | null> {
  if (!STORE_TOKEN_PATTERN.test(token)) return null;
  const checkout = await db.storeCheckout.findUnique({
    where: { token },
    include: { payment: { include: { merchant: { select: { name: true, callbackUrl: true, returnUrl: true } } } } },
  });
  if (!checkout) return null;
  const { payment } = checkout;
  const lapsed = checkout.state === "READY" && payment.expiresAt !== null && payment.expiresAt <= now;
  const lines = (parseStored(StoredLines.nullable(), checkout.lines, "store_checkouts.lines") ?? []).map((l) => {
    const unit = BigInt(l.unitPriceMinor);
    return { sku: l.sku, name: l.name, kind: l.kind, quantity: l.quantity, unitPrice: fromMinor(unit), lineTotal: fromMinor(unit * BigInt(l.quantity)) };
  });
  return {
    store: STORE_NAME,
    legalName: STORE_LEGAL_NAME,
    merchantName: payment.merchant.name,
    merchantNotified: payment.merchant.callbackUrl !== null,
    reference: payment.reference,
    state: lapsed ? "EXPIRED" : checkout.state,
    matchType: checkout.matchType,
    lines,
    subtotal: fromMinor(checkout.subtotalMinor ?? checkout.chargeMinor),
    discount: fromMinor(checkout.discountMinor ?? 0n),
    total: fromMinor(checkout.chargeMinor),
    chargeCurrency: "AED",
    originalAmount: fromMinor(payment.amountMinor),
    originalCurrency: payment.currency,
    expiresAt: checkout.expiresAt.toISOString(),
    links: returnLinks(checkout, payment.merchant.returnUrl),
  };
}
