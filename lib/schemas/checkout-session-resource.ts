import { z } from "zod";
import { Amount, CurrencyText, Timestamp } from "@/lib/schemas/common";

// SPEC "CheckoutSession (response)" (customer amount-entry flow), published by GET /v1/openapi.json and checked
// against every response in the integration tests. The request, CreateCheckoutSession, is defined once in
// lib/schemas/checkout-sessions.ts (published schema and the endpoint's validator derived from it).

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
