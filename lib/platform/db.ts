import { PrismaPg } from "@prisma/adapter-pg";
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import pg from "pg";
import { z } from "zod";
import { PrismaClient, Prisma } from "@/lib/platform/generated/prisma/client";
import { log } from "@/lib/platform/log";
import { config } from "@/lib/platform/config";
import { processState, type PoolSlot } from "@/lib/platform/process-state";

/** A Prisma client or the client of an interactive transaction. */
export type Db = PrismaClient | Prisma.TransactionClient;
export type Tx = Prisma.TransactionClient;

const slots = (processState().db ??= { api: {}, jobs: {} });

/** Marks the asynchronous work that runs as a background job (lib/application/jobs): {@link runAsBackgroundWork}. */
const backgroundWork = new AsyncLocalStorage<true>();

/**
 * Runs `work` as background work (docs/architecture.md "Jobs"): every {@link getDb}, {@link getPool} and
 * {@link transaction} inside it, however deep, uses the jobs' own pool of JOBS_DB_POOL_MAX connections instead of the
 * API's DB_POOL_MAX, so a sweep, a delivery backlog or a catch-up never takes a connection a request needs and waits
 * for its own instead (30 s before it gives up). With the embedded database (one session) both share the one pool.
 * @returns what `work` returns; throws what it throws.
 */
export function runAsBackgroundWork<T>(work: () => Promise<T>): Promise<T> {
  return backgroundWork.run(true, work);
}

/** Which pool serves the caller: the jobs' inside {@link runAsBackgroundWork} (not on the embedded database), else the API's. */
function slotOfCaller(): PoolSlot {
  return backgroundWork.getStore() && !config().SANDPIPER_EMBEDDED ? slots.jobs : slots.api;
}

/**
 * A node-postgres client that runs one query at a time: a query issued while others run is sent when they have
 * ended, in order (docs/architecture.md "Stack"). Prisma's engine loads the relations of one `include` at once,
 * and inside an interactive transaction they all go to the transaction's one connection; node-postgres' own
 * queue of such queries is deprecated (a warning now, an error from pg 9). Submittables (cursors, streams) are
 * passed through unchanged. Callback and promise forms give what pg gives.
 */
export class OneQueryAtATimeClient extends pg.Client {
  private running = 0;
  private last: Promise<unknown> = Promise.resolve();
  /** How many times the pool took this connection back ({@link getPool}): a transaction's connection is its own while this stays the same. */
  leases = 0;

  // One signature over pg's overloads: the arguments are handed to pg as they came.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg.Client.query's overloads take and give `any`; this override hands them through unchanged
  override query(...args: any[]): any {
    // The BEGIN sent while transaction() opens its transaction is that transaction's (see batchQuery).
    const opening = txConnectionOpening.getStore();
    if (opening && opening.client === null && (typeof args[0] === "string" ? args[0] : args[0]?.text) === "BEGIN") {
      opening.client = this;
      opening.lease = this.leases;
    }
    const pgQuery = super.query as (...a: unknown[]) => unknown;
    const callback = typeof args.at(-1) === "function" ? (args.pop() as (error: Error | null, result?: unknown) => void) : undefined;
    if (args[0] && typeof args[0].submit === "function") return pgQuery.apply(this, callback ? [...args, callback] : args);
    const send = () => pgQuery.apply(this, args) as Promise<unknown>;
    const result = this.running === 0 ? send() : this.last.then(send);
    this.running++;
    this.last = result.then(
      () => void this.running--,
      () => void this.running--,
    );
    if (!callback) return result;
    result.then(
      (rows) => callback(null, rows),
      (error: Error) => callback(error),
    );
    return undefined;
  }
}

/**
 * The connection pool of the caller, on real PostgreSQL or on the embedded PGlite served over a loopback socket
 * (scripts/db.mjs): the API's (DB_POOL_MAX connections; embedded mode sets 1: PGlite is one session), or inside
 * {@link runAsBackgroundWork} the jobs' (JOBS_DB_POOL_MAX). Prisma's adapter runs on it, and so do the hot paths'
 * single statements ({@link query}). Its connections run one query at a time ({@link OneQueryAtATimeClient}).
 */
export function getPool(): pg.Pool {
  const slot = slotOfCaller();
  // A pool ended by the client's $disconnect (scripts, tests) is replaced, with a client of its own.
  if (!slot.pool || slot.pool.ending) {
    const connectionString = config().DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL is not set");
    const jobs = slot === slots.jobs;
    const pool = new pg.Pool({
      connectionString,
      max: jobs ? config().JOBS_DB_POOL_MAX : config().DB_POOL_MAX,
      // A request gives up after 5 s without a connection; background work waits its turn longer.
      connectionTimeoutMillis: jobs ? 30_000 : 5_000,
      Client: OneQueryAtATimeClient,
    });
    // An idle connection that drops (a database restart) is discarded by the pool; without a listener it would
    // end the process. The next query opens a new one.
    pool.on("error", (error: Error) => log.warn({ err: error.message }, "database connection lost; reconnecting on the next query"));
    pool.on("release", (_error: Error | undefined, client: pg.PoolClient) => {
      if (client instanceof OneQueryAtATimeClient) client.leases++;
    });
    slot.pool = pool;
    slot.prisma = undefined;
  }
  return slot.pool;
}

/**
 * The pools' connections now (docs/operating.md "Metrics"), for the API's pool (`api`) and the jobs' (`jobs`, see
 * {@link runAsBackgroundWork}): `inUse` and `idle` connections, and `waiting` queries waiting for one; null for a
 * pool this process has not opened.
 */
export function poolStats(kind: "api" | "jobs" = "api"): { inUse: number; idle: number; waiting: number } | null {
  const pool = slots[kind].pool;
  if (!pool) return null;
  return { inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/** The Prisma client of the caller, on {@link getPool}'s pool (the API's, or the jobs' inside {@link runAsBackgroundWork}). */
export function getDb(): PrismaClient {
  const pool = getPool();
  const slot = slotOfCaller();
  slot.prisma ??= new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  return slot.prisma;
}

/** node-postgres' parsers for our statements: int8 (counts, minor units) as BigInt, never a JS number. */
const TYPES = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === pg.types.builtins.INT8) return (text: string) => BigInt(text);
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * Runs one statement built with `Prisma.sql` (the same fragments the Prisma paths use) straight on the pool, without
 * the ORM: the hot paths (docs/architecture.md "Hot paths") make one or two such round trips per request. Rows come
 * back with their column names; int8 as BigInt, timestamptz as Date, jsonb parsed; check them with {@link parseRow}.
 * The statement is prepared once per connection and then only bound and executed ({@link preparedName}). A statement
 * the database refuses (a SQLSTATE such as a unique violation or a `refuse_statement` code) leaves its connection in
 * the pool with its prepared statements; a lost connection is discarded. When a schema change altered the columns a
 * prepared statement returns, it is prepared again under new names and run once more.
 * @throws the driver's error (a pg DatabaseError with `code`, `constraint`) as it comes
 */
export async function query(statement: Prisma.Sql, client: pg.Pool | pg.ClientBase = getPool()): Promise<Record<string, unknown>[]> {
  const run = async () => {
    const config = { name: preparedName(statement.text), text: statement.text, values: statement.values as unknown[], types: TYPES };
    if (!(client instanceof pg.Pool)) return (await client.query(config)).rows;
    const connection = await client.connect();
    try {
      const result = await connection.query(config);
      connection.release();
      return result.rows;
    } catch (error) {
      connection.release(keepsConnection(error) ? undefined : (error as Error));
      throw error;
    }
  };
  try {
    return (await run()) as Record<string, unknown>[];
  } catch (error) {
    if (!isStalePlan(error)) throw error;
    renamePreparedStatements();
    return (await run()) as Record<string, unknown>[];
  }
}

/** Whether a connection stays usable after `error`: the database answered with a SQLSTATE outside connection failures (08) and shutdowns (57P). */
function keepsConnection(error: unknown): boolean {
  return error instanceof pg.DatabaseError && typeof error.code === "string" && !error.code.startsWith("08") && !error.code.startsWith("57P");
}

/** PostgreSQL's answer to a prepared statement whose result columns a schema change altered (`SELECT *` after ADD COLUMN). */
function isStalePlan(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.code === "0A000" && /cached plan must not change result type/.test(error.message);
}

/** How many distinct statement texts a process prepares; texts beyond it are sent whole each time (unnamed). */
export const PREPARED_TEXTS_MAX = 256;
const preparedNames = new Map<string, string>();
let generation = 0;

/** Forgets every name given so far: texts get new names (with the next generation), so each connection prepares them anew. */
function renamePreparedStatements(): void {
  preparedNames.clear();
  generation++;
}

/**
 * The prepared-statement name of a statement text (docs/architecture.md "Hot paths"): `sp`, the generation number,
 * `_` and 16 hex digits of the text's SHA-1, so a connection parses a text once and afterwards receives only the name and the
 * values (the create's two statements are several kilobytes each; sending, parsing and planning them was more than
 * half of PostgreSQL's work per create). Undefined, for an unnamed statement, when the process already named
 * {@link PREPARED_TEXTS_MAX} texts, with the embedded database (its connections share one session, where a name
 * prepared by one would exist for the others), or when DB_PREPARED_STATEMENTS=0 (a pooler in transaction mode that
 * does not keep prepared statements).
 */
export function preparedName(text: string): string | undefined {
  const known = preparedNames.get(text);
  if (known !== undefined || preparedNames.size >= PREPARED_TEXTS_MAX) return known;
  if (config().SANDPIPER_EMBEDDED || !config().DB_PREPARED_STATEMENTS) return undefined;
  const name = `sp${generation}_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
  preparedNames.set(text, name);
  return name;
}

/** Options for interactive transactions that may wait on an advisory lock or a busy pool. */
export const TX_OPTIONS = { maxWait: 15_000, timeout: 20_000 } as const;

type CommitHook = () => unknown;
const commitHooks = new WeakMap<Tx, CommitHook[]>();

/** The pool connection a transaction opened by {@link transaction} runs on: the one that sent its BEGIN (null until then), and its lease count then. */
type TxConnection = { client: OneQueryAtATimeClient | null; lease: number };
/** Set while {@link transaction} opens its transaction, so {@link OneQueryAtATimeClient} can say which connection sent the BEGIN. */
const txConnectionOpening = new AsyncLocalStorage<TxConnection>();
const txConnections = new WeakMap<Tx, TxConnection>();

/** Rows from which {@link batchQuery} sends a statement past Prisma: below it Prisma's cost is small, and its statements stay in Prisma's traces. */
export const BULK_ROWS = 100;

/**
 * Runs one statement of a batch that carries or returns `rows` rows (the expiry sweep's 1,000 payments, their events
 * and deliveries; a callback batch's claims and attempts) in the transaction `tx`. From {@link BULK_ROWS} rows on it
 * goes straight to the transaction's connection through node-postgres ({@link query}), without Prisma: Prisma hands a
 * statement's values and rows through its query compiler and back, about a megabyte for 1,000 events, and holds the
 * event loop for tens of milliseconds to do it (docs/architecture.md "Jobs"). That connection is the one that sent
 * the transaction's BEGIN while {@link transaction} opened it, as long as the pool has not taken it back since (a
 * commit, a rollback, Prisma's timeout): the statement then runs inside the transaction. Fewer rows, a transaction
 * not opened by {@link transaction}, or a connection given back: Prisma runs it as before (and refuses a closed
 * transaction). Rows come back as {@link query} gives them either way for the columns the project reads (check them
 * with {@link parseRow}).
 * @throws what Prisma throws for a closed transaction, or the database's error for the statement
 */
export async function batchQuery(tx: Tx, rows: number, statement: Prisma.Sql): Promise<Record<string, unknown>[]> {
  const noted = rows >= BULK_ROWS ? txConnections.get(tx) : undefined;
  if (noted?.client && noted.client.leases === noted.lease) return query(statement, noted.client);
  return tx.$queryRaw<Record<string, unknown>[]>(statement);
}

/**
 * Runs `fn` in one READ COMMITTED transaction on `opts.db` (default the one client). Hooks registered
 * with {@link afterCommit} run after the commit, never inside the transaction; a rollback drops them; a hook that
 * fails is logged (warn, its message) and nothing else happens.
 * @throws whatever `fn` throws; the transaction is rolled back.
 */
export async function transaction<T>(fn: (tx: Tx) => Promise<T>, opts: { db?: PrismaClient; maxWait?: number; timeout?: number } = {}): Promise<T> {
  const { db = getDb(), ...options } = opts;
  const hooks: CommitHook[] = [];
  const connection: TxConnection = { client: null, lease: 0 };
  const result = await txConnectionOpening.run(connection, () =>
    db.$transaction(
      async (tx) => {
        commitHooks.set(tx, hooks);
        txConnections.set(tx, connection);
        // Statements sent from here on are the transaction's own or, on other connections, its callers'.
        return txConnectionOpening.exit(() => fn(tx));
      },
      { ...TX_OPTIONS, ...options },
    ),
  );
  for (const hook of hooks) {
    // Fire and forget: a hook is a notification (e.g. "delivery due"); background jobs catch up on failure, which is
    // logged with its message only (a hook's error never carries a secret; its stack and values stay out).
    Promise.resolve()
      .then(hook)
      .catch((error: unknown) =>
        log.warn({ err: error instanceof Error ? error.message : String(error) }, "after-commit hook failed; the background jobs will catch up"),
      );
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

/** Field names by column name: the columns are those of the project's own statements, a bounded set. */
const fieldNames = new Map<string, string>();

/**
 * A column name as Prisma names the model's field: snake_case -> camelCase (`amount_minor` -> `amountMinor`).
 * Remembered per column: {@link parseRow} renames every column of every row (a list page of 20 payments is 500 renames).
 */
export function fieldName(column: string): string {
  let name = fieldNames.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
    fieldNames.set(column, name);
  }
  return name;
}

/**
 * A row read with raw SQL, checked at the boundary: columns are renamed as Prisma names the model's fields
 * ({@link fieldName}), then `schema` checks every field's type (bigint -> BigInt, timestamptz -> Date, jsonb ->
 * object, as the driver gives them) and drops columns it does not name. Hot paths use raw SQL because Prisma 6
 * compiles every ORM query anew (docs/benchmarks.md); this keeps them as safe as the ORM's typed results.
 * `row` undefined is the first row of a statement that answered none (`const [row] = await db.$queryRaw...`).
 * @throws ZodError when the row lacks a field or a field has another type (a schema drift: 500 INTERNAL_ERROR).
 * @throws Error when `row` is undefined (a statement that always answers one row answered none: 500 INTERNAL_ERROR).
 */
export function parseRow<S extends z.ZodType>(schema: S, row: Record<string, unknown> | undefined): z.output<S> {
  if (row === undefined) throw new Error("a statement that answers one row answered none");
  const out: Record<string, unknown> = {};
  for (const column in row) out[fieldName(column)] = row[column];
  return schema.parse(out);
}

/**
 * Every row of a raw read checked with {@link parseRow}, in order.
 * @throws ZodError at the first row that lacks a field or has a field of another type.
 */
export function parseRows<S extends z.ZodType>(schema: S, rows: Record<string, unknown>[]): z.output<S>[] {
  return rows.map((row) => parseRow(schema, row));
}

/** A row that names one record by its `id` (a uuid column read as text): a lock taken with FOR UPDATE, an UPDATE's RETURNING id. */
export const IdRow = z.object({ id: z.string() });

/**
 * The SQL expression of every column of a row schema, by the column's name: for {@link selectAs}, which names the
 * columns after these keys, so a column renamed in the schema and not in the SELECT (or back) fails type-checking.
 */
export type SelectOf<S extends z.ZodType> = { [K in keyof z.input<S>]-?: Prisma.Sql };

/** A SELECT list `expression AS "name", ...` from {@link SelectOf} columns (names are code identifiers, quoted as is). */
export function selectAs(columns: Record<string, Prisma.Sql>): Prisma.Sql {
  return Prisma.join(
    Object.entries(columns).map(([name, sql]) => Prisma.sql`${sql} AS ${Prisma.raw(`"${name}"`)}`),
    ", ",
  );
}

export { Prisma };
