import { parseRow, type Db } from "@/lib/db";
import { PaymentRowSchema } from "@/lib/payments/payment-row";
import { countableFilter, countPayments, equalityConditions } from "@/lib/payments/counts";
import { apiError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { dubaiDayEnd, dubaiDayStart } from "@/lib/money/dubai";
import type { PaymentRow } from "@/lib/payments/serialize";
import type { ListPaymentsQuery } from "@/lib/schemas/payments";
import { isUuid } from "@/lib/schemas/common";
import { pageOf } from "@/lib/pagination";

/**
 * `GET /v1/payments/{id}` (docs/api.md): one of the merchant's payments with its store checkout. A store payment and
 * its checkout change together (one transaction), so they are read in one REPEATABLE READ snapshot: a reader
 * never sees an EXPIRED checkout beside a PENDING payment.
 * @throws ApiError 404 NOT_FOUND for a malformed, unknown or another merchant's id.
 */
export async function getPayment(db: Db, merchantId: string, id: string): Promise<PaymentRow> {
  const first = isUuid(id) ? await readPayment(db, merchantId, id) : null;
  if (!first) throw apiError("NOT_FOUND", "payment not found");
  // Only store payments have a checkout: standard reads skip the snapshot and the second query.
  if (first.kind !== "STORE") return { ...first, storeCheckout: null };
  const readBoth = (c: Db) => Promise.all([readPayment(c, merchantId, id), c.storeCheckout.findUnique({ where: { paymentId: id } })]);
  const [payment, storeCheckout] =
    "$transaction" in db ? await db.$transaction((tx) => readBoth(tx), { isolationLevel: "RepeatableRead" }) : await readBoth(db);
  return { ...payment!, storeCheckout };
}

/** One payment row of a merchant, or null. Raw SQL: the read by id is a hot path (rows checked by lib/db.ts parseRow). */
async function readPayment(db: Db, merchantId: string, id: string): Promise<PaymentRow | null> {
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`SELECT * FROM payments WHERE id = ${id}::uuid AND merchant_id = ${merchantId}::uuid`;
  return row ? parseRow(PaymentRowSchema, row) : null;
}

/** `text` as a LIKE pattern that matches it literally (backslash escapes %, _ and itself). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The SQL conditions of a payment list filter: the equality members, `from`/`to` as Dubai calendar days
 * (the end day inclusive) on created_at, and `search` as a case-insensitive substring of the reference.
 */
function listConditions(merchantId: string | undefined, q: Omit<ListPaymentsQuery, "page" | "limit">): Prisma.Sql[] {
  return [
    ...equalityConditions(merchantId, q),
    q.from ? Prisma.sql`created_at >= ${dubaiDayStart(q.from)}` : null,
    q.to ? Prisma.sql`created_at < ${dubaiDayEnd(q.to)}` : null,
    q.search ? Prisma.sql`reference ILIKE ${`%${likeLiteral(q.search)}%`}` : null,
  ].filter((c): c is Prisma.Sql => c !== null);
}

/**
 * `GET /v1/payments` (docs/api.md): a page of payments, newest first (shared by the API and the console; every
 * merchant's when `merchantId` is undefined). `from`/`to` are Dubai calendar days, the end day inclusive.
 * Returns `{ items, total, page, limit, pages }` (lib/pagination.ts). `total` is exact: from the payment counters
 * (lib/payments/counts.ts), or COUNT(*) for a reference search. Raw SQL: a hot path (rows checked by lib/db.ts parseRow).
 */
export async function listPayments(db: Db, merchantId: string | undefined, q: ListPaymentsQuery) {
  const conditions = listConditions(merchantId, q);
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
  const [total, rows] = await Promise.all([
    countableFilter(q)
      ? countPayments(db, merchantId, q)
      : db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM payments ${where}`.then(([r]) => Number(r.n)),
    db.$queryRaw<Record<string, unknown>[]>`
      SELECT * FROM payments ${where} ORDER BY created_at DESC, id DESC LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}`,
  ]);
  return pageOf(rows.map((r) => parseRow(PaymentRowSchema, r)), total, q);
}
