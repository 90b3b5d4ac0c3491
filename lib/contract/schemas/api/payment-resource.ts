import { z } from "zod";
import { Amount, CurrencyText, Customer, Timestamp } from "@/lib/contract/schemas/api/common";
import { PaymentFailure } from "@/lib/contract/schemas/api/failure-codes";
import { PaymentScenario } from "@/lib/contract/schemas/api/scenario-rules";

// Response resources of the payments API (docs/api.md). These zod schemas are the one
// source of the serialisers' types and of the OpenAPI document (lib/application/openapi/document.ts); every object is
// closed (additionalProperties false), so a response with a member docs/api.md does not list fails the contract.

/** The single connected store (docs/api.md "Store checkout": store, legalName constants). */
export const STORE_NAME = "Sandpiper Test Store";
export const STORE_LEGAL_NAME = "Sandpiper Sandbox Store FZ-LLC";

const MinorUnits = z.string().regex(/^-?\d+$/, { message: "must be an integer string in minor units" });
const SignedAmount = z.string().regex(/^-?\d{1,16}\.\d{2}$/, { message: "must be a decimal amount with two decimals" });
const Rate = z.string().regex(/^\d+(\.\d+)?$/, { message: "must be a decimal rate" });
const Bps = z.int().min(0);

/** docs/api.md "Pricing": immutable pricing terms fixed at creation (minor-unit fields are integer strings). */
export const PricingSnapshot = z
  .strictObject({
    schema: z.literal(1).describe("Snapshot format version."),
    fallback: z.boolean().describe("true when the merchant had no pricing profile: its default commission in the payment currency was used."),
    ruleId: z.uuid().nullable().describe("The pricing profile applied; null for fallback pricing."),
    ruleVersion: z.int().min(0).describe("The profile version applied; 0 for fallback pricing."),
    rateDay: z.iso.date().describe("Dubai business day of the rate"),
    timezone: z.literal("Asia/Dubai").describe("Time zone of rateDay."),
    originalCurrency: CurrencyText.describe("The payment's currency (ISO 4217)."),
    chargeCurrency: CurrencyText.describe("Currency the customer is charged in (ISO 4217)."),
    settlementCurrency: CurrencyText.describe("Currency the merchant is settled in (ISO 4217)."),
    baseRate: Rate.describe('Direct rate originalCurrency -> chargeCurrency of rateDay, decimal text; "1" for the same currency.'),
    effectiveRate: Rate.describe("baseRate x (1 + markup) x (1 + buffer), decimal text: chargeCurrency per 1 originalCurrency."),
    settlementRate: Rate.describe("Direct rate originalCurrency -> settlementCurrency of rateDay, decimal text."),
    commissionBps: Bps.describe("Commission in basis points (250 = 2.50 %); 0 with a fixed commission."),
    markupBps: Bps.describe("FX markup in basis points."),
    bufferBps: Bps.describe("Risk buffer in basis points."),
    reserveBps: Bps.describe("Reserve held back, in basis points of the amount."),
    amountMinor: MinorUnits.describe("The amount in minor units of originalCurrency, integer string (112352 = 1123.52)."),
    fee: SignedAmount.describe("Commission, decimal text in originalCurrency."),
    reserve: SignedAmount.describe("Reserve held back, decimal text in originalCurrency."),
    merchantNet: SignedAmount.describe("Deposit: amount - fee - reserve; withdrawal: the merchant's debt, amount + fee. Decimal text in originalCurrency."),
    settlementNet: SignedAmount.describe("merchantNet converted at settlementRate, decimal text in settlementCurrency."),
    gateway: MinorUnits.describe("The charge: amount x effectiveRate, in minor units of chargeCurrency, integer string."),
    atBase: MinorUnits.describe("amount x baseRate, in minor units of chargeCurrency, integer string."),
    markupIncome: MinorUnits.describe("Part of the charge from the markup, in minor units of chargeCurrency."),
    bufferIncome: MinorUnits.describe("Part of the charge from the buffer, in minor units of chargeCurrency."),
    fxIncome: MinorUnits.describe("markupIncome + bufferIncome, in minor units of chargeCurrency."),
    delayDays: z.int().min(0).describe("Settlement delay, in days."),
    reserveDays: z.int().min(0).describe("How long the reserve is held, in days."),
  })
  .describe("Immutable pricing terms fixed at creation. Internal provider costs and company profit are never included.");
export type PricingSnapshot = z.infer<typeof PricingSnapshot>;

/** docs/api.md "Store checkout". */
export const CheckoutObject = z
  .strictObject({
    store: z.literal(STORE_NAME).describe("Name of the single connected store."),
    legalName: z.literal(STORE_LEGAL_NAME).describe("Legal name of that store."),
    state: z
      .enum(["QUEUED", "READY", "REJECTED", "SUCCEEDED", "FAILED", "EXPIRED"])
      .describe(
        "QUEUED: keep polling; READY: send the customer to url; SUCCEEDED: update the order once; FAILED or REJECTED: no success; EXPIRED: discard the link.",
      ),
    chargeCurrency: z.literal("AED").describe("The store charges in AED only."),
    chargeAmount: Amount.describe("The locked charge, decimal text in AED (equals the snapshot's gateway)."),
    url: z.url().nullable().describe("bearer payment link: carries authority to pay; never log or publish it; null until READY"),
    subtotal: Amount.nullable().describe("The basket's list total, decimal text in AED; null until READY."),
    discount: Amount.nullable().describe(
      "The order discount (subtotal - discount = chargeAmount, at most 20 % of subtotal), decimal text in AED; null until READY.",
    ),
    matchType: z.string().nullable().describe("How the basket matched: EXACT_PRODUCT, EXACT_PACKAGE or DISCOUNTED_BASKET; null until READY."),
    expiresAt: Timestamp.describe("End of the checkout (ISO 8601, UTC)."),
    error: z.string().nullable().describe("Why the checkout was rejected or failed; null otherwise."),
    livePayment: z.literal(false).describe("Always false: sandbox."),
  })
  .describe("Store preparation and outcome. The top-level payment status is the authority for the payment result.");
export type CheckoutObject = z.infer<typeof CheckoutObject>;

export const PaymentStatus = z.enum(["PENDING_APPROVAL", "PENDING", "SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"]);

/** docs/api.md "Payments". `checkout` and `customer` appear only in detail responses (read by id, creation). */
export const Payment = z
  .strictObject({
    id: z.uuid().describe("Payment id."),
    merchantId: z.uuid().describe("Your merchant id."),
    reference: z.string().describe("Your reference, unique among your payments."),
    amount: Amount.describe("The original order amount, decimal text in currency."),
    fee: SignedAmount.describe("The commission, decimal text in currency."),
    currency: CurrencyText.describe("The original currency (ISO 4217)."),
    method: z.enum(["BANK_TRANSFER", "GATEWAY"]).describe("Payment method."),
    direction: z.enum(["DEPOSIT", "WITHDRAWAL"]).describe("DEPOSIT (customer pays you) or WITHDRAWAL (you pay the customer)."),
    environment: z.literal("sandbox").describe("Always sandbox: no money moves."),
    status: PaymentStatus.describe("The authority on the result: PENDING_APPROVAL, PENDING, SUCCEEDED, FAILED, CANCELLED (reserved) or EXPIRED."),
    pricing: PricingSnapshot.nullable().describe("null possible for historical v0.1 payments"),
    bankAccountId: z.uuid().nullable().describe("Receiving bank account of a bank-transfer deposit; null otherwise."),
    createdAt: Timestamp.describe("Creation time (ISO 8601, UTC)."),
    expiresAt: Timestamp.nullable().describe("end of the acceptance period; null for records of an older version (never auto-expired)"),
    approvedAt: Timestamp.nullable().describe("When a withdrawal was approved; null otherwise (ISO 8601, UTC)."),
    finalizedAt: Timestamp.nullable().describe("When the payment reached SUCCEEDED, FAILED or EXPIRED; null before (ISO 8601, UTC)."),
    failure: PaymentFailure.optional().describe(
      'present only on a FAILED payment whose completion or scenario rule named a failure code (docs: "Failure codes"); also in lists and callbacks',
    ),
    checkout: CheckoutObject.optional().describe("present only on single-payment read and on store-payment creation"),
    customer: Customer.nullable().optional().describe("authorized detail response only"),
    scenario: PaymentScenario.optional().describe('present only on detail responses of a payment a scenario rule matched (docs/api.md "Scenario rules")'),
    sandboxClock: z
      .strictObject({
        offsetMs: z.int().describe("How far the merchant's sandbox clock ran ahead of the real clock, in milliseconds."),
        offset: z.string().describe("The same for people, e.g. `1d 2h`."),
      })
      .optional()
      .describe(
        "Present only when the payment was created or expired while the merchant's sandbox clock was moved (docs: Sandbox clock): its times (createdAt, expiresAt, finalizedAt) are sandbox times.",
      ),
  })
  .describe("A sandbox payment. No real charge or money movement ever occurs.");
export type Payment = z.infer<typeof Payment>;

/** A Payment as lists show it: customer data is never in lists (docs/api.md "Payments"); checkout is on single reads only. */
export const PaymentSummary = Payment.omit({ checkout: true, customer: true, scenario: true }).describe(
  "A Payment as lists show it: without checkout and customer.",
);

/** `GET /v1/payments` (docs/api.md) response: `{items, total, page, limit, pages}` (integers except items). */
export const PaymentList = z.strictObject({
  items: z.array(PaymentSummary).describe("This page's payments, newest first."),
  total: z.int().min(0).describe("Payments matching the filters, in all pages."),
  page: z.int().min(1).describe("This page's number, from 1."),
  limit: z.int().min(1).max(100).describe("Page size asked for."),
  pages: z.int().min(0).describe("Number of pages: ceil(total / limit)."),
});
export type PaymentList = z.infer<typeof PaymentList>;
