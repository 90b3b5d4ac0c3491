import { z } from "zod";
import { Amount, CurrencyCode, Customer, Reference, ReturnAddresses } from "@/lib/contract/schemas/api/common";

const CUSTOMER_CHOOSES = (what: string) => `not accepted on this endpoint; the customer chooses the ${what} on the checkout page`;
const NO_PRICING = "not accepted on this endpoint; merchant-supplied pricing parameters are not accepted (pricing comes from the merchant's pricing profile)";

/**
 * Members a merchant might try to send that docs/api.md "Checkout sessions" forbids ("Amount, currency, FX
 * rate, markup and commission fields are forbidden on this endpoint. Merchant-supplied pricing parameters
 * are not accepted."), with the reason the error message gives. Any other unknown member is refused as
 * an unknown property.
 */
export const FORBIDDEN_SESSION_MEMBERS: Record<string, string> = {
  amount: CUSTOMER_CHOOSES("amount"),
  currency: CUSTOMER_CHOOSES("currency"),
  ...Object.fromEntries(
    [
      "fxRate",
      "rate",
      "exchangeRate",
      "baseRate",
      "effectiveRate",
      "settlementRate",
      "markup",
      "markupBps",
      "buffer",
      "bufferBps",
      "commission",
      "commissionBps",
      "fee",
      "reserve",
      "reserveBps",
      "pricing",
      "chargeAmount",
      "chargeCurrency",
      "settlementCurrency",
    ].map((member) => [member, NO_PRICING]),
  ),
};

const forbidden = Object.fromEntries(
  Object.entries(FORBIDDEN_SESSION_MEMBERS).map(([member, reason]) => [member, z.never({ error: reason }).optional().describe(`Forbidden: ${reason}.`)]),
);

/** The customer members a checkout session requires (id, firstName, lastName, email and phone; docs/api.md "Customer"). */
export const SESSION_REQUIRED_CUSTOMER = ["id", "firstName", "lastName", "email", "phone"] as const satisfies readonly (keyof Customer)[];
const requiredMembers = Object.fromEntries(SESSION_REQUIRED_CUSTOMER.map((member) => [member, true])) as {
  [M in (typeof SESSION_REQUIRED_CUSTOMER)[number]]: true;
};

/**
 * docs/api.md "Checkout sessions" (body of POST /v1/checkout-sessions; unknown properties rejected), the one
 * definition of the request: published as component `CreateCheckoutSession` of GET /v1/openapi.json
 * (lib/application/openapi/operations.ts) and, through `CreateCheckoutSessionRequest`, the endpoint's validator.
 * `{ reference, customer }`: customer required with id, firstName, lastName, email and phone
 * (`SESSION_REQUIRED_CUSTOMER`; phone pattern `^\+[1-9][0-9]{7,14}$`, e-mail format); every member of
 * `FORBIDDEN_SESSION_MEMBERS` is listed as forbidden (JSON Schema `not: {}`), any other member is unknown.
 */
export const CreateCheckoutSession = z
  .strictObject({
    reference: Reference.describe("Your reference, 1 to 120 characters, unique among your sessions (409 DUPLICATE_REFERENCE)."),
    customer: Customer.required(requiredMembers).describe(
      "id, firstName, lastName, email and phone (international format with the country code) are required. A missing or blank one answers 400 CUSTOMER_PROFILE_REQUIRED naming it.",
    ),
    ...ReturnAddresses,
    ...forbidden,
  })
  .describe(
    "Reference and customer identity only: the customer chooses amount and currency on the hosted page. Amount, currency, FX rate, markup and commission members are forbidden (400 VALIDATION_ERROR naming the member); merchant-supplied pricing parameters are not accepted.",
  );

/**
 * The validator POST /v1/checkout-sessions runs (its `bodyValidator` in lib/application/openapi/entries/checkouts.ts):
 * `CreateCheckoutSession` with `customer` and its members optional, and nothing else changed. The required
 * members are checked by the domain code, so a missing or blank one answers 400 CUSTOMER_PROFILE_REQUIRED
 * naming every missing member (lib/domain/checkout-sessions/create.ts; docs/api.md "Customer": never filled in) instead of a
 * generic VALIDATION_ERROR. Formats are checked here (phone pattern -> VALIDATION_ERROR, e-mail ->
 * INVALID_EMAIL); a forbidden member gives 400 VALIDATION_ERROR "amount: not accepted on this endpoint; ...".
 */
export const CreateCheckoutSessionRequest = CreateCheckoutSession.extend({ customer: Customer.optional() });
/** A body that passed `CreateCheckoutSessionRequest` (customer members still to be checked by the domain code). */
export type CreateCheckoutSessionRequest = { reference: string; customer?: Customer; returnUrl?: string; cancelUrl?: string };

/**
 * Body of the customer page's quote and confirm requests (POST /checkout/{token}/quote and /confirm):
 * the amount (API amount pattern) and currency the customer chose. Confirm repeats the quoted pair so a
 * stale page can never confirm a total the customer did not see.
 */
export const CustomerAmount = z.strictObject({ amount: Amount, currency: CurrencyCode });
export type CustomerAmount = z.infer<typeof CustomerAmount>;
