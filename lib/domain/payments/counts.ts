import { Prisma } from "@/lib/platform/generated/prisma/client";
import { z } from "zod";
import { getDb, getPool, parseRow, type Db } from "@/lib/platform/db";
import type { ListPaymentsQuery } from "@/lib/contract/schemas/api/payments";

// Exact payment counts for GET /v1/payments `total` (`total` is an exact integer) without a COUNT(*) over the
// merchant's whole history. A statement trigger on payments (prisma/migrations/20261124055000_database_guards/migration.sql) appends count changes to
// payment_count_deltas in the writing transaction; compactPaymentCounts() folds them into payment_counts.
// A count is one statement summing both tables, so it sees one snapshot: exact whether or not a compaction
// committed in between. Keys: merchant, Dubai day of createdAt, status, method, direction, currency; each
// count also has an all-time row (day '*'), so a filter without from/to sums a few rows per merchant.

const ALL_TIME = "*";

export type CountFilter = Omit<ListPaymentsQuery, "page" | "limit">;

/** True when the counters can answer the filter (every filter except the reference `search`). */
export function countableFilter(q: CountFilter): boolean {
  return !q.search;
}

/**
 * The SQL conditions of a filter's equality members (merchant, status, method, direction, currency), on
 * columns of those names: payments, payment_counts and payment_count_deltas all have them. `merchantId`: an id, or
 * an SQL expression (`m.id` in a request's authentication statement).
 */
export function equalityConditions(merchantId: string | Prisma.Sql | undefined, q: CountFilter): Prisma.Sql[] {
  return [
    merchantId === undefined ? null : Prisma.sql`merchant_id = ${merchantIdSql(merchantId)}`,
    q.status ? Prisma.sql`status = ${q.status}::"PaymentStatus"` : null,
    q.method ? Prisma.sql`method = ${q.method}::"PaymentMethod"` : null,
    q.direction ? Prisma.sql`direction = ${q.direction}::"PaymentDirection"` : null,
    q.currency ? Prisma.sql`currency = ${q.currency}` : null,
  ].filter((c): c is Prisma.Sql => c !== null);
}

/** A merchant id as SQL: an id as a uuid parameter, an expression as is. */
export function merchantIdSql(merchantId: string | Prisma.Sql): Prisma.Sql {
  return typeof merchantId === "string" ? Prisma.sql`${merchantId}::uuid` : merchantId;
}

/**
 * Which day a payment counts on: "created", the Dubai day of created_at (the merchant's clock: its sandbox time under
 * a moved sandbox clock; the API's `from`/`to`), or "recorded", the Dubai day of recorded_at, the real time its row
 * was written (the console's charts, today figures and list; docs/operating.md "Times in the console"). The two differ
 * only for payments written under a moved clock.
 */
export type PaymentDays = "created" | "recorded";

/**
 * SQL condition on payments: written under a moved sandbox clock (clock_offset_ms set; the partial index
 * payments_clock_moved_idx holds these) on another Dubai day than the real one it was recorded. Null, not false, for
 * rows without recorded_at: test it with `IS NOT TRUE` for the other rows.
 */
export const DAY_MOVED = Prisma.sql`(clock_offset_ms IS NOT NULL AND dubai_day(created_at) <> dubai_day(recorded_at))`;

/**
 * Count changes (rows `day, status, currency, delta, amount_minor, charged_aed_minor`) that move each payment of
 * {@link DAY_MOVED} matching `conditions` from the day of its created_at to the day it was recorded, within Dubai
 * days `from`..`to` (inclusive; open when undefined). Added to the counters (kept by created day), they give the
 * counts by recorded day. Reads only the payments of the partial index, never a merchant's history.
 */
export function recordedDayMoves(conditions: Prisma.Sql[], from: string | undefined, to: string | undefined): Prisma.Sql {
  const moved = Prisma.join([DAY_MOVED, ...conditions], " AND ");
  const inRange = (day: Prisma.Sql) =>
    Prisma.join([from ? Prisma.sql`${day} >= ${from}` : Prisma.sql`TRUE`, to ? Prisma.sql`${day} <= ${to}` : Prisma.sql`TRUE`], " AND ");
  const aed = Prisma.sql`charged_aed_minor(currency, amount_minor, pricing)`;
  return Prisma.sql`SELECT dubai_day(created_at) AS day, status, currency, -1 AS delta, -amount_minor AS amount_minor, -${aed} AS charged_aed_minor
      FROM payments WHERE ${moved} AND ${inRange(Prisma.sql`dubai_day(created_at)`)}
    UNION ALL
    SELECT dubai_day(recorded_at), status, currency, 1, amount_minor, ${aed}
      FROM payments WHERE ${moved} AND ${inRange(Prisma.sql`dubai_day(recorded_at)`)}`;
}

/**
 * An SQL expression (bigint): the number of payments matching the filter: the merchant's (or every merchant's when
 * undefined), by status, method, direction, currency and Dubai days `from`..`to` (inclusive) of `days`
 * ({@link PaymentDays}; "created" by default).
 * @throws Error when the filter has `search` (count those rows with COUNT(*); see countableFilter).
 */
export function countExpression(merchantId: string | Prisma.Sql | undefined, q: CountFilter, days: PaymentDays = "created"): Prisma.Sql {
  if (!countableFilter(q)) throw new Error("countPayments cannot count a reference search");
  const conditions = [...equalityConditions(merchantId, q), q.from ? Prisma.sql`day >= ${q.from}` : null, q.to ? Prisma.sql`day <= ${q.to}` : null].filter(
    (c): c is Prisma.Sql => c !== null,
  );
  const where = (extra: Prisma.Sql) => Prisma.sql`WHERE ${Prisma.join([...conditions, extra], " AND ")}`;
  const dayRows = q.from || q.to ? Prisma.sql`day <> ${ALL_TIME}` : Prisma.sql`day = ${ALL_TIME}`;
  const moves =
    days === "recorded" && (q.from || q.to)
      ? Prisma.sql`+ COALESCE((SELECT sum(delta) FROM (${recordedDayMoves(equalityConditions(merchantId, q), q.from, q.to)}) AS moves), 0)`
      : Prisma.empty;
  return Prisma.sql`(COALESCE((SELECT sum(n) FROM payment_counts ${where(dayRows)}), 0)
          + COALESCE((SELECT sum(delta) FROM payment_count_deltas ${where(Prisma.sql`TRUE`)}), 0) ${moves})::bigint`;
}

/** A payment count as {@link countPayments} and lib/domain/payments/read.ts listPayments read it: `total`, int8 as BigInt. */
export const CountRow = z.object({ total: z.bigint() });
/** How many delta rows {@link compactPaymentCounts} folded (int8). */
const FoldedRow = z.object({ folded: z.bigint() });

/**
 * Number of payments matching the filter ({@link countExpression}; days of `days`, "created" by default), in one statement.
 * @throws Error when the filter has `search` (count those rows with COUNT(*); see countableFilter).
 */
export async function countPayments(db: Db, merchantId: string | undefined, q: CountFilter, days: PaymentDays = "created"): Promise<number> {
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`SELECT ${countExpression(merchantId, q, days)} AS total`;
  return Number(parseRow(CountRow, row).total);
}

/**
 * Folds up to `batch` pending count changes (counts and amount sums) into payment_counts (their day's row and the all-time row) in
 * one transaction (job
 * "compact-payment-counts"). Rows are claimed with SKIP LOCKED, so several instances may run it at once. The claimed
 * ids are collected once into an array (an InitPlan) and deleted by index: written as `id IN (SELECT ... FOR UPDATE)`,
 * a planner that believes the table empty (its statistics after a vacuum of a folded table that kept its pages) joined
 * them in a nested loop that ran the locking subquery again for every row, and 36,000 changes had not been folded after three minutes.
 * Returns the number of delta rows folded.
 */
export async function compactPaymentCounts(db: Db = getDb(), batch = 50_000): Promise<number> {
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`
    WITH claimed AS (
      DELETE FROM payment_count_deltas
      WHERE id = ANY (ARRAY(SELECT id FROM payment_count_deltas ORDER BY id LIMIT ${batch} FOR UPDATE SKIP LOCKED))
      RETURNING merchant_id, day, status, method, direction, currency, delta, amount_minor, charged_aed_minor
    ), folded AS (
      INSERT INTO payment_counts AS c (merchant_id, day, status, method, direction, currency, n, amount_minor, charged_aed_minor)
      SELECT merchant_id, d.day, status, method, direction, currency, sum(delta), sum(amount_minor), sum(charged_aed_minor)
      FROM claimed, LATERAL (VALUES (claimed.day), (${ALL_TIME})) AS d(day)
      GROUP BY merchant_id, d.day, status, method, direction, currency
      ON CONFLICT (merchant_id, day, status, method, direction, currency) DO UPDATE
        SET n = c.n + EXCLUDED.n, amount_minor = c.amount_minor + EXCLUDED.amount_minor, charged_aed_minor = c.charged_aed_minor + EXCLUDED.charged_aed_minor
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM claimed)::bigint AS folded, (SELECT count(*) FROM folded) AS groups`;
  return Number(parseRow(FoldedRow, row).folded);
}

/** Rows folded (by this process, since its last vacuum of it) from which {@link compactAndVacuum} vacuums payment_count_deltas. */
export const VACUUM_AFTER_FOLDED = 1_000;
let foldedSinceVacuum = 0;

/**
 * The "compact-payment-counts" job: {@link compactPaymentCounts}, then, once this process has folded at least
 * {@link VACUUM_AFTER_FOLDED} rows since its last vacuum, `VACUUM (SKIP_LOCKED, INDEX_CLEANUP ON) payment_count_deltas`
 * (docs/architecture.md "Hot paths"). The deleted rows stay in the table and its index until a
 * vacuum; autovacuum visits a database about once a minute, and meanwhile every list total scanned them (after a
 * burst of creates, 6 of a list's 7 ms over 1,000,000 payments, docs/benchmarks.md). SKIP_LOCKED: when another
 * instance or autovacuum is vacuuming it, this one does not wait. A role that does not own the table gets a warning
 * from PostgreSQL instead, and the table is left to autovacuum.
 * @returns `{ folded, vacuumed }`: rows folded by this run, and whether it vacuumed
 */
export async function compactAndVacuum(): Promise<{ folded: number; vacuumed: boolean }> {
  const folded = await compactPaymentCounts();
  foldedSinceVacuum += folded;
  if (foldedSinceVacuum < VACUUM_AFTER_FOLDED) return { folded, vacuumed: false };
  foldedSinceVacuum = 0;
  // On the pool, outside any transaction, as VACUUM must run.
  await getPool().query("VACUUM (SKIP_LOCKED, INDEX_CLEANUP ON) payment_count_deltas");
  return { folded, vacuumed: true };
}
