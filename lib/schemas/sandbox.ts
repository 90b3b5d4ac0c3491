import { z } from "zod";
import { CheckoutSession } from "@/lib/schemas/checkout-session-resource";
import { CustomerAmount } from "@/lib/schemas/checkout-sessions";
import { Amount, CurrencyCode, CurrencyText, Timestamp } from "@/lib/schemas/common";

// Requests and responses of the test helpers (docs/api.md "Test helpers"): the published schemas and the types of
// their serialisers. The store confirmation's body is CompletePayment ({outcome}), the customer's steps take the
// page's own CustomerAmount.

/** Body of `POST /v1/sandbox/checkout-sessions/{id}/quote` and `/confirm`: what the customer enters on the page. */
export const SessionAmount = CustomerAmount.extend({
  amount: Amount.describe("The amount the customer enters: decimal text in currency, e.g. \"250.00\"."),
  currency: CurrencyCode.describe("A currency the page offers: the merchant's enabled ones priced in AED (AED itself always)."),
}).describe(
  "The amount (decimal text, up to 10 integer digits and 2 decimals) and currency the customer enters on the checkout page; confirm repeats the quoted pair, as the page does.",
);

/** A session and the quote the customer sees on the page. */
export const QuotedCheckoutSession = CheckoutSession.extend({
  quote: z
    .strictObject({
      rateDay: z.string().describe("Dubai (UTC+4) day of the rate, YYYY-MM-DD."),
      effectiveRate: z.string().describe("1 unit of the chosen currency in chargeCurrency: base rate x (1 + markup) x (1 + buffer), decimal text."),
      chargeCurrency: CurrencyText.describe("Always AED: the store charges in AED."),
      chargeAmount: z.string().describe("The charge the customer is shown: decimal text in AED."),
      bankAccount: z
        .strictObject({
          holder: z.string().describe("Account holder."),
          bankName: z.string().describe("Bank name."),
          iban: z.string().describe("IBAN, without spaces."),
        })
        .describe("The service bank account shown as the receiver of the transfer."),
    })
    .nullable()
    .describe("What the customer sees for the chosen amount; null before a quote."),
}).describe("A checkout session as GET /v1/checkout-sessions/{id} shows it, plus the quote the customer sees on the page.");

/** `POST /v1/sandbox/deliveries/{id}/attempt` answer. */
export const SandboxDelivery = z
  .strictObject({
    id: z.uuid().describe("Delivery id (GET /v1/events/{id} lists an event's deliveries)."),
    eventId: z.uuid().describe("The event this delivery sends."),
    state: z.enum(["PENDING", "SUCCEEDED", "FAILED", "NOT_CONFIGURED"]).describe("PENDING: the attempt is due now and the delivery worker was told."),
    attemptCount: z.int().min(0).max(8).describe("Attempts made in this round, at most 8 (the attempt asked for is not counted until it starts)."),
    nextAttemptAt: Timestamp.nullable().describe("When the next attempt is due: now."),
    deliveredAt: Timestamp.nullable().describe("When the receiver answered 2xx; null until then."),
    lastError: z.string().nullable().describe("Why the previous attempt failed; null before one failed."),
    fastRetries: z.boolean().describe("The merchant's fast retries setting (waits divided by 60)."),
  })
  .describe("A callback delivery whose next attempt was made due now. Read GET /v1/events/{eventId} for its attempts.");

/** `PUT /v1/sandbox/settings` body. */
export const UpdateSandboxSettings = z
  .strictObject({
    fastRetries: z.boolean().describe("true: retry failed callbacks on the schedule divided by 60 (0.5 s to 60 s); false: the normal schedule (30 s to 1 h)."),
  })
  .describe("The merchant's sandbox settings to set.");

/** `GET` and `PUT /v1/sandbox/settings` answer. */
export const SandboxSettings = z
  .strictObject({
    fastRetries: z.boolean().describe("Fast retries: the callback schedule with every wait divided by 60."),
    callbackRetries: z
      .strictObject({
        attempts: z.int().describe("At most this many attempts per delivery (8)."),
        waitsSeconds: z.array(z.number()).describe("Base waits after attempts 1 to 7, in seconds (plus or minus 10 % jitter)."),
      })
      .describe("The callback retry schedule in force for this merchant."),
  })
  .describe("The merchant's sandbox settings.");
