import type { ErrorCode } from "@/lib/contract/errors";

/**
 * What each error code means and what the client should do (docs/api.md "Errors"). Typed over every code of
 * lib/contract/errors.ts, so a new code cannot be published without a meaning.
 */
export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  VALIDATION_ERROR:
    "A member, query parameter or header (Idempotency-Key) has a wrong format, length or type, an unknown property was sent, the body is not UTF-8 JSON or repeats a member name.",
  INVALID_EMAIL: "customer.email is malformed.",
  CUSTOMER_PROFILE_REQUIRED: "Required customer members are missing; they are never auto-filled.",
  GLOBAL_AMOUNT_LIMIT: "The amount is outside the global amount limit.",
  AMOUNT_OUT_OF_RANGE:
    "The amount is outside the pricing profile's lower or upper transaction amount, or a store payment's AED charge is outside what the store can charge (AED 0.01 to 9,999,999,999.99).",
  INVALID_API_KEY: "The API key is missing, malformed, invalid, expired or revoked, or the merchant is inactive.",
  INSUFFICIENT_SCOPE: "The API key lacks the endpoint's scope. Do not retry automatically.",
  FORBIDDEN: "Console only (never answered by /v1): the signed-in console user's role may not perform this action.",
  IP_NOT_ALLOWED: "The source IP is not on the merchant's server allow-list.",
  RISK_REJECTED:
    "Block list or velocity (rate) rule hit: the customer matches a block-list entry, or has made too many payments, or too large a total, within the merchant's rule window. The message names the kind of rule, never its threshold. Do not reopen with another key.",
  LEGACY_FLOW_DISABLED: "POST /v1/store-payments is unavailable to a merchant with customer amount-entry enabled; use /v1/checkout-sessions.",
  AMOUNT_ENTRY_NOT_ENABLED: "Customer amount-entry is not enabled for this merchant.",
  NOT_FOUND: "Unknown id, another merchant's id, or an unknown path under /v1.",
  METHOD_NOT_ALLOWED: "The path exists but does not serve this method (the Allow header lists the methods it serves).",
  IDEMPOTENCY_CONFLICT: "The Idempotency-Key was already used with a different method, path or body.",
  FX_RATE_MISSING: "No direct rate for the current Dubai business day.",
  DUPLICATE_REFERENCE: "The merchant already used this reference.",
  INVALID_STATE: "The record is in a state that does not allow this request (for example completing a final payment).",
  PRICING_DISABLED: "The latest version of the merchant's pricing profile is disabled.",
  DAILY_LIMIT: "The pricing profile's daily limit would be exceeded; a different Idempotency-Key does not get past it.",
  MONTHLY_LIMIT: "The pricing profile's monthly limit would be exceeded; a different Idempotency-Key does not get past it.",
  PROVIDER_CURRENCY_MISMATCH: "The provider's charge currency differs from the pricing profile's charge currency.",
  PAYLOAD_TOO_LARGE: "The request body is over 32 KiB.",
  UNSUPPORTED_MEDIA_TYPE: "The Content-Type is not application/json (UTF-8).",
  RATE_LIMITED: "More than 300 requests a minute for the API key or 600 for the source IP. Honor Retry-After, back off and reuse the same Idempotency-Key.",
  INTERNAL_ERROR: "Transient. Keep the requestId and retry a limited number of times with the same Idempotency-Key and body.",
  BANK_CAPACITY: "The daily capacity of the active bank accounts is full. Limited retry with the same Idempotency-Key and body.",
  NO_ROUTE: "No route (active bank account) is available. Limited retry with the same Idempotency-Key and body.",
  STORE_DISABLED: "The store is disabled. Limited retry with the same Idempotency-Key and body.",
  STORE_UNAVAILABLE: "The store is unavailable. Limited retry with the same Idempotency-Key and body.",
  PAYMENT_INTAKE_PAUSED: "The system or the channel is closed to new payments. Retry later with the same Idempotency-Key and body.",
  SESSION_REQUIRED: "Console JSON routes only (never /v1): no signed-in console session; sign in again.",
  SERVICE_UNAVAILABLE: "Transient (for example the database is unreachable). Honor Retry-After and retry with the same Idempotency-Key and body.",
};
