import { z } from "zod";
import { CheckoutSession } from "@/lib/contract/schemas/api/checkout-session-resource";
import { CustomerAmount } from "@/lib/contract/schemas/api/checkout-sessions";
import { Amount, CurrencyCode, CurrencyText, Timestamp } from "@/lib/contract/schemas/api/common";

// Requests and responses of the test helpers (docs/api.md "Test helpers"): the published schemas and the types of
// their serialisers. The store confirmation's body is CompletePayment ({outcome}), the customer's steps take the
// page's own CustomerAmount.

/** Body of `POST /v1/sandbox/checkout-sessions/{id}/quote` and `/confirm`: what the customer enters on the page. */
export const SessionAmount = CustomerAmount.extend({
  amount: Amount.describe('The amount the customer enters: decimal text in currency, e.g. "250.00".'),
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

/** Body of `POST /v1/sandbox/clock/advance` (docs/api.md "Sandbox clock"). */
export const AdvanceSandboxClock = z
  .strictObject({
    by: z
      .string()
      .max(40)
      .describe(
        "How far to move the clock ahead: whole numbers with a unit s, m, h, d or w (`90s`, `15m`, `2h`, `1d12h`), or an ISO 8601 duration without years and months (`PT2H`, `P1DT12H`).",
      ),
  })
  .describe("How far to move the merchant's sandbox clock ahead.");

/** `GET /v1/sandbox/clock` answer. */
export const SandboxClock = z
  .strictObject({
    offsetMs: z.int().describe("How far the merchant's sandbox time runs ahead of the real clock, in milliseconds; 0 = the real clock."),
    offset: z.string().describe("The same for people: `1d 2h`, `0s` for none."),
    now: Timestamp.describe("The merchant's sandbox time now: the time its payments, checkout sessions, velocity windows and limits see."),
    realNow: Timestamp.describe("The real time now."),
    due: z
      .strictObject({
        payments: z.int().describe("Your PENDING and PENDING_APPROVAL payments past their expiresAt at your sandbox time, not yet expired."),
        checkoutSessions: z.int().describe("Your checkout sessions past their expiresAt at your sandbox time, not yet expired."),
        deliveries: z.int().describe("Your callback deliveries due now and not yet attempted."),
      })
      .describe(
        "What is due at your sandbox time and still being done by the background jobs, in short batches (after a large advance: thousands a minute). Read this clock again until all three are 0.",
      ),
    missingRates: z
      .array(
        z.strictObject({
          pair: z.string().describe("The direct pair, `USD->AED`."),
          base: z.string().describe("Its base currency."),
          quote: z.string().describe("Its quote currency."),
          days: z.array(z.string()).describe("The Dubai days (YYYY-MM-DD) without a rate for it, from your sandbox day through the 6 days after it."),
          usedBy: z.int().describe("How many of your enabled pricing profiles need it."),
        }),
      )
      .describe(
        "Pairs your enabled pricing profiles need with no rate on one of the 7 Dubai days from your sandbox day: a cross-currency payment on such a day answers 409 FX_RATE_MISSING until an operator enters the rate. Empty when every day has its rates.",
      ),
  })
  .describe("The merchant's sandbox clock.");

/** `POST /v1/sandbox/clock/advance` and `/reset` answer. */
export const SandboxClockMove = SandboxClock.extend({
  advancedByMs: z.int().describe("How far this call moved the clock ahead, in milliseconds (0 for a reset)."),
  expired: z
    .strictObject({
      payments: z.int().describe("Payments that the move expired itself (PENDING or PENDING_APPROVAL past expiresAt at the new time): at most 100."),
      checkoutSessions: z.int().describe("Checkout sessions that the move expired itself: at most 1,000."),
    })
    .describe(
      "What expired at the new time in the same transaction as the move; the rest of what became due is in `due`, expired by the background jobs within seconds.",
    ),
  deliveriesDue: z.int().describe("Callback deliveries waiting for a retry that are due now (sent within about a second)."),
}).describe("The merchant's sandbox clock after the move, and what the move did.");

/** Body of `POST /v1/sandbox/callback-secret/rotate` and `/v1/sandbox/listener-secret/rotate` (docs/callbacks.md "Rotating the secret"). */
export const RotateSecret = z
  .strictObject({
    overlap: z
      .string()
      .max(40)
      .optional()
      .describe(
        "How long the secret being replaced keeps signing beside the new one: a duration such as `24h` (the default when absent), `90m`, `7d` (the most) or `0s` (it stops at once). Written as for POST /v1/sandbox/clock/advance.",
      ),
  })
  .describe("How to rotate a secret.");

/** `GET /v1/sandbox/callback-secret` and `POST .../end-overlap` answer: where the secret stands, never the secret. */
export const CallbackSecretState = z
  .strictObject({
    configured: z.boolean().describe("A callback address, and so a secret, is set (console, Callbacks)."),
    overlapEndsAt: Timestamp.nullable().describe(
      "While a rotation's overlap runs: when the previous secret stops signing (real time, UTC). Until then X-Service-Signature is still made with the previous secret and webhook-signature carries a signature by each. Null outside an overlap.",
    ),
  })
  .describe("The merchant's callback secret: set or not, and a rotation's overlap.");

/** `POST /v1/sandbox/callback-secret/rotate` answer: the new secret, shown this once. */
export const CallbackSecretRotation = z
  .strictObject({
    secret: z
      .string()
      .describe(
        "The new callback secret (`whsec_` + 44 letters and digits): shown this once, never again (a replay of the same Idempotency-Key answers it again). It is also the secret to give a Standard Webhooks library.",
      ),
    overlapEndsAt: Timestamp.nullable().describe("When the previous secret stops signing (real time, UTC); null when `overlap` was 0."),
  })
  .describe("The rotated callback secret.");

/** `GET /v1/sandbox/listener-secret` and `POST .../end-overlap` answer: the key's listener secret generation, never the secret. */
export const ListenerSecretState = z
  .strictObject({
    generation: z.int().min(0).describe("The generation `sandpiper listen` derives this key's listener secret from (0 until the first rotation)."),
    previousGeneration: z.int().min(0).nullable().describe("While a rotation's overlap runs: the generation that keeps signing beside it; else null."),
    overlapEndsAt: Timestamp.nullable().describe("While a rotation's overlap runs: when the previous secret stops signing (real time, UTC); else null."),
  })
  .describe("The calling API key's `sandpiper listen` secret: its generation and a rotation's overlap.");

/** `POST /v1/sandbox/listener-secret/rotate` answer. */
export const ListenerSecretRotation = z
  .strictObject({
    secret: z
      .string()
      .describe("The key's new listener secret (`whsec_` + 44 letters and digits); running listeners switch to it within about a second and print it."),
    generation: z.int().min(1).describe("The new generation."),
    overlapEndsAt: Timestamp.nullable().describe("When the previous listener secret stops signing (real time, UTC); null when `overlap` was 0."),
  })
  .describe("The rotated listener secret.");
