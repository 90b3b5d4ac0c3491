import { z } from "zod";
import { Customer } from "@/lib/contract/schemas/api/common";
import { CheckoutObject, Payment } from "@/lib/contract/schemas/api/payment-resource";

// The 201 response of `POST /v1/store-payments` (fixed-amount store checkout). The request, CreateStorePayment,
// is defined once in lib/contract/schemas/api/store-payments.ts (the endpoint's validator and the published schema).

/** docs/api.md: `201 Payment with checkout` (state QUEUED at first, url null); a replay shows the current checkout state. */
export const StorePayment = Payment.extend({
  checkout: CheckoutObject.describe("The store checkout: QUEUED at first with url null."),
  customer: Customer.nullable().describe("The customer as stored (blank members left out)."),
}).describe("A Payment with its store checkout. Poll GET /v1/payments/{id} every 3 to 5 seconds until checkout.state is READY.");
export type StorePayment = z.infer<typeof StorePayment>;
