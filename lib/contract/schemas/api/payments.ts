import { z } from "zod";
import { Amount, CurrencyCode, Customer, Description, Reference } from "@/lib/contract/schemas/api/common";
import { FIRST_DAY, isValidDay, LAST_DAY } from "@/lib/contract/money/dubai";
import { FailureCode, failureCodeOnlyWithFailed } from "@/lib/contract/schemas/api/failure-codes";

/** docs/api.md "Payments" (request body of POST /v1/payments). */
export const CreatePayment = z.strictObject({
  reference: Reference.describe("Your order id, 1 to 120 characters, unique among your payments (409 DUPLICATE_REFERENCE)."),
  amount: Amount.describe('Decimal text in currency, up to 10 integer digits and 2 decimals, e.g. "1123.52"; never a JSON number.'),
  currency: CurrencyCode.describe("ISO 4217 code; must be enabled for your merchant."),
  method: z.enum(["BANK_TRANSFER", "GATEWAY"]).describe("GATEWAY supports deposits only."),
  direction: z
    .enum(["DEPOSIT", "WITHDRAWAL"])
    .describe("A WITHDRAWAL starts PENDING_APPROVAL and needs a console approval by someone other than the key's owner."),
  description: Description.optional().describe("Free text for you, at most 500 characters; stored, not returned."),
  customer: Customer.optional().describe("The customer; your merchant settings may require members (400 CUSTOMER_PROFILE_REQUIRED)."),
});
export type CreatePayment = z.infer<typeof CreatePayment>;

/** docs/api.md "Store checkout": body of POST /v1/sandbox/store-payments/{id}/confirm, the store's Pay or Decline. */
export const CompletePayment = z.strictObject({ outcome: z.enum(["SUCCEEDED", "FAILED"]).describe("The sandbox result to record.") });

/**
 * docs/api.md "Payment states": body of POST /v1/sandbox/payments/{id}/complete, `{outcome}` and, with FAILED only, an
 * optional `failureCode` (docs/api.md "Failure codes"); with another outcome it is a 400 VALIDATION_ERROR.
 */
export const CompleteSandboxPayment = CompletePayment.extend({
  failureCode: FailureCode.optional().describe(
    'Only with outcome FAILED: why the payment failed; the payment then shows `failure: {code, message}` (docs: "Failure codes"). Leave it out for a failure without a code.',
  ),
})
  .superRefine((body, ctx) => {
    if (body.failureCode !== undefined && body.outcome !== "FAILED") {
      ctx.addIssue({ code: "custom", path: ["failureCode"], message: failureCodeOnlyWithFailed(body.outcome) });
    }
  })
  .describe("The sandbox result to record, and with FAILED optionally a failure code.");
export type CompleteSandboxPayment = z.infer<typeof CompleteSandboxPayment>;

export const Day = z
  .string()
  .refine(isValidDay, { message: `must be a date YYYY-MM-DD from ${FIRST_DAY} to ${LAST_DAY}` })
  .describe("Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive");
export const positiveInt = (max?: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, { message: "must be a whole number" })
    .transform(Number)
    .pipe(max ? z.number().int().min(1).max(max) : z.number().int().min(1));

/** `GET /v1/payments` query (docs/api.md "Payments"): page >= 1, limit 1..100, filters, Dubai-day from/to (end inclusive). */
export const ListPaymentsQuery = z
  .strictObject({
    page: positiveInt().default(1).describe("page number, >= 1; default 1"),
    limit: positiveInt(100).default(20).describe("page size, 1 to 100; default 20"),
    status: z.enum(["PENDING_APPROVAL", "PENDING", "SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"]).optional().describe("only payments in this status"),
    method: z.enum(["BANK_TRANSFER", "GATEWAY"]).optional().describe("only payments of this method"),
    direction: z.enum(["DEPOSIT", "WITHDRAWAL"]).optional().describe("only deposits or only withdrawals"),
    currency: CurrencyCode.optional().describe("only payments in this currency"),
    search: z.string().min(1).max(120).optional().describe("part of the reference, case-insensitive"),
    from: Day.optional(),
    to: Day.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "from must not be after to", path: ["from"] });
export type ListPaymentsQuery = z.infer<typeof ListPaymentsQuery>;
