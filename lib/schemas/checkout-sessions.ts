import { z } from "zod";
import { Amount, CurrencyCode, Customer, Reference } from "@/lib/schemas/common";

const CUSTOMER_CHOOSES = (what: string) => `not accepted on this endpoint; the customer chooses the ${what} on the checkout page`;
const NO_PRICING = "not accepted on this endpoint; merchant-supplied pricing parameters are not accepted (pricing comes from the merchant's pricing profile)";

/**
 * Members a merchant might try to send that SPEC "CreateCheckoutSession" forbids ("Amount, currency, FX
 * rate, markup and commission fields are forbidden on this endpoint. Merchant-supplied pricing parameters
 * are not accepted."), with the reason the error message gives. Any other unknown member is refused as
 * an unknown property.
 */
export const FORBIDDEN_SESSION_MEMBERS: Record<string, string> = {
  amount: CUSTOMER_CHOOSES("amount"),
  currency: CUSTOMER_CHOOSES("currency"),
  ...Object.fromEntries(
    [
      "fxRate", "rate", "exchangeRate", "baseRate", "effectiveRate", "settlementRate",
      "markup", "markupBps", "buffer", "bufferBps", "commission", "commissionBps", "fee",
      "reserve", "reserveBps", "pricing", "chargeAmount", "chargeCurrency", "settlementCurrency",
    ].map((member) => [member, NO_PRICING]),
  ),
};

const forbidden = Object.fromEntries(
  Object.entries(FORBIDDEN_SESSION_MEMBERS).map(([member, reason]) => [member, z.never({ error: reason }).optional()]),
);

/**
 * SPEC "CreateCheckoutSession" (body of POST /v1/checkout-sessions; unknown properties rejected):
 * `{ reference, customer }`. A forbidden pricing member gives 400 VALIDATION_ERROR naming it
 * ("amount: not accepted on this endpoint; ..."). The customer's required members (id, firstName,
 * lastName, email, phone) are checked by the domain code so that their absence answers
 * CUSTOMER_PROFILE_REQUIRED (lib/checkout-sessions/create.ts); their formats are checked here
 * (phone pattern `^\+[1-9][0-9]{7,14}$`, e-mail -> INVALID_EMAIL).
 */
export const CreateCheckoutSession = z.strictObject({
  reference: Reference,
  customer: Customer.optional(),
  ...forbidden,
});
export type CreateCheckoutSession = { reference: string; customer?: Customer };

/** The customer members a checkout session requires (SPEC: id, firstName, lastName, email; the guide adds phone). */
export const SESSION_REQUIRED_CUSTOMER = ["id", "firstName", "lastName", "email", "phone"] as const satisfies readonly (keyof Customer)[];

/**
 * Body of the customer page's quote and confirm requests (POST /checkout/{token}/quote and /confirm):
 * the amount (SPEC amount pattern) and currency the customer chose. Confirm repeats the quoted pair so a
 * stale page can never confirm a total the customer did not see.
 */
export const CustomerAmount = z.strictObject({ amount: Amount, currency: CurrencyCode });
export type CustomerAmount = z.infer<typeof CustomerAmount>;
