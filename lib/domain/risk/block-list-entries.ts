import { systemNow } from "@/lib/platform/clock";
import { z } from "zod";
import { writeAudit } from "@/lib/domain/audit";
import { assertOperator, auditActor, type ConsoleActor } from "@/lib/domain/auth/actor";
import { optionalText, reasonField, text } from "@/lib/contract/schemas/forms/fields";
import type { Db, Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { BLOCK_KINDS, normalizeBlockValue, type BlockKind } from "@/lib/domain/risk/block-list";
import { pageOf } from "@/lib/contract/pagination";

const KINDS = Object.keys(BLOCK_KINDS) as [BlockKind, ...BlockKind[]];

export const BlockEntryInput = z.object({
  kind: z.enum(KINDS, { message: "choose what to block" }),
  value: text(254, "value"),
  merchantId: optionalText(36).pipe(z.uuid({ message: "choose a merchant" }).optional()),
  reason: reasonField,
});

/**
 * Adds a block-list entry (operator only): a customer e-mail, id, IP, country, phone or user name, for every
 * merchant or one. Values are stored normalised (trimmed, lower case) as the risk check compares them. Audited.
 * @throws ApiError 403 FORBIDDEN, 404 NOT_FOUND (unknown merchant)
 */
export async function addBlockEntry(tx: Tx, actor: ConsoleActor, input: z.output<typeof BlockEntryInput>, now = systemNow()) {
  assertOperator(actor);
  if (input.merchantId && !(await tx.merchant.findUnique({ where: { id: input.merchantId }, select: { id: true } }))) {
    throw apiError("NOT_FOUND", "merchant not found");
  }
  const row = await tx.blockListEntry.create({
    data: { kind: input.kind, value: normalizeBlockValue(input.value), merchantId: input.merchantId ?? null, reason: input.reason, createdAt: now },
  });
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: "block_list.add",
      entity: "block_list",
      entityId: row.id,
      merchantId: row.merchantId,
      after: { kind: row.kind, value: row.value },
      reason: input.reason,
    },
    now,
  );
  return row;
}

/** Removes a block-list entry (operator only); audited with the removed entry. @throws ApiError 404 NOT_FOUND */
export async function removeBlockEntry(tx: Tx, actor: ConsoleActor, input: { id: string; reason: string }, now = systemNow()) {
  assertOperator(actor);
  const row = await tx.blockListEntry.findUnique({ where: { id: input.id } });
  if (!row) throw apiError("NOT_FOUND", "block-list entry not found");
  await tx.blockListEntry.delete({ where: { id: row.id } });
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: "block_list.remove",
      entity: "block_list",
      entityId: row.id,
      merchantId: row.merchantId,
      before: { kind: row.kind, value: row.value, reason: row.reason },
      reason: input.reason,
    },
    now,
  );
}

/** A page of block-list entries, newest first, with merchant names. */
export async function listBlockEntries(db: Db, q: { page: number; limit: number }) {
  const [total, rows] = await Promise.all([
    db.blockListEntry.count(),
    db.blockListEntry.findMany({ orderBy: [{ createdAt: "desc" }, { id: "asc" }], skip: (q.page - 1) * q.limit, take: q.limit }),
  ]);
  const merchants = await db.merchant.findMany({
    where: { id: { in: rows.map((r) => r.merchantId).filter((x): x is string => !!x) } },
    select: { id: true, name: true },
  });
  const name = new Map(merchants.map((m) => [m.id, m.name]));
  return pageOf(
    rows.map((r) => ({ ...r, merchantName: r.merchantId ? (name.get(r.merchantId) ?? "") : null })),
    total,
    q,
  );
}
