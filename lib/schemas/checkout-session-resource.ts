import { z } from "zod";
import { Amount, CurrencyText, Customer, Reference, Timestamp } from "@/lib/schemas/common";

// SPEC "CreateCheckoutSession" and "CheckoutSession (response)" (customer amount-entry flow). The handlers
// (issue 6) use these schemas, so the published contract and the validation are one source.

/**
 * SPEC "CreateCheckoutSession": reference and customer only; amount, currency, FX rate, markup and commission
 * members are rejected as unknown properties. The customer members id, firstName, lastName, email and phone
 * are required by the flow's rules (missing ones: 400 CUSTOMER_PROFILE_REQUIRED, never auto-filled).
 */
export const CreateCheckoutSession = z
  .strictObject({ reference: Reference, customer: Customer })
  .describe("Merchant-supplied pricing parameters are not accepted. customer.id, firstName, lastName, email and phone (with country code) are required: missing ones answer 400 CUSTOMER_PROFILE_REQUIRED.");
export type CreateCheckoutSession = z.infer<typeof CreateCheckoutSession>;

/** SPEC "CheckoutSession (response)": a confirmed amount is not payment success. */
export const CheckoutSession = z
  .strictObject({
    id: z.uuid(),
    reference: z.string(),
    state: z.enum(["AWAITING_AMOUNT", "QUOTED", "AWAITING_VERIFICATION", "EXPIRED"]),
    customerCheckout: z.strictObject({
      url: z.url().describe("bearer link for the customer: never log or publish it"),
      expiresAt: Timestamp,
    }),
    amount: Amount.nullable().describe("set after the customer chooses"),
    currency: CurrencyText.nullable().describe("set after the customer chooses"),
    verification: z.strictObject({
      state: z.literal("NOT_CONFIGURED"),
      verified: z.literal(false),
      storeHandoffAllowed: z.literal(false),
    }),
    paymentId: z.null(),
    storeCheckoutUrl: z.null(),
    environment: z.literal("sandbox"),
    livePayment: z.literal(false),
  })
  .describe("A customer amount-entry session. Amount confirmation does not create a payment and is not payment success.");
export type CheckoutSession = z.infer<typeof CheckoutSession>;
