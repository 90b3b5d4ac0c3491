import { transportSecurityHeaders } from "@/lib/http/security-headers";
import { ApiError, apiError } from "@/lib/errors";
import { log } from "@/lib/log";
import { Prisma } from "@/lib/generated/prisma/client";

/** JSON.stringify that writes bigint as a string (money never becomes a JS number). */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
}

/** A JSON response with the request id and the extra headers; `serialized`: `body` is already JSON text. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}, serialized = false): Response {
  return new Response(serialized ? (body as string) : toJson(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...transportSecurityHeaders(), ...headers },
  });
}

/** The contract's error envelope (docs/api.md "Errors"): `{ error: { code, message, requestId } }`. */
export function errorResponse(error: ApiError, requestId: string): Response {
  return jsonResponse(
    error.status,
    { error: { code: error.code, message: error.message, requestId } },
    { ...error.headers, "X-Request-Id": requestId, "Cache-Control": "no-store" },
  );
}

const CONNECTION_ERROR = /ECONNREFUSED|ECONNRESET|Server has closed the connection|ETIMEDOUT|Connection terminated|connection timeout|timeout exceeded when trying to connect|Can't reach database|Client has encountered a connection error|terminating connection|the database system is (starting up|shutting down)|Transaction API error: Unable to start a transaction/i;

/**
 * The constraint (or its fields) of a unique-constraint violation, from an ORM query (Prisma P2002), a raw one
 * (P2010 from the driver adapter) or a statement on the pool (PostgreSQL's SQLSTATE 23505); null for any other error.
 */
export function uniqueViolation(error: unknown): string | null {
  // A single statement run straight on the pool (lib/db.ts query): node-postgres' DatabaseError.
  const driver = error as { code?: unknown; constraint?: unknown; severity?: unknown };
  if (driver instanceof Error && driver.code === "23505" && typeof driver.severity === "string") return JSON.stringify(driver.constraint ?? {});
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return null;
  if (error.code === "P2002") return JSON.stringify(error.meta ?? {});
  // Raw queries through the driver adapter: meta.driverAdapterError.cause = { kind, originalCode, constraint }.
  const cause = (error.meta as { driverAdapterError?: { cause?: { kind?: string; originalCode?: string; constraint?: unknown } } } | undefined)?.driverAdapterError?.cause;
  const unique = error.code === "P2010" && (cause?.kind === "UniqueConstraintViolation" || cause?.originalCode === "23505");
  return unique ? JSON.stringify(cause?.constraint ?? {}) : null;
}

/**
 * Maps any thrown value to an ApiError, in one place (the API, the customer pages and the console): ApiError as
 * is; a unique-constraint violation on a reference -> 409 DUPLICATE_REFERENCE, on anything else -> 409
 * INVALID_STATE (a concurrent change); a lost or unreachable database -> 503 SERVICE_UNAVAILABLE; anything else
 * -> 500 INTERNAL_ERROR (logged with the request id, never shown to the client).
 */
export function toApiError(error: unknown, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  const unique = uniqueViolation(error);
  if (unique !== null) {
    if (unique.includes("reference")) return apiError("DUPLICATE_REFERENCE", "a payment with this reference already exists");
    return apiError("INVALID_STATE", "someone else changed this record at the same moment; read it again and retry");
  }
  const text = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : String(error);
  if (CONNECTION_ERROR.test(text) || (error instanceof Prisma.PrismaClientKnownRequestError && ["P1001", "P1002", "P1017", "P2024", "P2028"].includes(error.code))) {
    log.warn({ requestId, err: text.slice(0, 300) }, "database unavailable");
    return apiError("SERVICE_UNAVAILABLE", "the service is temporarily unavailable; retry with the same Idempotency-Key", { "Retry-After": "1" });
  }
  log.error({ requestId, err: error instanceof Error ? { message: error.message, stack: error.stack } : text }, "unhandled error");
  return apiError("INTERNAL_ERROR", "internal error; keep the requestId and retry a limited number of times with the same Idempotency-Key");
}
