import { z } from "zod";
import type { Payment as PaymentModel, Prisma } from "@/lib/platform/generated/prisma/client";
import { PaymentDirection, PaymentKind, PaymentMethod, PaymentStatus } from "@/lib/platform/generated/prisma/enums";

const json = z.custom<Prisma.JsonValue>((v) => v === null || typeof v === "object", { message: "expected a jsonb value" });

/**
 * A `payments` row as the raw hot-path statements return it (create, read by id, list), checked field by field with
 * `parseRow` (lib/platform/db.ts). The compile-time check below keeps it equal to the Prisma model.
 */
export const PaymentRowSchema = z.object({
  id: z.string(),
  merchantId: z.string(),
  reference: z.string(),
  kind: z.enum(PaymentKind),
  amountMinor: z.bigint(),
  feeMinor: z.bigint(),
  currency: z.string(),
  method: z.enum(PaymentMethod),
  direction: z.enum(PaymentDirection),
  status: z.enum(PaymentStatus),
  pricing: json.nullable(),
  limitProfileId: z.string().nullable(),
  businessDay: z.string(),
  bankAccountId: z.string().nullable(),
  description: z.string().nullable(),
  customer: json.nullable(),
  createdById: z.string().nullable(),
  apiKeyId: z.string().nullable(),
  approvedById: z.string().nullable(),
  createdAt: z.date(),
  expiresAt: z.date().nullable(),
  clockOffsetMs: z.bigint().nullable(),
  recordedAt: z.date().nullable(),
  approvedAt: z.date().nullable(),
  finalizedAt: z.date().nullable(),
  updatedAt: z.date(),
  failureCode: z.string().nullable(),
});

// The schema's output is exactly the Prisma model: a field added to one and not the other fails type-checking.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameAsModel: Same<z.output<typeof PaymentRowSchema>, PaymentModel> = true;
void sameAsModel;
