import { z } from "zod";
import { Amount, CurrencyText, Timestamp } from "@/lib/contract/schemas/api/common";

// docs/api.md "Checkout sessions" (customer amount-entry flow), published by GET /v1/openapi.json and checked
// against every response in the integration tests. The request, CreateCheckoutSession, is defined once in
// lib/contract/schemas/api/checkout-sessions.ts (published schema and the endpoint's validator derived from it).

/** docs/api.md "Checkout sessions": a confirmed amount is not payment success. */
export const CheckoutSession = z
  .strictObject({
    id: z.uuid().describe("Session id."),
    reference: z.string().describe("Your reference, unique among your sessions."),
    state: z
      .enum(["AWAITING_AMOUNT", "QUOTED", "AWAITING_VERIFICATION", "EXPIRED"])
      .describe(
        "AWAITING_AMOUNT -> QUOTED (customer chose amount and currency) -> AWAITING_VERIFICATION (customer confirmed the total); EXPIRED at customerCheckout.expiresAt.",
      ),
    customerCheckout: z
      .strictObject({
        url: z.url().describe("bearer link for the customer: never log or publish it"),
        expiresAt: Timestamp.describe("When the link stops working (ISO 8601, UTC)."),
      })
      .describe("The customer's page: give url to the customer."),
    amount: Amount.nullable().describe("The amount the customer chose, decimal text in currency; null before."),
    currency: CurrencyText.nullable().describe("The currency the customer chose (ISO 4217); null before."),
    verification: z
      .strictObject({
        state: z.literal("NOT_CONFIGURED").describe("No verification method is configured."),
        verified: z.literal(false).describe("Always false."),
        storeHandoffAllowed: z.literal(false).describe("Always false: a confirmed amount releases no store handoff."),
      })
      .describe("Customer verification: not configured in this sandbox."),
    paymentId: z.null().describe("Always null: a session creates no payment."),
    storeCheckoutUrl: z.null().describe("Always null."),
    environment: z.literal("sandbox").describe("Always sandbox."),
    livePayment: z.literal(false).describe("Always false."),
  })
  .describe("A customer amount-entry session. Amount confirmation does not create a payment and is not payment success.");
export type CheckoutSession = z.infer<typeof CheckoutSession>;
