import { PrismaPg } from "@prisma/adapter-pg";
import type { z } from "zod";
import { PrismaClient, Prisma } from "@/lib/generated/prisma/client";

/** A Prisma client or the client of an interactive transaction. */
export type Db = PrismaClient | Prisma.TransactionClient;
export type Tx = Prisma.TransactionClient;

const globalForDb = globalThis as unknown as { sandpiperPrisma?: PrismaClient };

/**
 * The one Prisma client, on real PostgreSQL or on the embedded PGlite served over a loopback socket
 * (scripts/db.mjs). Pool size: DB_POOL_MAX (embedded mode sets 1: PGlite is one session).
 */
export function getDb(): PrismaClient {
  if (!globalForDb.sandpiperPrisma) {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL is not set");
    const adapter = new PrismaPg({
      connectionString,
      max: Number(process.env.DB_POOL_MAX ?? 10),
      connectionTimeoutMillis: 5_000,
    });
    globalForDb.sandpiperPrisma = new PrismaClient({ adapter });
  }
  return globalForDb.sandpiperPrisma;
}

/** Options for interactive transactions that may wait on an advisory lock or a busy pool. */
export const TX_OPTIONS = { maxWait: 15_000, timeout: 20_000 } as const;

type CommitHook = () => unknown;
const commitHooks = new WeakMap<Tx, CommitHook[]>();

/**
 * Runs `fn` in one READ COMMITTED transaction on `opts.db` (default the one client). Hooks registered
 * with {@link afterCommit} run after the commit, never inside the transaction; a rollback drops them.
 * @throws whatever `fn` throws; the transaction is rolled back.
 */
export async function transaction<T>(
  fn: (tx: Tx) => Promise<T>,
  opts: { db?: PrismaClient; maxWait?: number; timeout?: number } = {},
): Promise<T> {
  const { db = getDb(), ...options } = opts;
  const hooks: CommitHook[] = [];
  const result = await db.$transaction(
    async (tx) => {
      commitHooks.set(tx, hooks);
      return fn(tx);
    },
    { ...TX_OPTIONS, ...options },
  );
  for (const hook of hooks) {
    // Fire and forget: a hook is a notification (e.g. "delivery due"); background jobs catch up on failure.
    Promise.resolve()
      .then(hook)
      .catch(() => undefined);
  }
  return result;
}

/**
 * Registers `hook` to run once the transaction `tx` has committed (docs/architecture.md "Consistency": nothing is sent
 * inside a transaction). Outside a transaction opened by {@link transaction} (a plain client, or a foreign
 * `$transaction`) the hook is not run: callers use it only for notifications that polling also covers.
 */
export function afterCommit(tx: Db, hook: CommitHook): void {
  commitHooks.get(tx as Tx)?.push(hook);
}

/** Runs `fn` in a new transaction on a client, or directly in `db` when it already is a transaction. */
export function withTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return "$transaction" in db ? transaction(fn, { db: db as PrismaClient }) : fn(db);
}

/** A column name as Prisma names the model's field: snake_case -> camelCase (`amount_minor` -> `amountMinor`). */
export function fieldName(column: string): string {
  return column.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * A row read with raw SQL, checked at the boundary: columns are renamed as Prisma names the model's fields
 * ({@link fieldName}), then `schema` checks every field's type (bigint -> BigInt, timestamptz -> Date, jsonb ->
 * object, as the driver gives them) and drops columns it does not name. Hot paths use raw SQL because Prisma 6
 * compiles every ORM query anew (docs/benchmarks.md); this keeps them as safe as the ORM's typed results.
 * @throws ZodError when the row lacks a field or a field has another type (a schema drift: 500 INTERNAL_ERROR).
 */
export function parseRow<S extends z.ZodType>(schema: S, row: Record<string, unknown>): z.output<S> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) out[fieldName(column)] = value;
  return schema.parse(out);
}

export { Prisma };
