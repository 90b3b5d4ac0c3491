import { z } from "zod";
import { Amount, CurrencyCode, Customer, Description, Reference } from "@/lib/schemas/common";
import { FIRST_DAY, isValidDay, LAST_DAY } from "@/lib/money/dubai";

/** SPEC "CreatePayment" (request body of POST /v1/payments). */
export const CreatePayment = z.strictObject({
  reference: Reference,
  amount: Amount,
  currency: CurrencyCode,
  method: z.enum(["BANK_TRANSFER", "GATEWAY"]),
  direction: z.enum(["DEPOSIT", "WITHDRAWAL"]),
  description: Description.optional(),
  customer: Customer.optional(),
});
export type CreatePayment = z.infer<typeof CreatePayment>;

/** SPEC: body of POST /v1/sandbox/payments/{id}/complete. */
export const CompletePayment = z.strictObject({ outcome: z.enum(["SUCCEEDED", "FAILED"]) });

export const Day = z.string().refine(isValidDay, { message: `must be a date YYYY-MM-DD from ${FIRST_DAY} to ${LAST_DAY}` }).describe("Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive");
export const positiveInt = (max?: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, { message: "must be a whole number" })
    .transform(Number)
    .pipe(max ? z.number().int().min(1).max(max) : z.number().int().min(1));

/** SPEC "GET /v1/payments" query: page >= 1, limit 1..100, filters, Dubai-day from/to (end inclusive). */
export const ListPaymentsQuery = z
  .strictObject({
    page: positiveInt().default(1).describe("page number, >= 1; default 1"),
    limit: positiveInt(100).default(20).describe("page size, 1 to 100; default 20"),
    status: z.enum(["PENDING_APPROVAL", "PENDING", "SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"]).optional(),
    method: z.enum(["BANK_TRANSFER", "GATEWAY"]).optional(),
    direction: z.enum(["DEPOSIT", "WITHDRAWAL"]).optional(),
    currency: CurrencyCode.optional(),
    search: z.string().min(1).max(120).optional().describe("part of the reference, case-insensitive"),
    from: Day.optional(),
    to: Day.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "from must not be after to", path: ["from"] });
export type ListPaymentsQuery = z.infer<typeof ListPaymentsQuery>;
