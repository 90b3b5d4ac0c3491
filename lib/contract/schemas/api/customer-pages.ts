import { z } from "zod";
import { CheckoutSession } from "@/lib/contract/schemas/api/checkout-session-resource";
import { CustomerAmount } from "@/lib/contract/schemas/api/checkout-sessions";
import { Amount, CurrencyCode, CurrencyText } from "@/lib/contract/schemas/api/common";
import { CheckoutObject, PaymentStatus } from "@/lib/contract/schemas/api/payment-resource";

// The requests and answers of the customer pages' own actions (docs/guides/amount-entry-checkout.md "Customer amount-entry checkout",
// docs/guides/store-checkout.md "Fixed-amount store checkout"): `POST /checkout/{token}/quote`, `/confirm`, `POST /store/{token}/pay`, `/decline`.
// The route handlers parse and answer with these; the OpenAPI document publishes them under "Customer pages"
// (lib/application/openapi/customer-operations.ts).

/**
 * Body of `POST /checkout/{token}/quote` and `/confirm`: the page's {@link CustomerAmount} (strict: any other member
 * is refused), with every member described for the document.
 */
export const CustomerPageAmount = CustomerAmount.extend({
  amount: Amount.describe('The amount the customer entered: decimal text in currency, up to 10 integer digits and 2 decimals, e.g. "250.00".'),
  currency: CurrencyCode.describe("The currency the customer chose: one the page offers (the merchant's enabled ones priced in AED; AED always)."),
}).describe(
  "What the customer entered on the checkout page. Confirm repeats the quoted pair, so a stale page never confirms a total the customer did not see.",
);

/** What `POST /checkout/{token}/quote` and `/confirm` answer (lib/domain/checkout-sessions/serialize.ts `customerSessionAnswer`). */
export const CustomerSessionAnswer = z
  .strictObject({
    state: CheckoutSession.shape.state.describe(
      "The session's state afterwards: QUOTED after a quote, AWAITING_VERIFICATION after a confirmation (the flow's last state); EXPIRED once the link's time is over.",
    ),
    amount: Amount.nullable().describe("The amount the session holds, decimal text in currency; null before a quote."),
    currency: CurrencyText.nullable().describe("The session's currency (ISO 4217); null before a quote."),
  })
  .describe("The checkout session as the customer's page sees it after the action.");
export type CustomerSessionAnswer = z.input<typeof CustomerSessionAnswer>;

/** What `POST /store/{token}/pay` and `/decline` answer (lib/simulators/store/confirm.ts `confirmStoreCheckout`). */
export const StoreConfirmationAnswer = z
  .strictObject({
    state: CheckoutObject.shape.state.describe("The store checkout's state afterwards: SUCCEEDED after pay, FAILED after decline."),
    status: PaymentStatus.describe("The payment's status afterwards: SUCCEEDED after pay, FAILED after decline."),
  })
  .describe("The store checkout and its payment after the store's test confirmation.");
export type StoreConfirmationAnswer = z.input<typeof StoreConfirmationAnswer>;
