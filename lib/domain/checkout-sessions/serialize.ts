import type { CheckoutSession } from "@/lib/platform/generated/prisma/client";
import { fromMinor } from "@/lib/contract/money/currency";
import type { CheckoutSession as CheckoutSessionSchema } from "@/lib/contract/schemas/api/checkout-session-resource";
import { publicBaseUrl } from "@/lib/platform/public-url";
import { effectiveState } from "@/lib/domain/checkout-sessions/transitions";

/** docs/api.md "Checkout sessions": the type of the contract's zod schema, lib/contract/schemas/api/checkout-session-resource.ts. */
export type CheckoutSessionResource = CheckoutSessionSchema;

/**
 * The customer's checkout url: a bearer link (`{PUBLIC_BASE_URL}/checkout/{token}`). It carries the
 * authority to act on the session; it is never logged or put anywhere but the response.
 */
export function customerCheckoutUrl(token: string): string {
  return `${publicBaseUrl()}/checkout/${token}`;
}

/**
 * Shapes a session row as the contract's CheckoutSession, members in the documented order. `state` is the effective
 * state at `now` (EXPIRED once expiresAt has passed). verification, paymentId, storeCheckoutUrl,
 * environment and livePayment are constants of this sandbox: amount confirmation is never payment success.
 */
export function serializeCheckoutSession(row: CheckoutSession, now: Date): CheckoutSessionResource {
  return {
    id: row.id,
    reference: row.reference,
    state: effectiveState(row, now),
    customerCheckout: { url: customerCheckoutUrl(row.token), expiresAt: row.expiresAt.toISOString() },
    amount: row.amountMinor === null ? null : fromMinor(row.amountMinor),
    currency: row.currency,
    verification: { state: "NOT_CONFIGURED", verified: false, storeHandoffAllowed: false },
    paymentId: null,
    storeCheckoutUrl: null,
    environment: "sandbox",
    livePayment: false,
  };
}

/**
 * What the customer page's quote and confirm actions answer (docs/guides/amount-entry-checkout.md "Customer amount-entry checkout"): `{ state, amount, currency }`
 * with the state as of `now` (an overdue session reads EXPIRED), amount as decimal text or null before a quote.
 */
export function customerSessionAnswer(session: CheckoutSession, now: Date) {
  return { state: effectiveState(session, now), amount: session.amountMinor === null ? null : fromMinor(session.amountMinor), currency: session.currency };
}
