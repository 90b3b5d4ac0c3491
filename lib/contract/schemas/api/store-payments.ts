import { z } from "zod";
import { Amount, CurrencyCode, Customer, Description, Reference, ReturnAddresses } from "@/lib/contract/schemas/api/common";

/**
 * docs/api.md "Store checkout" (request body of POST /v1/store-payments; unknown properties rejected):
 * reference, amount, currency, optional description and customer. The merchant comes from the API key;
 * merchantId is not accepted. One definition: the endpoint validates with it and GET /v1/openapi.json
 * publishes it (lib/application/openapi/operations.ts). customer is optional in the schema; the store-payment rules
 * (`STORE_REQUIRED_CUSTOMER`, checked by the domain code) answer 400 CUSTOMER_PROFILE_REQUIRED.
 */
export const CreateStorePayment = z
  .strictObject({
    reference: Reference.describe("Your order id, 1 to 120 characters, unique among your payments (409 DUPLICATE_REFERENCE)."),
    amount: Amount.describe(
      "The order amount, decimal text in currency (up to 10 integer digits, 2 decimals); its AED charge must be AED 0.01 to 9,999,999,999.99.",
    ),
    currency: CurrencyCode.describe("ISO 4217 code, enabled for your merchant; other than AED it needs a profile charging AED and today's direct rate."),
    description: Description.optional().describe("Free text for you, at most 500 characters; stored, not returned."),
    customer: Customer.optional().describe("username, firstName, lastName and email required (country when your merchant is set up so); id optional."),
    ...ReturnAddresses,
  })
  .describe(
    "The store charges in AED; another merchant currency needs a pricing profile with AED charge and a direct rate. customer.username, firstName, lastName and email are required (country when merchant policy says so): missing ones answer 400 CUSTOMER_PROFILE_REQUIRED.",
  );
export type CreateStorePayment = z.infer<typeof CreateStorePayment>;

/**
 * docs/api.md "Customer": username, firstName, lastName and email are always
 * required; country too when the merchant's policy says so (merchant.storeRequiresCountry). id and ip are
 * optional.
 */
export const STORE_REQUIRED_CUSTOMER = ["username", "firstName", "lastName", "email"] as const satisfies readonly (keyof Customer)[];
