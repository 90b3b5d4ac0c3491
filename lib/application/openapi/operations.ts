import type { ErrorCode } from "@/lib/contract/errors";
import type { Operation } from "@/lib/application/openapi/operation";
import { PAYMENT_OPERATIONS } from "@/lib/application/openapi/entries/payments";
import { SANDBOX_PAYMENT_OPERATIONS } from "@/lib/application/openapi/entries/sandbox-payments";
import { SANDBOX_SETTINGS_OPERATIONS } from "@/lib/application/openapi/entries/sandbox-settings";
import { SCENARIO_RULE_OPERATIONS } from "@/lib/application/openapi/entries/scenario-rules";
import { CHECKOUT_OPERATIONS } from "@/lib/application/openapi/entries/checkouts";
import { EVENT_OPERATIONS } from "@/lib/application/openapi/entries/events";

export type { Operation } from "@/lib/application/openapi/operation";

/**
 * Every /v1 endpoint of docs/api.md "Endpoints", keyed by operationId, in the order the document lists them. The
 * entries live by subject in lib/application/openapi/entries/; add one entry per new endpoint there.
 */
export const OPERATIONS = {
  ...PAYMENT_OPERATIONS,
  ...SANDBOX_PAYMENT_OPERATIONS,
  ...SANDBOX_SETTINGS_OPERATIONS,
  ...SCENARIO_RULE_OPERATIONS,
  ...CHECKOUT_OPERATIONS,
  ...EVENT_OPERATIONS,
} as const;

export type OperationId = keyof typeof OPERATIONS;
export const OPERATION_LIST: readonly Operation[] = Object.values(OPERATIONS);

/**
 * Every error code an operation can answer: its own codes plus those the request pipeline (lib/application/http/pipeline.ts)
 * adds from its flags, in pipeline order. Sorted by HTTP status by the document builder.
 */
export function operationErrors(op: Operation): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (op.body) codes.push("UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE");
  codes.push("INVALID_API_KEY", "RATE_LIMITED", "INSUFFICIENT_SCOPE");
  if (op.allowList) codes.push("IP_NOT_ALLOWED");
  if (op.idempotent || op.body || op.query) codes.push("VALIDATION_ERROR");
  if (op.idempotent) codes.push("IDEMPOTENCY_CONFLICT");
  if (op.pathId) codes.push("NOT_FOUND");
  codes.push(...op.errors, "INTERNAL_ERROR", "SERVICE_UNAVAILABLE");
  return [...new Set(codes)];
}
