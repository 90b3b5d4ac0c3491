import type { Db } from "@/lib/db";
import { apiError } from "@/lib/errors";
import type { Customer } from "@/lib/schemas/common";

/** Kinds of block-list entries and the customer member each one matches. */
export const BLOCK_KINDS = { EMAIL: "email", CUSTOMER_ID: "id", IP: "ip", COUNTRY: "country", PHONE: "phone", USERNAME: "username" } as const;
export type BlockKind = keyof typeof BLOCK_KINDS;

/** Block-list values are compared case-insensitively after trimming. */
export function normalizeBlockValue(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * Risk check (docs/api.md "Overview" 403 RISK_REJECTED): refuses a payment whose customer matches a global or merchant
 * block-list entry. The message does not reveal which entry matched.
 * @throws ApiError 403 RISK_REJECTED
 */
export async function assertNotBlocked(db: Db, merchantId: string, customer: Customer | undefined): Promise<void> {
  if (!customer) return;
  const candidates = (Object.entries(BLOCK_KINDS) as [BlockKind, keyof Customer][])
    .map(([kind, member]) => ({ kind, value: customer[member] }))
    .filter((c): c is { kind: BlockKind; value: string } => typeof c.value === "string" && c.value.length > 0)
    .map((c) => ({ kind: c.kind, value: normalizeBlockValue(c.value) }));
  if (candidates.length === 0) return;
  // Raw SQL: runs on every payment creation. Matches (kind, value) pairs.
  const [hit] = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM block_list
    WHERE (merchant_id IS NULL OR merchant_id = ${merchantId}::uuid)
      AND (kind, value) IN (SELECT * FROM unnest(${candidates.map((c) => c.kind)}::text[], ${candidates.map((c) => c.value)}::text[]))
    LIMIT 1`;
  if (hit) throw apiError("RISK_REJECTED", "the payment was rejected by a risk rule; do not retry with another key");
}
