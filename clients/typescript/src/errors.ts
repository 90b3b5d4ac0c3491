import type { components } from "./schema.js";

/** An error code of the API (docs/api.md "Errors"), from the OpenAPI document. */
export type ErrorCode = components["schemas"]["ErrorCode"];

/**
 * A non-2xx answer of the API, or a request the client gave up on (docs/client.md "Errors").
 * `status`: the HTTP status (0 when no answer came: a network error after the last attempt);
 * `code`, `message`, `requestId`: the answer's `{error: {code, message, requestId}}` (`requestId` is null
 * without an answer); `retryAfter`: the answer's `Retry-After` in seconds, or null.
 */
export class SandpiperError extends Error {
  readonly status: number;
  readonly code: ErrorCode | "NETWORK_ERROR";
  readonly requestId: string | null;
  readonly retryAfter: number | null;

  constructor(init: {
    status: number;
    code: ErrorCode | "NETWORK_ERROR";
    message: string;
    requestId: string | null;
    retryAfter?: number | null;
    cause?: unknown;
  }) {
    super(init.message, { cause: init.cause });
    this.name = "SandpiperError";
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter ?? null;
  }
}

/** The SandpiperError of an error answer: its envelope, or (for a body that is not one) INTERNAL_ERROR with the status. */
export function errorFromAnswer(response: Response, body: unknown): SandpiperError {
  const envelope = (body as { error?: { code?: unknown; message?: unknown; requestId?: unknown } } | null)?.error;
  const retryAfter = response.headers.get("retry-after");
  return new SandpiperError({
    status: response.status,
    code: typeof envelope?.code === "string" ? (envelope.code as ErrorCode) : "INTERNAL_ERROR",
    message: typeof envelope?.message === "string" ? envelope.message : `HTTP ${response.status} without an error envelope`,
    requestId: typeof envelope?.requestId === "string" ? envelope.requestId : response.headers.get("x-request-id"),
    retryAfter: retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null,
  });
}
