/**
 * The error codes of the contract and their HTTP statuses: the single source (docs/api.md "Errors").
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_EMAIL: 400,
  CUSTOMER_PROFILE_REQUIRED: 400,
  GLOBAL_AMOUNT_LIMIT: 400,
  AMOUNT_OUT_OF_RANGE: 400,
  INVALID_API_KEY: 401,
  INSUFFICIENT_SCOPE: 403,
  FORBIDDEN: 403,
  IP_NOT_ALLOWED: 403,
  RISK_REJECTED: 403,
  LEGACY_FLOW_DISABLED: 403,
  AMOUNT_ENTRY_NOT_ENABLED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_CONFLICT: 409,
  FX_RATE_MISSING: 409,
  DUPLICATE_REFERENCE: 409,
  INVALID_STATE: 409,
  PRICING_DISABLED: 409,
  DAILY_LIMIT: 409,
  MONTHLY_LIMIT: 409,
  PROVIDER_CURRENCY_MISMATCH: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  BANK_CAPACITY: 503,
  NO_ROUTE: 503,
  STORE_DISABLED: 503,
  STORE_UNAVAILABLE: 503,
  PAYMENT_INTAKE_PAUSED: 503,
  SERVICE_UNAVAILABLE: 503,
  /** Console JSON routes only: no signed-in console session. */
  SESSION_REQUIRED: 401,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
/** Codes that only the console's own JSON routes answer, never `/v1`: left out of the API reference. */
export const CONSOLE_ONLY_CODES: readonly ErrorCode[] = ["FORBIDDEN", "SESSION_REQUIRED"];
/** The codes of the merchant API (docs/api.md "Errors"): the table without the console-only codes. */
export const API_ERROR_CODES = ERROR_CODES.filter((code) => !CONSOLE_ONLY_CODES.includes(code));

/** A contract error: code, client-safe message and the extra response headers (e.g. Retry-After). */
export class ApiError extends Error {
  readonly status: number;
  /** For a refused input member (see {@link fieldError}): the member's name and what is wrong with it. */
  field?: { name: string; detail: string };
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }
}

/**
 * A 400 VALIDATION_ERROR about one input member: the message reads `<name>: <detail>` (the contract's format), and
 * the member and detail travel as `field`, so a form can mark the member without reading the message.
 * `fieldError("address", "enter one exact IPv4 or IPv6 address")`.
 */
export function fieldError(name: string, detail: string): ApiError {
  const error = new ApiError("VALIDATION_ERROR", `${name}: ${detail}`);
  error.field = { name, detail };
  return error;
}

/** Shorthand: `throw apiError("NOT_FOUND", "payment not found")`. */
export function apiError(code: ErrorCode, message: string, headers?: Record<string, string>): ApiError {
  return new ApiError(code, message, headers);
}
