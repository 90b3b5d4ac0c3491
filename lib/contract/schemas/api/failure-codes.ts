import { z } from "zod";

// Failure codes (docs/api.md "Failure codes"): why a sandbox payment FAILED, as a test asks for it. The one table:
// the completion's and the scenario rules' enumeration, the payment's `failure` member and the OpenAPI document are
// all built from it (below the domain folders that use it: payments, scenarios, openapi).

/** What one failure code means and what a merchant's code should do about it. */
export type FailureCodeInfo = {
  /** The default human message, shown as `failure.message`. */
  message: string;
  /** What the merchant's integration should do. */
  merchantAction: string;
  /** Whether the same payment details may succeed when tried again later without the customer changing anything. */
  retryable: boolean;
};

/**
 * docs/api.md "Failure codes": every failure code a FAILED payment may carry, fitting bank-transfer and gateway
 * deposits and withdrawals, in the order the docs list them.
 */
export const FAILURE_CODES = {
  insufficient_funds: {
    message: "The customer's account does not hold enough funds for this amount.",
    merchantAction: "Do not retry as is: ask the customer to add funds or to pay with another method, then start a new payment.",
    retryable: false,
  },
  account_closed: {
    message: "The customer's account is closed.",
    merchantAction: "Do not retry: ask the customer for another account or payment method.",
    retryable: false,
  },
  invalid_account: {
    message: "The account details do not name a valid account.",
    merchantAction: "Do not retry: ask the customer to correct the account details, then start a new payment.",
    retryable: false,
  },
  limit_exceeded: {
    message: "The amount is over a limit of the customer's account or bank.",
    merchantAction: "Retry later (after the limit's period resets) or with a smaller amount; tell the customer.",
    retryable: true,
  },
  risk_declined: {
    message: "The payment was declined by a risk check.",
    merchantAction: "Do not retry and do not resubmit the same payment; the customer may use another method or contact their bank.",
    retryable: false,
  },
  issuer_unavailable: {
    message: "The customer's bank could not be reached.",
    merchantAction: "Retry later with a new payment, backing off; nothing is wrong with the customer's details.",
    retryable: true,
  },
  timed_out: {
    message: "The customer's bank did not confirm the payment in time.",
    merchantAction: "Retry later with a new payment; the customer was not charged.",
    retryable: true,
  },
  customer_cancelled: {
    message: "The customer cancelled the payment.",
    merchantAction: "Do not retry automatically: offer the customer to pay again if they want to.",
    retryable: false,
  },
  generic_decline: {
    message: "The customer's bank declined the payment without giving a reason.",
    merchantAction: "Do not retry as is: ask the customer to use another method or to contact their bank.",
    retryable: false,
  },
} as const satisfies Record<string, FailureCodeInfo>;

/** One failure code: `insufficient_funds`, `account_closed`, ... */
export type FailureCode = keyof typeof FAILURE_CODES;

/** The failure codes in the table's order. */
export const FAILURE_CODE_NAMES = Object.keys(FAILURE_CODES) as [FailureCode, ...FailureCode[]];

/** Each code with its message and what to do, one line each: the enumeration's description in the OpenAPI document. */
const codeLines = FAILURE_CODE_NAMES.map((code) => {
  const info: FailureCodeInfo = FAILURE_CODES[code];
  return `\`${code}\`: ${info.message} ${info.merchantAction}${info.retryable ? " (retryable)" : ""}`;
}).join("\n");

/** A failure code as requests name it and answers show it (an unknown one answers 400 listing the codes). */
export const FailureCode = z.enum(FAILURE_CODE_NAMES).describe(`Why the payment failed (docs: Failure codes):\n${codeLines}`);

/** docs/api.md "Failure codes": the `failure` member of a FAILED payment concluded with a failure code. */
export const PaymentFailure = z
  .strictObject({
    code: FailureCode.describe('The failure code; what each means and what your code should do: docs/api.md "Failure codes".'),
    message: z.string().describe("The code's default human message."),
  })
  .describe("Why the payment failed. Present only on a FAILED payment concluded with a failure code; absent otherwise.");
export type PaymentFailure = z.infer<typeof PaymentFailure>;

/** The `failure` member of a payment that failed with `code`: `{code, message}`. */
export function paymentFailure(code: FailureCode): PaymentFailure {
  return { code, message: FAILURE_CODES[code].message };
}

/**
 * The message of a failureCode given with an outcome other than FAILED: what to do about it.
 * @param outcome the outcome the request asked for
 */
export function failureCodeOnlyWithFailed(outcome: string): string {
  return `is only for outcome FAILED; leave failureCode out with outcome ${outcome}, or send outcome FAILED`;
}
