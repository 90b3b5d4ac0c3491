import type { AuthenticatedKey } from "@/lib/auth/api-keys";
import { afterCommit, type Tx } from "@/lib/db";
import { apiError } from "@/lib/errors";
import { toMinor } from "@/lib/money/currency";
import { admitPayment, insertPayment, pricePayment } from "@/lib/payments/create";
import type { PaymentRow } from "@/lib/payments/serialize";
import type { Customer } from "@/lib/schemas/common";
import { STORE_REQUIRED_CUSTOMER, type CreateStorePayment } from "@/lib/schemas/store-payments";
import { getSettings } from "@/lib/settings";
import { storeClosure } from "@/lib/store/availability";
import { announceStoreHandoff } from "@/lib/store/handoff-announce";

/** SPEC Limits: "Store charge currency: AED only". */
export const STORE_CHARGE_CURRENCY = "AED";

/**
 * The stable customer reference of a store payment (SPEC "Rules for the store-payment customer
 * profile": when id is omitted, username serves as the stable customer reference). Derived, never
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
 * SPEC `POST /v1/store-payments` ("What the service does" 4): creates a fixed-amount store payment
 * (kind STORE, method GATEWAY, direction DEPOSIT, status PENDING) with its store checkout in QUEUED, in the
 * caller's (idempotency) transaction, and announces the signed handoff after commit.
 *
 * Order: legacy flow (403), store switches (503), admission (currency enabled, intake pause on channel
 * STORE, global amount limit, customer profile, block list with the stable customer reference, duplicate
 * reference), pricing as a GATEWAY DEPOSIT that must charge in AED (limits and today's direct rate), route
 * (the connected store must have an active catalog item). The checkout's chargeAmount is the snapshot's
 * `gateway` figure (AED fils); payment and checkout expire after merchant.storeCheckoutMinutes (default 30).
 *
 * @throws ApiError 403 LEGACY_FLOW_DISABLED (merchant with customer amount-entry), 503 STORE_DISABLED /
 *   STORE_UNAVAILABLE, 400 CUSTOMER_PROFILE_REQUIRED, 409 PROVIDER_CURRENCY_MISMATCH (no profile charging AED
 *   for a non-AED currency), 409 FX_RATE_MISSING, 503 NO_ROUTE, and everything admitPayment and pricePayment throw.
 */
export async function createStorePayment(
  tx: Tx,
  input: { apiKey: AuthenticatedKey; body: CreateStorePayment; now: Date },
): Promise<PaymentRow> {
  const { apiKey, body, now } = input;
  const merchant = apiKey.merchant;
  if (merchant.amountEntryEnabled) {
    throw apiError("LEGACY_FLOW_DISABLED", "POST /v1/store-payments is the legacy store flow and is unavailable once customer amount-entry is enabled; use POST /v1/checkout-sessions");
  }
  const closed = storeClosure(await getSettings(tx));
  if (closed) throw closed;
  const amountMinor = toMinor(body.amount);
  const customerRef = storeCustomerReference(body.customer);
  await admitPayment(tx, {
    merchant,
    channel: "STORE",
    reference: body.reference,
    amountMinor,
    currency: body.currency,
    // Risk checks match the stable customer reference (id, else username) against CUSTOMER_ID entries.
    customer: body.customer && { ...body.customer, id: customerRef },
    requiredCustomer: storeRequiredCustomer(merchant),
  });
  const priced = await pricePayment(tx, {
    merchant, currency: body.currency, channel: "GATEWAY", direction: "DEPOSIT", amountMinor, now, requireChargeCurrency: STORE_CHARGE_CURRENCY,
  });
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
    customer: body.customer,
    acceptanceMinutes: merchant.storeCheckoutMinutes,
    now,
    storeCheckout: { state: "QUEUED", chargeMinor: BigInt(priced.snapshot.gateway), nextHandoffAt: now },
  });
  afterCommit(tx, () => announceStoreHandoff(payment.id));
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
