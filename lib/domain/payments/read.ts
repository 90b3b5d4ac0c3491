import { z } from "zod";
import { parseRow, type Db } from "@/lib/platform/db";
import { PaymentRowSchema } from "@/lib/domain/payments/payment-row";
import {
  countableFilter,
  countExpression,
  CountRow,
  countPayments,
  DAY_MOVED,
  equalityConditions,
  merchantIdSql,
  type PaymentDays,
} from "@/lib/domain/payments/counts";
import { apiError } from "@/lib/contract/errors";
import { Prisma } from "@/lib/platform/generated/prisma/client";
import { dubaiDayEnd, dubaiDayStart } from "@/lib/contract/money/dubai";
import type { PaymentRow } from "@/lib/domain/payments/serialize";
import type { ListPaymentsQuery } from "@/lib/contract/schemas/api/payments";
import { isUuid } from "@/lib/contract/schemas/api/common";
import { conclusionColumn, scenarioFromColumn } from "@/lib/domain/scenarios/match";
import { pageOf } from "@/lib/contract/pagination";

/**
 * What `GET /v1/payments/{id}` reads, joined to the request's authentication statement (docs/architecture.md "Hot
 * paths"; `m` is the key's merchant): the payment's columns, or nulls. None for a malformed id.
 */
export function paymentReads(id: string): Prisma.Sql | null {
  return isUuid(id) ? paymentById(Prisma.raw("m.id"), id) : null;
}

/**
 * The reads of `GET /v1/payments/{id}` as the request pipeline takes them (lib/application/http/endpoint.ts `Load`; the operation
 * entry getPayment declares `load: true`): the payment row checked by PaymentRowSchema with its scenario, or null (no
 * such payment, or a malformed id).
 * @throws ZodError from `parse` when a column is missing or of another type (500 INTERNAL_ERROR)
 */
export const paymentLoad = {
  operationId: "getPayment" as const,
  sql: ({ params }: { params: { id: string } }) => paymentReads(params.id),
  parse: (row: Record<string, unknown>): PaymentRow | null => (row.id === undefined || row.id === null ? null : withScenario(row)),
};

/**
 * One payment of a merchant (`merchantId`: an id, or an SQL expression such as `m.id`), with its scenario rule's
 * conclusion as the JSON column `scenarioConclusion` (docs/api.md "Scenario rules"; NULL for most payments).
 */
function paymentById(merchantId: string | Prisma.Sql, id: string): Prisma.Sql {
  return Prisma.sql`SELECT p.*, ${conclusionColumn(Prisma.raw("p"))} AS "scenarioConclusion"
    FROM payments p WHERE p.id = ${id}::uuid AND p.merchant_id = ${merchantIdSql(merchantId)}`;
}

/** A payment row parsed from a read with {@link paymentById}'s columns, with its `scenario`. */
function withScenario(row: Record<string, unknown>): PaymentRow {
  const payment = parseRow(PaymentRowSchema, row);
  return { ...payment, scenario: scenarioFromColumn(row.scenarioConclusion, payment.expiresAt) };
}

/**
 * `GET /v1/payments/{id}` (docs/api.md): one of the merchant's payments with its store checkout, from the columns
 * {@link paymentLoad} read with the key (`loaded`: the row or null) when given. A store payment and its checkout change together
 * (one transaction), so they are read in one REPEATABLE READ snapshot: a reader never sees an EXPIRED checkout
 * beside a PENDING payment.
 * @throws ApiError 404 NOT_FOUND for a malformed, unknown or another merchant's id.
 */
export async function getPayment(db: Db, merchantId: string, id: string, loaded?: PaymentRow | null): Promise<PaymentRow> {
  const first = !isUuid(id) ? null : loaded !== undefined ? loaded : await readPayment(db, merchantId, id);
  if (!first) throw apiError("NOT_FOUND", "payment not found");
  // Only store payments have a checkout: standard reads need no snapshot and no second query.
  if (first.kind !== "STORE") return { ...first, storeCheckout: null };
  const readBoth = (c: Db) => Promise.all([readPayment(c, merchantId, id), c.storeCheckout.findUnique({ where: { paymentId: id } })]);
  const [payment, storeCheckout] =
    "$transaction" in db ? await db.$transaction((tx) => readBoth(tx), { isolationLevel: "RepeatableRead" }) : await readBoth(db);
  if (!payment) throw apiError("NOT_FOUND", "payment not found");
  return { ...payment, storeCheckout };
}

/** One payment row of a merchant, or null (rows checked by lib/platform/db.ts parseRow). */
async function readPayment(db: Db, merchantId: string, id: string): Promise<PaymentRow | null> {
  const [row] = await db.$queryRaw<Record<string, unknown>[]>(paymentById(merchantId, id));
  return row ? withScenario(row) : null;
}

/** `text` as a LIKE pattern that matches it literally (backslash escapes %, _ and itself). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** SQL condition: `column` lies within Dubai days `from`..`to` (the end day inclusive; open when undefined). */
function dayRange(column: Prisma.Sql, from: string | undefined, to: string | undefined): Prisma.Sql {
  return Prisma.join(
    [from ? Prisma.sql`${column} >= ${dubaiDayStart(from)}` : Prisma.sql`TRUE`, to ? Prisma.sql`${column} < ${dubaiDayEnd(to)}` : Prisma.sql`TRUE`],
    " AND ",
  );
}

/**
 * The SQL conditions of a payment list filter: the equality members, `from`/`to` as Dubai calendar days
 * (the end day inclusive) of `days` ({@link PaymentDays}: created_at, or the day recorded, which is created_at's
 * but for payments written under a moved sandbox clock), and `search` as a case-insensitive substring of the reference.
 */
function listConditions(
  merchantId: string | Prisma.Sql | undefined,
  q: Omit<ListPaymentsQuery, "page" | "limit">,
  days: PaymentDays = "created",
): Prisma.Sql[] {
  const created = dayRange(Prisma.sql`created_at`, q.from, q.to);
  const byDay =
    days === "created"
      ? created
      : Prisma.sql`((${DAY_MOVED} IS NOT TRUE AND ${created}) OR (${DAY_MOVED} AND ${dayRange(Prisma.sql`recorded_at`, q.from, q.to)}))`;
  return [
    ...equalityConditions(merchantId, q),
    q.from || q.to ? byDay : null,
    q.search ? Prisma.sql`reference ILIKE ${`%${likeLiteral(q.search)}%`}` : null,
  ].filter((c): c is Prisma.Sql => c !== null);
}

/**
 * The ORDER BY, LIMIT and OFFSET of a page, newest first: by created_at (the API: the merchant's clock, a sandbox
 * clock when moved), or by `recorded` order (the console: the real time the rows were written, rows from before it
 * was kept last; docs/operating.md "Times in the console").
 */
function pageClause(q: ListPaymentsQuery, order: PaymentOrder = "created"): Prisma.Sql {
  const by = order === "recorded" ? Prisma.sql`recorded_at DESC NULLS LAST, created_at DESC, id DESC` : Prisma.sql`created_at DESC, id DESC`;
  return Prisma.sql`ORDER BY ${by} LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}`;
}

/**
 * How a page of payments is ordered and which days `from`/`to` name: "created" (created_at, the API's) or "recorded"
 * (the real time written, the console's; docs/operating.md "Times in the console").
 */
export type PaymentOrder = "created" | "recorded";

/** A `payments` row as JSON ({@link listReads}: minor units as text, times as ISO text). */
const PaymentJsonSchema = PaymentRowSchema.extend({
  amountMinor: z.string().transform(BigInt),
  feeMinor: z.string().transform(BigInt),
  createdAt: z.string().transform((v) => new Date(v)),
  updatedAt: z.string().transform((v) => new Date(v)),
  expiresAt: z
    .string()
    .nullable()
    .transform((v) => (v === null ? null : new Date(v))),
  approvedAt: z
    .string()
    .nullable()
    .transform((v) => (v === null ? null : new Date(v))),
  finalizedAt: z
    .string()
    .nullable()
    .transform((v) => (v === null ? null : new Date(v))),
  recordedAt: z
    .string()
    .nullable()
    .transform((v) => (v === null ? null : new Date(v))),
  clockOffsetMs: z
    .number()
    .int()
    .nullable()
    .transform((v) => (v === null ? null : BigInt(v))),
});

/**
 * What `GET /v1/payments` reads, joined to the request's authentication statement (docs/architecture.md "Hot
 * paths"; `m` is the key's merchant): `listTotal` and `listItems` (the page's rows as JSON). Read them with
 * {@link pageFromReads}.
 */
export function listReads(q: ListPaymentsQuery): Prisma.Sql {
  const m = Prisma.raw("m.id");
  const conditions = listConditions(m, q);
  const where = Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}`;
  const total = countableFilter(q) ? countExpression(m, q) : Prisma.sql`(SELECT count(*) FROM payments ${where})`;
  return Prisma.sql`SELECT ${total} AS "listTotal",
    (SELECT coalesce(jsonb_agg(to_jsonb(p) || jsonb_build_object('amount_minor', p.amount_minor::text, 'fee_minor', p.fee_minor::text)
       ORDER BY p.created_at DESC, p.id DESC), '[]'::jsonb)
     FROM (SELECT * FROM payments ${where} ${pageClause(q)}) p) AS "listItems"`;
}

/** The row {@link listReads} reads. */
const ListLoaded = z.object({ listTotal: z.bigint(), listItems: z.array(z.record(z.string(), z.unknown())) });

/** What {@link listReads} read: the page's payment rows and the exact total. */
export type ListLoaded = { items: PaymentRow[]; total: number };

/**
 * The reads of `GET /v1/payments` as the request pipeline takes them (lib/application/http/endpoint.ts `Load`; the operation entry
 * listPayments declares `load: true`): the row checked by ListLoaded, each item by PaymentRowSchema (as JSON).
 * @throws ZodError from `parse` when a column is missing or of another type (500 INTERNAL_ERROR)
 */
export const listLoad = {
  operationId: "listPayments" as const,
  sql: ({ query }: { query: ListPaymentsQuery }) => listReads(query),
  parse: (row: Record<string, unknown>): ListLoaded => {
    const { listTotal, listItems } = ListLoaded.parse(row);
    return { items: listItems.map((r) => parseRow(PaymentJsonSchema, r)), total: Number(listTotal) };
  },
};

/** The page {@link listLoad} read: `{ items, total, page, limit, pages }` (lib/contract/pagination.ts). */
export function pageFromReads(loaded: ListLoaded, q: ListPaymentsQuery) {
  return pageOf(loaded.items, loaded.total, q);
}

/**
 * `GET /v1/payments` (docs/api.md): a page of payments, newest first (shared by the API and the console; every
 * merchant's when `merchantId` is undefined); `order` {@link PaymentOrder}, "created" by default. `from`/`to` are Dubai calendar days, the end day inclusive.
 * Returns `{ items, total, page, limit, pages }` (lib/contract/pagination.ts). `total` is exact: from the payment counters
 * (lib/domain/payments/counts.ts), or COUNT(*) for a reference search. Raw SQL: a hot path (rows checked by lib/platform/db.ts parseRow).
 * @throws ZodError when a row read does not match its schema (a schema drift)
 */
export async function listPayments(db: Db, merchantId: string | undefined, q: ListPaymentsQuery, order: PaymentOrder = "created") {
  const days: PaymentDays = order;
  const conditions = listConditions(merchantId, q, days);
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
  const [total, rows] = await Promise.all([
    countableFilter(q)
      ? countPayments(db, merchantId, q, days)
      : db.$queryRaw<Record<string, unknown>[]>`SELECT count(*) AS total FROM payments ${where}`.then(([r]) => Number(parseRow(CountRow, r).total)),
    db.$queryRaw<Record<string, unknown>[]>`SELECT * FROM payments ${where} ${pageClause(q, order)}`,
  ]);
  return pageOf(
    rows.map((r) => parseRow(PaymentRowSchema, r)),
    total,
    q,
  );
}
