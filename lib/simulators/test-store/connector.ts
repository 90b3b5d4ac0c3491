// The boundary between Sandpiper and the single connected store (docs/api.md "Overview" 4). The
// sandbox store (lib/simulators/test-store/sandbox-store.ts) implements it in-process; a real store would implement it
// over HTTPS with the same signed handoff, so it can replace the sandbox store without other changes.

/** How a READY basket was found: one product, one package, or a basket with a discount. */
export type MatchType = "EXACT_PRODUCT" | "EXACT_PACKAGE" | "DISCOUNTED_BASKET";

/** Pattern of a store page token, 32 random bytes in base64url (anything else is not one: 404 without a database lookup). */
export const STORE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Largest discount a READY answer may carry, in basis points of its list subtotal (docs/api.md "Limits": 20 percent). */
export const MAX_DISCOUNT_BPS = 2000;

/**
 * What Sandpiper tells the store about one checkout (all text; money as minor-unit integer strings and
 * decimal text, never JSON numbers). Signed as a whole (lib/simulators/test-store/handoff-signing.ts): issuedAt and expiresAt
 * travel as the token's `iat` and `exp` claims, in whole seconds.
 */
export type HandoffPayload = {
  /** Payload format version. */
  v: 1;
  /** The merchant's order reference (docs/api.md "Store checkout"). */
  reference: string;
  /** The Sandpiper payment id (uuid): the store's idempotency key for this checkout. */
  paymentId: string;
  /** Locked charge in AED fils, e.g. "1873" (= chargeAmount "18.73"). */
  chargeMinor: string;
  chargeAmount: string;
  chargeCurrency: "AED";
  /** Original merchant amount and currency (e.g. "4.75", "EUR"). */
  amount: string;
  currency: string;
  /** End of the checkout's acceptance period (ISO 8601 UTC). */
  expiresAt: string;
  /** When Sandpiper signed this handoff (ISO 8601 UTC); the store refuses stale handoffs. */
  issuedAt: string;
};

/** A handoff as sent: a compact JWS (HS256) whose claims are the payload. A bearer credential: never logged. */
export type SignedHandoff = { token: string };

/** One basket line chosen by the store: list price in AED fils, quantity >= 1. */
export type StoreLine = { sku: string; name: string; kind: "PRODUCT" | "PACKAGE"; unitPriceMinor: bigint; quantity: number };

/** Why a store refused a handoff without looking at it (Sandpiper signs again and retries later). */
export type HandoffRefusal = "BAD_SIGNATURE" | "STALE" | "MALFORMED";

/**
 * The store's answer to a handoff:
 * - READY: a basket whose subtotalMinor - discountMinor equals the charge, and the bearer token of the
 *   store page (`/store/{token}`);
 * - REJECTED: nothing in the catalog fits (error text for the checkout object; the payment fails);
 * - REFUSED: the handoff itself was not accepted (tampered, stale or malformed).
 * Transport failures are thrown (Sandpiper retries them with backoff).
 */
export type HandoffAnswer =
  | { outcome: "READY"; token: string; matchType: MatchType; lines: StoreLine[]; subtotalMinor: bigint; discountMinor: bigint }
  | { outcome: "REJECTED"; error: string }
  | { outcome: "REFUSED"; reason: HandoffRefusal };

/** The connected store. `handoff` may be called more than once for a checkout (retries); each call is answered afresh. */
export interface StoreConnector {
  handoff(signed: SignedHandoff): Promise<HandoffAnswer>;
}
