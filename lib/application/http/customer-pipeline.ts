import { systemNow } from "@/lib/platform/clock";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { sourceIp } from "@/lib/domain/auth/ip";
import { apiError } from "@/lib/contract/errors";
import { isJsonContentType, readRawBody } from "@/lib/application/http/body";
import { parseJsonBody } from "@/lib/application/http/json";
import { enforceCustomerActionLimits } from "@/lib/application/http/rate-limit";
import { errorResponse, jsonResponse, toApiError } from "@/lib/application/http/respond";
import { parseOrThrow } from "@/lib/application/http/validation";
import { log } from "@/lib/platform/log";

/** A customer's requests carry at most two short members; anything longer is not one of them. */
const MAX_CUSTOMER_BODY_BYTES = 1024;

type RouteContext = { params: Promise<{ token: string }> };

/**
 * What the customer pipeline runs a customer page's action with: the part of its entry in
 * lib/application/openapi/customer-operations.ts that is not documentation. `body`: the schema the request body is parsed with
 * (none: the body is not read); `success.schema`: what the 200 answer satisfies (the handler is typed against it);
 * `logMessage`: the message of its one log line.
 */
export type CustomerEndpoint = { operationId: string; body?: z.ZodType; success: { status: 200; schema: z.ZodType }; logMessage: string };

/** The body a handler of `E` receives: `z.output` of its body schema; undefined without one. */
type CustomerBody<E extends CustomerEndpoint> = E extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;

/** What a customer action answers: the 200 body (what the entry's success schema accepts) and the fields of its one log line (ids, never the token). */
export type CustomerAnswer<E extends CustomerEndpoint = CustomerEndpoint> = { body: z.input<E["success"]["schema"]>; log: Record<string, unknown> };

/**
 * The request pipeline of the customer pages' POST actions (docs/guides/amount-entry-checkout.md "Customer amount-entry checkout", "Fixed-amount
 * store checkout": `/checkout/{token}/quote`, `/confirm`, `/store/{token}/pay`, `/decline`), built from the same blocks as the `/v1` pipeline. The token in the
 * path is the only credential (a bearer link): no cookie or key is read. Order: request id; 429 RATE_LIMITED per
 * source IP and per link (with Retry-After); when `body` is given, 415 (application/json only), 413 (over 1 KiB) and
 * 400 VALIDATION_ERROR (strict JSON against `body`); then `run`. Answers 200 with `run`'s body or the error envelope
 * of the one error mapper, always with Cache-Control no-store and X-Request-Id; one log line per success, named
 * `logMessage`, with `run`'s log fields and never the token. `endpoint` is the action's registry entry (a route passes
 * `CUSTOMER_OPERATIONS.x` of lib/application/openapi/customer-operations.ts), so the OpenAPI document publishes the schemas parsed
 * and answered here; the handler's body and answer are typed from it.
 */
export function customerAction<E extends CustomerEndpoint>(
  endpoint: E,
  run: (ctx: { token: string; body: CustomerBody<E>; now: Date; requestId: string }) => Promise<CustomerAnswer<E>>,
) {
  const opts = endpoint;
  return async (request: Request, route: RouteContext): Promise<Response> => {
    const requestId = randomUUID();
    try {
      const { token } = await route.params;
      await enforceCustomerActionLimits(sourceIp(request.headers), token);
      let body: unknown = undefined;
      if (opts.body) {
        if (!isJsonContentType(request.headers.get("content-type"))) throw apiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json");
        body = parseOrThrow(opts.body, parseJsonBody(await readRawBody(request, MAX_CUSTOMER_BODY_BYTES)), "body");
      }
      const answer = await run({ token, body: body as CustomerBody<E>, now: systemNow(), requestId });
      log.info({ requestId, ...answer.log }, opts.logMessage);
      return jsonResponse(200, answer.body, { "X-Request-Id": requestId, "Cache-Control": "no-store" });
    } catch (error) {
      return errorResponse(toApiError(error, requestId), requestId);
    }
  };
}
