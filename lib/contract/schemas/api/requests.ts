import { z } from "zod";
import { Timestamp } from "@/lib/contract/schemas/api/common";
import { ErrorCode } from "@/lib/contract/schemas/api/error-resource";
import { positiveInt } from "@/lib/contract/schemas/api/payments";

// Requests and responses of the request log (docs/api.md "Request log"); the OpenAPI document is built from them.

export const RequestLogEntry = z
  .strictObject({
    requestId: z.uuid().describe("the request's id (its X-Request-Id header and the requestId of an error answer)"),
    createdAt: Timestamp.describe("when the request arrived (ISO 8601, UTC)"),
    keyPrefix: z.string().describe("the first characters of the API key that sent it (never the key)"),
    method: z.string().describe("HTTP method"),
    path: z.string().describe("the path, e.g. /v1/payments"),
    query: z.string().nullable().describe("the query string without `?`, or null"),
    status: z.int().describe("the HTTP status answered"),
    errorCode: ErrorCode.nullable().describe("the error code of an error answer (one of ErrorCode); null for a success"),
    idempotencyKey: z.string().nullable().describe("the Idempotency-Key sent, or null"),
    replayed: z.boolean().describe("true when the answer was the stored answer of an earlier request with the same Idempotency-Key"),
    latencyMs: z.int().min(0).describe("time to the answer's first byte, milliseconds"),
    requestBody: z.string().nullable().describe("the request body as JSON text, secrets and bearer links redacted, cut at 8 KiB"),
    responseBody: z.string().nullable().describe("the answer's body as JSON text, secrets and bearer links redacted, cut at 8 KiB; null for an event stream"),
    resource: z
      .strictObject({
        type: z.enum(["payment", "event", "checkout_session"]).describe("what the request was about"),
        id: z.uuid().describe("its id"),
      })
      .nullable()
      .describe("the payment, event or checkout session the request created or read; null for lists and failed creates"),
  })
  .describe("One API request as the request log keeps it.");

/** One logged request as the API shows it (`GET /v1/requests`, the console's Requests page, `sandpiper logs tail`). */
export type RequestLogView = z.output<typeof RequestLogEntry>;

export const RequestLogList = z.strictObject({
  items: z.array(RequestLogEntry).describe("This page's requests, newest first."),
  total: z.int().min(0).describe("requests matching the filters"),
  page: z.int().min(1).describe("This page's number, from 1."),
  limit: z.int().min(1).max(100).describe("Page size asked for."),
  pages: z.int().min(0).describe("Number of pages: ceil(total / limit)."),
});

/** `GET /v1/requests` query. */
export const ListRequestsQuery = z.strictObject({
  page: positiveInt().default(1).describe("page number, >= 1; default 1"),
  limit: positiveInt(100).default(20).describe("page size, 1 to 100; default 20"),
  status: z
    .string()
    .regex(/^([2-5]xx|[1-5]\d\d)$/, { message: "must be a status class (2xx, 4xx, 5xx) or a status (e.g. 409)" })
    .optional()
    .describe("only answers of this status class (2xx, 3xx, 4xx, 5xx) or status (e.g. 409)"),
  path: z
    .string()
    .regex(/^\/v1\/[A-Za-z0-9/_.-]*$/, { message: "must be a path starting with /v1/" })
    .max(200)
    .optional()
    .describe("only requests whose path starts with this, e.g. /v1/payments"),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).optional().describe("only requests of this method"),
  errorCode: z
    .string()
    .regex(/^[A-Z_]{2,64}$/, { message: "must be an error code, e.g. VALIDATION_ERROR" })
    .optional()
    .describe("only error answers with this code"),
  idempotencyKey: z.string().min(1).max(128).optional().describe("only requests sent with this idempotency key (the header's value)"),
  keyPrefix: z
    .string()
    .regex(/^sk_sandbox_[A-Za-z0-9]{1,6}$/, { message: "must be a key prefix as the console shows it, e.g. sk_sandbox_a1B2c3" })
    .optional()
    .describe("only requests of the API key with this prefix"),
  since: Timestamp.optional().describe("only requests at or after this time (ISO 8601, UTC); with limit, what `sandpiper logs tail` follows"),
});
export type ListRequestsQuery = z.infer<typeof ListRequestsQuery>;
