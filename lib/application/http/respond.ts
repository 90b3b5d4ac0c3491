import { processState } from "@/lib/platform/process-state";
import { transportSecurityHeaders } from "@/lib/application/http/security-headers";
import { ApiError, apiError } from "@/lib/contract/errors";
import { toJson } from "@/lib/contract/json";
import { log } from "@/lib/platform/log";
import { redactText } from "@/lib/platform/redaction/redact";
import { classifyDbError, isTransientDbError, type UniqueKey } from "@/lib/platform/db-errors";

/** A JSON response with the request id and the extra headers; `serialized`: `body` is already JSON text. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}, serialized = false): Response {
  const text = serialized ? (body as string) : toJson(body);
  const response = new Response(text, {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...transportSecurityHeaders(), ...headers },
  });
  // server.mjs's hot routes write this text instead of reading the body stream back (docs/architecture.md "Hot paths").
  (processState().responseTexts ??= new WeakMap()).set(response, text);
  return response;
}

/**
 * The contract's error envelope (docs/api.md "Errors"): `{ error: { code, message, requestId } }`; the message passes
 * the one redaction rule (lib/platform/redaction/redact.ts), so a message that echoes a value never carries a secret or a card
 * number.
 */
export function errorResponse(error: ApiError, requestId: string): Response {
  return jsonResponse(
    error.status,
    { error: { code: error.code, message: redactText(error.message), requestId } },
    { ...error.headers, "X-Request-Id": requestId, "Cache-Control": "no-store" },
  );
}

/**
 * The key of a unique-constraint violation (SQLSTATE 23505: Prisma P2002 from an ORM query, P2010 from a raw one
 * through the driver adapter, node-postgres' DatabaseError from a statement on the pool); null for any other error.
 */
export function uniqueViolation(error: unknown): UniqueKey | null {
  const classified = classifyDbError(error);
  return classified.kind === "unique-violation" ? (classified.constraint ?? { name: null, fields: [] }) : null;
}

/** The unique keys of a merchant's references (payments, checkout sessions): a violation is DUPLICATE_REFERENCE. */
const REFERENCE_KEYS = new Set(["payments_merchant_id_reference_key", "checkout_sessions_merchant_id_reference_key"]);

/** Whether a violated unique key is a merchant's reference: by its index name, or by its columns. */
function isReferenceKey(key: UniqueKey | undefined): boolean {
  if (!key) return false;
  return (key.name !== null && REFERENCE_KEYS.has(key.name)) || key.fields.includes("reference");
}

/**
 * Maps any thrown value to an ApiError, in one place (the API, the customer pages and the console;
 * docs/architecture.md "Request pipeline"). Database errors are classified by code (lib/platform/db-errors.ts): ApiError as
 * is; a unique-constraint violation on a reference -> 409 DUPLICATE_REFERENCE, on anything else -> 409
 * INVALID_STATE (a concurrent change); a lost or unreachable database, a serialization failure, a deadlock or a
 * cancelled statement -> 503 SERVICE_UNAVAILABLE with Retry-After (a retry with the same Idempotency-Key is safe:
 * nothing was committed), and so is work that ran out of time (a transaction past its limit, no free connection),
 * logged as such, never as the database being down; anything else -> 500 INTERNAL_ERROR (logged with the request id, never shown to the
 * client).
 */
export function toApiError(error: unknown, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  const { kind, sqlState, constraint } = classifyDbError(error);
  if (kind === "unique-violation") {
    if (isReferenceKey(constraint)) return apiError("DUPLICATE_REFERENCE", "a payment with this reference already exists");
    return apiError("INVALID_STATE", "someone else changed this record at the same moment; read it again and retry");
  }
  const text = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : String(error);
  if (kind === "timeout") {
    // The database answers; the work took longer than the service allows one request (docs/api.md "Errors").
    log.warn({ requestId, kind, err: text.slice(0, 300) }, "request ran out of time (the database is up)");
    return apiError("SERVICE_UNAVAILABLE", "the service is busy and this request ran out of time; nothing was changed: retry with the same Idempotency-Key", {
      "Retry-After": "1",
    });
  }
  if (isTransientDbError(kind)) {
    log.warn({ requestId, kind, sqlState, err: text.slice(0, 300) }, kind === "connection" ? "database unavailable" : "database refused the statement for now");
    return apiError("SERVICE_UNAVAILABLE", "the service is temporarily unavailable; retry with the same Idempotency-Key", { "Retry-After": "1" });
  }
  log.error({ requestId, err: error instanceof Error ? { message: error.message, stack: error.stack } : text }, "unhandled error");
  return apiError("INTERNAL_ERROR", "internal error; keep the requestId and retry a limited number of times with the same Idempotency-Key");
}
