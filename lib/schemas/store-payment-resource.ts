import { z } from "zod";
import { Amount, CurrencyCode, Customer, Description, Reference } from "@/lib/schemas/common";
import { CheckoutObject, Payment } from "@/lib/schemas/payment-resource";

// SPEC "CreateStorePayment" and the 201 response of `POST /v1/store-payments` (fixed-amount store checkout).
// The handler (issue 5) uses these schemas, so the published contract and the validation are one source.

/**
 * SPEC "CreateStorePayment": the merchant is derived from the API key. customer is optional in the schema;
 * the store-payment rules require username, firstName, lastName and email (and country when merchant policy
 * says so): missing ones answer 400 CUSTOMER_PROFILE_REQUIRED.
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

/** SPEC: `201 Payment with checkout` (state QUEUED at first, url null); a replay shows the current checkout state. */
export const StorePayment = Payment.extend({ checkout: CheckoutObject, customer: Customer.nullable() }).describe(
  "A Payment with its store checkout. Poll GET /v1/payments/{id} every 3 to 5 seconds until checkout.state is READY.",
);
export type StorePayment = z.infer<typeof StorePayment>;
