import { systemNow } from "@/lib/clock";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { sourceIp } from "@/lib/auth/ip";
import { apiError } from "@/lib/errors";
import { isJsonContentType, readRawBody } from "@/lib/http/body";
import { parseJsonBody } from "@/lib/http/json";
import { enforceCustomerActionLimits } from "@/lib/http/rate-limit";
import { errorResponse, jsonResponse, toApiError } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";
import { log } from "@/lib/log";

/** A customer's requests carry at most two short members; anything longer is not one of them. */
const MAX_CUSTOMER_BODY_BYTES = 1024;

type RouteContext = { params: Promise<{ token: string }> };

/** What a customer action answers: the 200 body and the fields of its one log line (ids, never the token). */
export type CustomerAnswer = { body: unknown; log: Record<string, unknown> };

/**
 * The request pipeline of the customer pages' POST actions (docs/guides/amount-entry-checkout.md "Customer amount-entry checkout", "Fixed-amount
 * store checkout": `/checkout/{token}/quote`, `/confirm`, `/store/{token}/pay`, `/decline`), built from the same blocks as the `/v1` pipeline. The token in the
 * path is the only credential (a bearer link): no cookie or key is read. Order: request id; 429 RATE_LIMITED per
 * source IP and per link (with Retry-After); when `body` is given, 415 (application/json only), 413 (over 1 KiB) and
 * 400 VALIDATION_ERROR (strict JSON against `body`); then `run`. Answers 200 with `run`'s body or the error envelope
 * of the one error mapper, always with Cache-Control no-store and X-Request-Id; one log line per success, named
 * `logMessage`, with `run`'s log fields and never the token.
 */
export function customerAction<S extends z.ZodType>(
  opts: { body?: S; logMessage: string },
  run: (ctx: { token: string; body: z.output<S>; now: Date; requestId: string }) => Promise<CustomerAnswer>,
) {
  return async (request: Request, route: RouteContext): Promise<Response> => {
    const requestId = randomUUID();
    try {
      const { token } = await route.params;
      await enforceCustomerActionLimits(sourceIp(request.headers), token);
      let body = undefined as z.output<S>;
      if (opts.body) {
        if (!isJsonContentType(request.headers.get("content-type"))) throw apiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json");
        body = parseOrThrow(opts.body, parseJsonBody(await readRawBody(request, MAX_CUSTOMER_BODY_BYTES)), "body");
      }
      const answer = await run({ token, body, now: systemNow(), requestId });
      log.info({ requestId, ...answer.log }, opts.logMessage);
      return jsonResponse(200, answer.body, { "X-Request-Id": requestId, "Cache-Control": "no-store" });
    } catch (error) {
      return errorResponse(toApiError(error, requestId), requestId);
    }
  };
}
