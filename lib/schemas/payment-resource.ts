import { z } from "zod";
import { Amount, CurrencyText, Customer, Timestamp } from "@/lib/schemas/common";
import { STORE_LEGAL_NAME, STORE_NAME } from "@/lib/store/checkout-object";

// Response resources of the payments API (SPEC "Resources and their fields"). These zod schemas are the one
// source of the serialisers' types and of the OpenAPI document (lib/openapi/document.ts); every object is
// closed (additionalProperties false), so a response with a member SPEC does not list fails the contract.

const MinorUnits = z.string().regex(/^-?\d+$/, { message: "must be an integer string in minor units" });
const SignedAmount = z.string().regex(/^-?\d{1,16}\.\d{2}$/, { message: "must be a decimal amount with two decimals" });
const Rate = z.string().regex(/^\d+(\.\d+)?$/, { message: "must be a decimal rate" });
const Bps = z.int().min(0);


/** SPEC "PricingSnapshot": immutable pricing terms fixed at creation (minor-unit fields are integer strings). */
export const PricingSnapshot = z
  .strictObject({
    schema: z.literal(1),
    fallback: z.boolean(),
    ruleId: z.uuid().nullable(),
    ruleVersion: z.int().min(0),
    rateDay: z.iso.date().describe("Dubai business day of the rate"),
    timezone: z.literal("Asia/Dubai"),
    originalCurrency: CurrencyText,
    chargeCurrency: CurrencyText,
    settlementCurrency: CurrencyText,
    baseRate: Rate,
    effectiveRate: Rate,
    settlementRate: Rate,
    commissionBps: Bps,
    markupBps: Bps,
    bufferBps: Bps,
    reserveBps: Bps,
    amountMinor: MinorUnits,
    fee: SignedAmount.describe("in the original currency"),
    reserve: SignedAmount.describe("in the original currency"),
    merchantNet: SignedAmount,
    settlementNet: SignedAmount.describe("in the settlement currency"),
    gateway: MinorUnits.describe("charge amount in minor units of chargeCurrency"),
    atBase: MinorUnits,
    markupIncome: MinorUnits,
    bufferIncome: MinorUnits,
    fxIncome: MinorUnits,
    delayDays: z.int().min(0),
    reserveDays: z.int().min(0),
  })
  .describe("Immutable pricing terms fixed at creation. Internal provider costs and company profit are never included.");
export type PricingSnapshot = z.infer<typeof PricingSnapshot>;

/** SPEC "checkout object (store checkout)". */
export const CheckoutObject = z
  .strictObject({
    store: z.literal(STORE_NAME),
    legalName: z.literal(STORE_LEGAL_NAME),
    state: z.enum(["QUEUED", "READY", "REJECTED", "SUCCEEDED", "FAILED", "EXPIRED"]),
    chargeCurrency: z.literal("AED"),
    chargeAmount: Amount.describe("locked charge"),
    url: z.url().nullable().describe("bearer payment link: carries authority to pay; never log or publish it; null until READY"),
    subtotal: Amount.nullable().describe("product list total"),
    discount: Amount.nullable().describe("computed order discount"),
    matchType: z.string().nullable(),
    expiresAt: Timestamp,
    error: z.string().nullable(),
    livePayment: z.literal(false),
  })
  .describe("Store preparation and outcome. The top-level payment status is the authority for the payment result.");
export type CheckoutObject = z.infer<typeof CheckoutObject>;

export const PaymentStatus = z.enum(["PENDING_APPROVAL", "PENDING", "SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"]);

/** SPEC "Payment (response)". `checkout` and `customer` appear only in detail responses (read by id, creation). */
export const Payment = z
  .strictObject({
    id: z.uuid(),
    merchantId: z.uuid(),
    reference: z.string(),
    amount: Amount.describe("original order amount"),
    fee: SignedAmount,
    currency: CurrencyText.describe("original currency"),
    method: z.enum(["BANK_TRANSFER", "GATEWAY"]),
    direction: z.enum(["DEPOSIT", "WITHDRAWAL"]),
    environment: z.literal("sandbox"),
    status: PaymentStatus,
    pricing: PricingSnapshot.nullable().describe("null possible for historical v0.1 payments"),
    bankAccountId: z.uuid().nullable(),
    createdAt: Timestamp,
    expiresAt: Timestamp.nullable().describe("end of the acceptance period; null for records of an older version (never auto-expired)"),
    approvedAt: Timestamp.nullable(),
    finalizedAt: Timestamp.nullable(),
    checkout: CheckoutObject.optional().describe("present only on single-payment read and on store-payment creation"),
    customer: Customer.nullable().optional().describe("authorized detail response only"),
  })
  .describe("A sandbox payment. No real charge or money movement ever occurs.");
export type Payment = z.infer<typeof Payment>;

/** A Payment as lists show it: SPEC "customer data ... is never in lists"; checkout is on single reads only. */
export const PaymentSummary = Payment.omit({ checkout: true, customer: true }).describe("A Payment as lists show it: without checkout and customer.");

/** SPEC `GET /v1/payments` response: `{items, total, page, limit, pages}` (integers except items). */
export const PaymentList = z.strictObject({
  items: z.array(PaymentSummary),
  total: z.int().min(0),
  page: z.int().min(1),
  limit: z.int().min(1).max(100),
  pages: z.int().min(0),
});
export type PaymentList = z.infer<typeof PaymentList>;
