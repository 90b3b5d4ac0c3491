import { z } from "zod";
import { Amount, CurrencyCode, Customer, Description, Reference } from "@/lib/schemas/common";

/**
 * SPEC "CreateStorePayment" (request body of POST /v1/store-payments; unknown properties rejected):
 * reference, amount, currency, optional description and customer. The merchant comes from the API key;
 * merchantId is not accepted. One definition: the endpoint validates with it and GET /v1/openapi.json
 * publishes it (lib/openapi/operations.ts). customer is optional in the schema; the store-payment rules
 * (`STORE_REQUIRED_CUSTOMER`, checked by the domain code) answer 400 CUSTOMER_PROFILE_REQUIRED.
 */
export const CreateStorePayment = z
  .strictObject({
    reference: Reference,
    amount: Amount,
    currency: CurrencyCode,
    description: Description.optional(),
    customer: Customer.optional(),
  })
  .describe("The store charges in AED; another merchant currency needs a pricing profile with AED charge and a direct rate. customer.username, firstName, lastName and email are required (country when merchant policy says so): missing ones answer 400 CUSTOMER_PROFILE_REQUIRED.");
export type CreateStorePayment = z.infer<typeof CreateStorePayment>;

/**
 * SPEC "Rules for the store-payment customer profile": username, firstName, lastName and email are always
 * required; country too when the merchant's policy says so (merchant.storeRequiresCountry). id and ip are
 * optional.
 */
export const STORE_REQUIRED_CUSTOMER = ["username", "firstName", "lastName", "email"] as const satisfies readonly (keyof Customer)[];
