import { z } from "zod";
import { parseRow, type Db } from "@/lib/platform/db";
import { apiError, type ApiError } from "@/lib/contract/errors";
import { Prisma } from "@/lib/platform/generated/prisma/client";
import type { Customer } from "@/lib/contract/schemas/api/common";

/** Kinds of block-list entries and the customer member each one matches. */
export const BLOCK_KINDS = { EMAIL: "email", CUSTOMER_ID: "id", IP: "ip", COUNTRY: "country", PHONE: "phone", USERNAME: "username" } as const;
export type BlockKind = keyof typeof BLOCK_KINDS;

/** Block-list values are compared case-insensitively after trimming. */
export function normalizeBlockValue(value: string): string {
  return value.trim().toLowerCase();
}

/** The customer's members a block-list entry can match, normalized; empty when there is nothing to match. */
function blockCandidates(customer: Customer | undefined): { kind: BlockKind; value: string }[] {
  if (!customer) return [];
  return (Object.entries(BLOCK_KINDS) as [BlockKind, keyof Customer][])
    .map(([kind, member]) => ({ kind, value: customer[member] }))
    .filter((c): c is { kind: BlockKind; value: string } => typeof c.value === "string" && c.value.length > 0)
    .map((c) => ({ kind: c.kind, value: normalizeBlockValue(c.value) }));
}

/**
 * A boolean SQL expression: true when the customer matches a global entry or one of the merchant's
 * (`merchantId`: an expression, e.g. `m.id` in a request's authentication statement). False without a customer.
 */
export function blockListHit(merchantId: Prisma.Sql, customer: Customer | undefined): Prisma.Sql {
  const candidates = blockCandidates(customer);
  if (candidates.length === 0) return Prisma.sql`false`;
  return Prisma.sql`EXISTS (SELECT 1 FROM block_list
    WHERE (merchant_id IS NULL OR merchant_id = ${merchantId})
      AND (kind, value) IN (SELECT * FROM unnest(${candidates.map((c) => c.kind)}::text[], ${candidates.map((c) => c.value)}::text[])))`;
}

/** The refusal of a blocked customer; it does not reveal which entry matched (docs/api.md "Errors" 403 RISK_REJECTED). */
export function blockedError(): ApiError {
  return apiError("RISK_REJECTED", "the payment was rejected by a risk rule; do not retry with another key");
}

/** The row of `SELECT blockListHit AS hit` ({@link assertNotBlocked}). */
const BlockHitRow = z.object({ hit: z.boolean() });

/**
 * Risk check (docs/api.md "Overview" 403 RISK_REJECTED): refuses a payment whose customer matches a global or merchant
 * block-list entry. The message does not reveal which entry matched.
 * @throws ApiError 403 RISK_REJECTED
 * @throws ZodError when the row does not match {@link BlockHitRow} (a schema drift)
 */
export async function assertNotBlocked(db: Db, merchantId: string, customer: Customer | undefined): Promise<void> {
  if (blockCandidates(customer).length === 0) return;
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`SELECT ${blockListHit(Prisma.sql`${merchantId}::uuid`, customer)} AS hit`;
  if (parseRow(BlockHitRow, row).hit) throw blockedError();
}
