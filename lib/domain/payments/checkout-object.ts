import type { StoreCheckout } from "@/lib/platform/generated/prisma/client";
import { fromMinor } from "@/lib/contract/money/currency";
import { publicBaseUrl } from "@/lib/platform/public-url";
import { STORE_LEGAL_NAME, STORE_NAME, type CheckoutObject } from "@/lib/contract/schemas/api/payment-resource";

/** docs/api.md "Store checkout": the type of the contract's zod schema. */
export type { CheckoutObject };

/** The checkout url (a bearer link) of a READY checkout; null in every other state. */
export function checkoutUrl(row: Pick<StoreCheckout, "state" | "token">): string | null {
  return row.state === "READY" && row.token ? `${publicBaseUrl()}/store/${row.token}` : null;
}

/** Shapes a store checkout row as the contract's checkout object. */
export function serializeCheckout(row: StoreCheckout): CheckoutObject {
  return {
    store: STORE_NAME,
    legalName: STORE_LEGAL_NAME,
    state: row.state,
    chargeCurrency: "AED",
    chargeAmount: fromMinor(row.chargeMinor),
    url: checkoutUrl(row),
    subtotal: row.subtotalMinor === null ? null : fromMinor(row.subtotalMinor),
    discount: row.discountMinor === null ? null : fromMinor(row.discountMinor),
    matchType: row.matchType,
    expiresAt: row.expiresAt.toISOString(),
    error: row.error,
    livePayment: false,
  };
}
