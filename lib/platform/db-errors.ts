// Database errors classified by their codes (PostgreSQL's SQLSTATE, Prisma's P-codes, the driver adapter's error kinds,
// Node's socket error codes), never by message text in another language of the same fact. docs/architecture.md
// "Consistency" (concurrent requests) and "Request pipeline" (the one error mapper, lib/application/http/respond.ts).
import pg from "pg";
import { Prisma } from "@/lib/platform/generated/prisma/client";

/**
 * What a database error means for the request that met it:
 * - `unique-violation`: SQLSTATE 23505 (Prisma P2002): a concurrent request inserted the same key first;
 * - `serialization-failure`: 40001 (Prisma P2034 is either this or a deadlock); `deadlock`: 40P01;
 * - `query-cancelled`: 57014 (a statement timeout or a cancel request);
 * - `connection`: the database cannot be reached or went away: class 08, 57P01-57P05 (shutdown, restart), 53300
 *   (too many connections), a socket error, Prisma's P1001/P1002/P1017;
 * - `timeout`: the database is up but the work ran out of time: an interactive transaction past its time limit
 *   (Prisma P2028), no free connection of the pool in time (P2024, node-postgres' "timeout exceeded when trying to
 *   connect"); never reported as the database being down;
 * - `other`: anything else (a bug or a guard of the database: not retried).
 */
export type DbErrorKind = "unique-violation" | "serialization-failure" | "deadlock" | "query-cancelled" | "connection" | "timeout" | "other";

/**
 * The unique key a violation names, as the driver reported it: the constraint's (index's) name, its columns, or
 * both; `{ name: null, fields: [] }` when nothing was reported.
 */
export type UniqueKey = { name: string | null; fields: string[] };

/** A classified database error: its kind, the SQLSTATE when one is known, and a unique violation's key. */
export interface DbErrorClass {
  kind: DbErrorKind;
  sqlState?: string;
  /** For `unique-violation`: the key it names. */
  constraint?: UniqueKey;
}

/**
 * Reads the key of a unique violation from what a driver reports: node-postgres' constraint name (text), Prisma's
 * P2002 `meta.target` (the columns, or the index name) or `meta.driverAdapterError.cause.constraint`, and the driver
 * adapter's `{ fields }` or `{ index }`.
 */
function uniqueKeyOf(reported: unknown): UniqueKey {
  if (typeof reported === "string") return { name: reported, fields: [] };
  if (reported === null || typeof reported !== "object") return { name: null, fields: [] };
  const r = reported as { target?: unknown; fields?: unknown; index?: unknown; driverAdapterError?: { cause?: { constraint?: unknown } } };
  if (r.driverAdapterError?.cause?.constraint !== undefined) return uniqueKeyOf(r.driverAdapterError.cause.constraint);
  if (r.target !== undefined) return Array.isArray(r.target) ? uniqueKeyOf({ fields: r.target }) : uniqueKeyOf(r.target);
  const fields = Array.isArray(r.fields) ? r.fields.filter((f): f is string => typeof f === "string") : [];
  return { name: typeof r.index === "string" ? r.index : null, fields };
}

const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EPIPE", "EHOSTUNREACH", "ENETUNREACH"]);
const PRISMA_CONNECTION_CODES = new Set(["P1001", "P1002", "P1017"]);
/** Prisma's codes for work that ran out of time on a database that answers: the pool's wait (P2024), a transaction's limit (P2028). */
const PRISMA_TIMEOUT_CODES = new Set(["P2024", "P2028"]);
/** The driver adapter's kinds for a database it cannot reach (lib/platform/db.ts runs Prisma on @prisma/adapter-pg). */
const ADAPTER_CONNECTION_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "TlsConnectionError"]);
/**
 * node-postgres raises these for a connection it lost or could not open without any code (they are its own, not the
 * server's): the only messages read, and only on errors that carry no code.
 */
const UNCODED_CONNECTION_ERROR = /^(Connection terminated|Client has encountered a connection error)/;
/** node-postgres' pool found no free connection in time (its own error, without a code): the database is busy, not down. */
const UNCODED_POOL_TIMEOUT = /^timeout exceeded when trying to connect/;

type AdapterCause = { kind?: string; originalCode?: string; code?: string; constraint?: unknown };

/** The kind of one SQLSTATE (five characters, e.g. "40P01"). */
export function sqlStateKind(sqlState: string): DbErrorKind {
  if (sqlState === "23505") return "unique-violation";
  if (sqlState === "40001") return "serialization-failure";
  if (sqlState === "40P01") return "deadlock";
  if (sqlState === "57014") return "query-cancelled";
  if (sqlState.startsWith("08") || /^57P0[1-5]$/.test(sqlState) || sqlState === "53300") return "connection";
  return "other";
}

function classifyOne(error: unknown): DbErrorClass | null {
  if (error instanceof pg.DatabaseError && typeof error.code === "string") {
    const kind = sqlStateKind(error.code);
    return kind === "unique-violation" ? { kind, sqlState: error.code, constraint: uniqueKeyOf(error.constraint) } : { kind, sqlState: error.code };
  }
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (error.code === "P2002") return { kind: "unique-violation", sqlState: "23505", constraint: uniqueKeyOf(error.meta) };
    if (error.code === "P2034") return { kind: "serialization-failure", sqlState: "40001" };
    if (PRISMA_CONNECTION_CODES.has(error.code)) return { kind: "connection" };
    if (PRISMA_TIMEOUT_CODES.has(error.code)) return { kind: "timeout" };
    // Raw queries through the driver adapter: meta.driverAdapterError.cause = { kind, originalCode | code, constraint }.
    const meta = error.meta as { code?: unknown; driverAdapterError?: { cause?: AdapterCause } } | undefined;
    const cause = meta?.driverAdapterError?.cause;
    if (cause?.kind && ADAPTER_CONNECTION_KINDS.has(cause.kind)) return { kind: "connection" };
    const sqlState = cause?.originalCode ?? cause?.code ?? (typeof meta?.code === "string" ? meta.code : undefined);
    if (sqlState && /^[0-9A-Z]{5}$/.test(sqlState)) {
      const kind = sqlStateKind(sqlState);
      return kind === "unique-violation" ? { kind, sqlState, constraint: uniqueKeyOf(cause?.constraint) } : { kind, sqlState };
    }
    if (cause?.kind === "UniqueConstraintViolation") return { kind: "unique-violation", sqlState: "23505", constraint: uniqueKeyOf(cause.constraint) };
    return null;
  }
  if (error instanceof Prisma.PrismaClientInitializationError && error.errorCode && PRISMA_CONNECTION_CODES.has(error.errorCode)) return { kind: "connection" };
  if (error instanceof Prisma.PrismaClientInitializationError && error.errorCode && PRISMA_TIMEOUT_CODES.has(error.errorCode)) return { kind: "timeout" };
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && SOCKET_CODES.has(code)) return { kind: "connection" };
  if (error instanceof Error && code === undefined && UNCODED_CONNECTION_ERROR.test(error.message)) return { kind: "connection" };
  if (error instanceof Error && code === undefined && UNCODED_POOL_TIMEOUT.test(error.message)) return { kind: "timeout" };
  return null;
}

/**
 * Classifies a thrown value by its codes: the error itself, then its `cause` (at most 4 levels: Prisma and the pool
 * wrap the driver's error).
 * @param error anything thrown by a query, a transaction or the pool.
 * @returns `{ kind, sqlState?, constraint? }`; `{ kind: "other" }` when no code says anything.
 */
export function classifyDbError(error: unknown): DbErrorClass {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current != null; depth++) {
    const found = classifyOne(current);
    if (found) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return { kind: "other" };
}

/** True for the kinds a retry of the same request can get past (the database was busy, restarting or unreachable). */
export function isTransientDbError(kind: DbErrorKind): boolean {
  return kind === "connection" || kind === "timeout" || kind === "serialization-failure" || kind === "deadlock" || kind === "query-cancelled";
}
