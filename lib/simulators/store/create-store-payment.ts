import type { AuthenticatedKey } from "@/lib/domain/keys/api-keys";
import { returnUrlOrThrow } from "@/lib/domain/addresses/return-url";
import { afterCommit, type Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { fromMinor, toMinor } from "@/lib/contract/money/currency";
import { admitPayment, insertPayment, pricePayment } from "@/lib/domain/payments/create";
import type { PaymentRow } from "@/lib/domain/payments/serialize";
import type { Customer } from "@/lib/contract/schemas/api/common";
import { STORE_REQUIRED_CUSTOMER, type CreateStorePayment } from "@/lib/contract/schemas/api/store-payments";
import { getSettings } from "@/lib/domain/settings/service-settings";
import { storeClosure } from "@/lib/simulators/store/availability";
import { announce } from "@/lib/domain/notify/announce";
import { STORE_HANDOFF_DUE } from "@/lib/domain/notify/due-events";

/** docs/api.md "Limits": "Store charge currency: AED only". */
export const STORE_CHARGE_CURRENCY = "AED";
/** The store's smallest and largest charge in AED fils: 0.01 and 9,999,999,999.99 (amounts of at most 10 integer digits). */
export const STORE_MIN_CHARGE_MINOR = 1n;
export const STORE_MAX_CHARGE_MINOR = 999_999_999_999n;

/**
 * Refuses a store payment whose AED charge the store cannot take: below AED 0.01 (a tiny amount in a currency
 * worth less than a dirham rounds to 0 fils) or above AED 9,999,999,999.99 (docs/api.md "Store checkout").
 * @throws ApiError 400 AMOUNT_OUT_OF_RANGE naming the charge and the bound
 */
export function assertStoreCharge(chargeMinor: bigint, amount: string, currency: string): void {
  const charge = `AED ${fromMinor(chargeMinor)}`;
  if (chargeMinor < STORE_MIN_CHARGE_MINOR) {
    throw apiError(
      "AMOUNT_OUT_OF_RANGE",
      `amount: ${amount} ${currency} is ${charge} at today's rate, below the store's smallest charge of AED 0.01; send a larger amount`,
    );
  }
  if (chargeMinor > STORE_MAX_CHARGE_MINOR) {
    throw apiError(
      "AMOUNT_OUT_OF_RANGE",
      `amount: ${amount} ${currency} is ${charge} at today's rate, above the store's largest charge of AED 9,999,999,999.99; send a smaller amount`,
    );
  }
}

/**
 * The stable customer reference of a store payment (docs/api.md "Customer": when id is omitted, username serves as the stable customer reference). Derived, never
 * written into the stored customer object (required fields are never auto-filled).
 */
export function storeCustomerReference(customer: Customer | undefined): string | undefined {
  return customer?.id ?? customer?.username;
}

/** The customer members a store payment of this merchant requires (country when its policy says so). */
export function storeRequiredCustomer(merchant: Pick<AuthenticatedKey["merchant"], "storeRequiresCountry">): (keyof Customer)[] {
  return [...STORE_REQUIRED_CUSTOMER, ...(merchant.storeRequiresCountry ? (["country"] as const) : [])];
}

/**
 * `POST /v1/store-payments` (docs/api.md) (docs/api.md "Overview" 4): creates a fixed-amount store payment
 * (kind STORE, method GATEWAY, direction DEPOSIT, status PENDING) with its store checkout in QUEUED, in the
 * caller's (idempotency) transaction, and announces the signed handoff after commit.
 *
 * Order: legacy flow (403), store switches (503), admission (currency enabled, intake pause on channel
 * STORE, global amount limit, customer profile, block list with the stable customer reference, duplicate
 * reference), pricing as a GATEWAY DEPOSIT that must charge in AED (limits and today's direct rate), route
 * (the connected store must have an active catalog item). The checkout's chargeAmount is the snapshot's
 * `gateway` figure (AED fils); payment and checkout expire after merchant.storeCheckoutMinutes (default 30).
 *
 * The optional returnUrl and cancelUrl are kept on the checkout for its page's "Return to" link (docs/api.md
 * "Returning to your site"; lib/domain/addresses/return-url.ts).
 *
 * @throws ApiError 400 VALIDATION_ERROR naming returnUrl or cancelUrl when one is refused, 403 LEGACY_FLOW_DISABLED (merchant with customer amount-entry), 503 STORE_DISABLED /
 *   STORE_UNAVAILABLE, 400 CUSTOMER_PROFILE_REQUIRED, 409 PROVIDER_CURRENCY_MISMATCH (no profile charging AED
 *   for a non-AED currency), 409 FX_RATE_MISSING, 503 NO_ROUTE, and everything admitPayment and pricePayment throw.
 */
export async function createStorePayment(tx: Tx, input: { apiKey: AuthenticatedKey; body: CreateStorePayment; now: Date }): Promise<PaymentRow> {
  const { apiKey, body, now } = input;
  const merchant = apiKey.merchant;
  if (merchant.amountEntryEnabled) {
    throw apiError(
      "LEGACY_FLOW_DISABLED",
      "POST /v1/store-payments is the legacy store flow and is unavailable once customer amount-entry is enabled; use POST /v1/checkout-sessions",
    );
  }
  // docs/api.md "Returning to your site": checked before anything is read or written.
  const returnUrl = returnUrlOrThrow("returnUrl", body.returnUrl);
  const cancelUrl = returnUrlOrThrow("cancelUrl", body.cancelUrl);
  const closed = storeClosure(await getSettings(tx));
  if (closed) throw closed;
  const amountMinor = toMinor(body.amount);
  const customer = await admitPayment(tx, {
    merchant,
    channel: "STORE",
    reference: body.reference,
    amountMinor,
    currency: body.currency,
    customer: body.customer,
    requiredCustomer: storeRequiredCustomer(merchant),
    // Risk checks match the stable customer reference (id, else username) against CUSTOMER_ID entries.
    riskView: (c) => c && { ...c, id: storeCustomerReference(c) },
    now,
  });
  const priced = await pricePayment(tx, {
    merchant,
    currency: body.currency,
    channel: "GATEWAY",
    direction: "DEPOSIT",
    amountMinor,
    now,
    requireChargeCurrency: STORE_CHARGE_CURRENCY,
  });
  assertStoreCharge(BigInt(priced.snapshot.gateway), body.amount, body.currency);
  await requireStoreRoute(tx);
  const payment = await insertPayment(tx, {
    apiKey,
    kind: "STORE",
    reference: body.reference,
    amountMinor,
    currency: body.currency,
    method: "GATEWAY",
    direction: "DEPOSIT",
    status: "PENDING",
    priced,
    description: body.description,
    customer,
    acceptanceMinutes: merchant.storeCheckoutMinutes,
    now,
    storeCheckout: { state: "QUEUED", chargeMinor: BigInt(priced.snapshot.gateway), nextHandoffAt: now, returnUrl, cancelUrl },
  });
  afterCommit(tx, () => announce(STORE_HANDOFF_DUE, [{ paymentId: payment.id }]));
  return payment;
}

/**
 * The route of a store payment is the single connected store; it can sell only from an active catalog.
 * @throws ApiError 503 NO_ROUTE when the store's catalog has no active product or package.
 */
async function requireStoreRoute(tx: Tx): Promise<void> {
  const item = await tx.catalogItem.findFirst({ where: { active: true }, select: { id: true } });
  if (!item) throw apiError("NO_ROUTE", "the store has no products to offer right now; retry later with the same Idempotency-Key and body");
}
