import type { ErrorCode } from "@/lib/contract/errors";
import type { CustomerEndpoint } from "@/lib/application/http/customer-pipeline";
import { CustomerPageAmount, CustomerSessionAnswer, StoreConfirmationAnswer } from "@/lib/contract/schemas/api/customer-pages";

/**
 * One action of a customer page, declared once (the customer pages' part of the operations registry; the merchant
 * API's is lib/application/openapi/operations.ts): what its route handler runs with (the {@link CustomerEndpoint} part; the route
 * passes the entry to lib/application/http/customer-pipeline.ts `customerAction`, which types the handler from it) and what the
 * OpenAPI document publishes under the tag "Customer pages". No API key: the token in the path is a bearer link, the
 * only credential. Kept apart from the merchant operations because none of their key, scope, idempotency or allow-list
 * rules apply (the access-matrix, hostile-input and contract suites iterate those), and the merchant client leaves
 * them out (clients/typescript/scripts/generate.mjs).
 */
export type CustomerOperation = CustomerEndpoint & {
  method: "POST";
  /** OpenAPI path template with the link's token, e.g. `/checkout/{token}/quote`. */
  path: string;
  /** The app route file that serves it. */
  route: string;
  tag: typeof CUSTOMER_PAGES_TAG;
  summary: string;
  description: string;
  /** What the `{token}` path parameter is. */
  token: string;
  success: CustomerEndpoint["success"] & { description: string };
  /** Codes the action's own logic returns; the pipeline's are added by {@link customerOperationErrors}. */
  errors: readonly ErrorCode[];
  /** A valid request body (published as the example). */
  example?: Record<string, unknown>;
};

/** The document's tag of the customer pages' actions. */
export const CUSTOMER_PAGES_TAG = "Customer pages";

const customerOperation = <const O extends CustomerOperation>(o: O): O => o;

const SESSION_TOKEN =
  "The checkout session's link token (the last segment of customerCheckout.url): a bearer credential, the only one this action takes. Never log or publish it. A malformed or unknown token answers 404 NOT_FOUND.";
const STORE_TOKEN =
  "The store checkout's link token (the last segment of checkout.url): a bearer credential, the only one this action takes. Never log or publish it. A malformed or unknown token answers 404 NOT_FOUND.";
const NO_KEY =
  "No API key: the token in the path is the credential (a bearer link). The page's own HTML form may send the same action as application/x-www-form-urlencoded (before the page's script has loaded, or without it): the same members and limits, answered 303 See Other to the page, after a refusal with ?problem=<error code> (docs/decisions/0209-customer-forms-post-to-their-action-routes.md).";

/** The actions the customer pages send (docs/guides/amount-entry-checkout.md "Customer amount-entry checkout", docs/guides/store-checkout.md "Fixed-amount store checkout"). */
export const CUSTOMER_OPERATIONS = {
  quoteCheckoutPage: customerOperation({
    operationId: "quoteCheckoutPage",
    method: "POST",
    path: "/checkout/{token}/quote",
    route: "app/checkout/[token]/quote/route.ts",
    tag: CUSTOMER_PAGES_TAG,
    summary: "Customer page: choose amount and currency",
    description: `What the checkout page sends when the customer enters an amount: the session moves AWAITING_AMOUNT or QUOTED -> QUOTED, priced at today's Dubai rate. ${NO_KEY} The page, not the merchant's server, calls it; a merchant's test calls POST /v1/sandbox/checkout-sessions/{id}/quote instead.`,
    token: SESSION_TOKEN,
    logMessage: "customer checkout action",
    body: CustomerPageAmount,
    success: { status: 200, schema: CustomerSessionAnswer, description: "The quoted session as the page shows it." },
    errors: [
      "NOT_FOUND",
      "INVALID_STATE",
      "GLOBAL_AMOUNT_LIMIT",
      "AMOUNT_OUT_OF_RANGE",
      "FX_RATE_MISSING",
      "PRICING_DISABLED",
      "PROVIDER_CURRENCY_MISMATCH",
      "NO_ROUTE",
    ],
    example: { amount: "250.00", currency: "USD" },
  }),
  confirmCheckoutPage: customerOperation({
    operationId: "confirmCheckoutPage",
    method: "POST",
    path: "/checkout/{token}/confirm",
    route: "app/checkout/[token]/confirm/route.ts",
    tag: CUSTOMER_PAGES_TAG,
    summary: "Customer page: confirm the quoted total",
    description: `What the checkout page's "Confirm total" sends: the body repeats the quoted amount and currency and the session moves QUOTED -> AWAITING_VERIFICATION; repeating it answers the session unchanged. Another total, or a quote of an earlier Dubai day, is 409 INVALID_STATE. ${NO_KEY}`,
    token: SESSION_TOKEN,
    logMessage: "customer checkout action",
    body: CustomerPageAmount,
    success: { status: 200, schema: CustomerSessionAnswer, description: "The confirmed session as the page shows it." },
    errors: ["NOT_FOUND", "INVALID_STATE"],
    example: { amount: "250.00", currency: "USD" },
  }),
  payStorePage: customerOperation({
    operationId: "payStorePage",
    method: "POST",
    path: "/store/{token}/pay",
    route: "app/store/[token]/pay/route.ts",
    tag: CUSTOMER_PAGES_TAG,
    summary: "Store page: the test confirmation Pay",
    description: `What the store page's Pay button sends: the checkout READY -> SUCCEEDED and its payment SUCCEEDED (ledger entry, payment.succeeded). Repeating it answers the same; any other state, or a payment past expiresAt, is 409 INVALID_STATE. No body. ${NO_KEY}`,
    token: STORE_TOKEN,
    logMessage: "store test confirmation",
    success: { status: 200, schema: StoreConfirmationAnswer, description: "The checkout's state and the payment's status afterwards." },
    errors: ["NOT_FOUND", "INVALID_STATE"],
  }),
  declineStorePage: customerOperation({
    operationId: "declineStorePage",
    method: "POST",
    path: "/store/{token}/decline",
    route: "app/store/[token]/decline/route.ts",
    tag: CUSTOMER_PAGES_TAG,
    summary: "Store page: the test confirmation Decline",
    description: `What the store page's Decline button sends: the checkout READY -> FAILED and its payment FAILED (payment.failed, limits released). Repeating it answers the same; any other state, or a payment past expiresAt, is 409 INVALID_STATE. No body. ${NO_KEY}`,
    token: STORE_TOKEN,
    logMessage: "store test confirmation",
    success: { status: 200, schema: StoreConfirmationAnswer, description: "The checkout's state and the payment's status afterwards." },
    errors: ["NOT_FOUND", "INVALID_STATE"],
  }),
} as const;

export const CUSTOMER_OPERATION_LIST: readonly CustomerOperation[] = Object.values(CUSTOMER_OPERATIONS);

/**
 * Every error code a customer action can answer, in pipeline order (lib/application/http/customer-pipeline.ts `customerAction`):
 * 429 per source IP and per link, then with a body 415, 413 and 400, then the action's own codes.
 */
export function customerOperationErrors(op: CustomerOperation): ErrorCode[] {
  const codes: ErrorCode[] = ["RATE_LIMITED"];
  if (op.body) codes.push("UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "VALIDATION_ERROR");
  codes.push(...op.errors, "INTERNAL_ERROR", "SERVICE_UNAVAILABLE");
  return [...new Set(codes)];
}
