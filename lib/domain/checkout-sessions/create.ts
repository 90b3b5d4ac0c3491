import { randomBytes } from "node:crypto";
import type { AuthenticatedKey } from "@/lib/domain/keys/api-keys";
import type { Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { returnUrlOrThrow } from "@/lib/domain/addresses/return-url";
import type { CheckoutSession } from "@/lib/platform/generated/prisma/client";
import { customerProfile } from "@/lib/domain/customers/profile";
import { consumeVelocity } from "@/lib/domain/risk/velocity";
import { assertNotBlocked } from "@/lib/domain/risk/block-list";
import { SESSION_REQUIRED_CUSTOMER, type CreateCheckoutSessionRequest } from "@/lib/contract/schemas/api/checkout-sessions";

/** A bearer token of a customer checkout url: 32 random bytes, base64url (43 characters, 256 bits). */
export function newSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * `POST /v1/checkout-sessions` (docs/api.md) (docs/api.md "Overview" 5): opens a customer amount-entry session in
 * AWAITING_AMOUNT, in the caller's (idempotency) transaction. Expires after the merchant's
 * checkoutSessionMinutes (default 30). Creates no payment, store handoff or event.
 * The optional returnUrl and cancelUrl are kept for the page's "Return to" link (docs/api.md "Returning to your site").
 * @throws ApiError 400 VALIDATION_ERROR naming returnUrl or cancelUrl when one is refused, 403 AMOUNT_ENTRY_NOT_ENABLED (merchant without the flow), 400 CUSTOMER_PROFILE_REQUIRED
 *   (a required customer member missing or blank), 403 RISK_REJECTED (block list), 409 DUPLICATE_REFERENCE
 *   (reference already used by one of the merchant's sessions)
 */
export async function createCheckoutSession(
  tx: Tx,
  input: { merchant: AuthenticatedKey["merchant"]; body: CreateCheckoutSessionRequest; now: Date },
): Promise<CheckoutSession> {
  const { merchant, body, now } = input;
  if (!merchant.amountEntryEnabled) {
    throw apiError(
      "AMOUNT_ENTRY_NOT_ENABLED",
      "customer amount-entry checkout is not enabled for this merchant: an operator switches it on in the console (Merchants, the merchant's page, \"Customer amount-entry flow\"); use a key of a merchant that has it, such as the seeded amount-entry merchant's",
    );
  }
  // docs/api.md "Returning to your site": checked before anything is read or written.
  const returnUrl = returnUrlOrThrow("returnUrl", body.returnUrl);
  const cancelUrl = returnUrlOrThrow("cancelUrl", body.cancelUrl);
  const customer = customerProfile(body.customer, SESSION_REQUIRED_CUSTOMER);
  await assertNotBlocked(tx, merchant.id, customer);
  // A session is a payment attempt for COUNT rules; it has no amount yet, so AMOUNT rules do not apply.
  await consumeVelocity(tx, { merchantId: merchant.id, customer, amount: null, now });
  const existing = await tx.checkoutSession.findUnique({
    where: { merchantId_reference: { merchantId: merchant.id, reference: body.reference } },
    select: { id: true },
  });
  if (existing) throw apiError("DUPLICATE_REFERENCE", "a checkout session with this reference already exists for this merchant");
  return tx.checkoutSession.create({
    data: {
      merchantId: merchant.id,
      reference: body.reference,
      customer,
      state: "AWAITING_AMOUNT",
      token: newSessionToken(),
      returnUrl,
      cancelUrl,
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + merchant.checkoutSessionMinutes * 60_000),
    },
  });
}
