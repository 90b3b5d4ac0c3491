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
import { enteredAmount } from "@/lib/contract/money/currency";
import { transportSecurityHeaders } from "@/lib/application/http/security-headers";

/** A customer's requests carry at most two short members; anything longer is not one of them. */
const MAX_CUSTOMER_BODY_BYTES = 1024;

type RouteContext = { params: Promise<{ token: string }> };

/** A form the browser sends itself (no script): `application/x-www-form-urlencoded`, with or without parameters. */
const FORM_CONTENT_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/** The longest text of a form field sent back to the page after a refusal (characters): an amount and a currency are far shorter. */
const ECHO_MAX_CHARS = 32;

/** True when the request is a form the page posted without its script (docs/decisions/0209-customer-forms-post-to-their-action-routes.md). */
export function isFormPost(request: Request): boolean {
  return FORM_CONTENT_TYPE.test(request.headers.get("content-type") ?? "");
}

/**
 * The fields of a form post as the action's body schema reads them: each field's text, the amount read as the page's
 * script reads it, against the currency sent beside it ({@link enteredAmount}: "١٥٠", "1,500.00", "AED 150"). A field
 * sent twice keeps its last value.
 */
export function formFields(raw: Buffer): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(raw.toString("utf8"))) fields[name] = name === "amount" ? value : value.trim();
  if (fields.amount !== undefined) fields.amount = enteredAmount(fields.amount, fields.currency);
  return fields;
}

/**
 * Where a form post's answer sends the browser (303 See Other): the action's page (`/store/{token}/pay` -> `/store/{token}`),
 * after a refusal with `problem=<error code>`, `action=<the action's name>` and the fields the customer sent (`amount`, `currency`), each cut to
 * {@link ECHO_MAX_CHARS}, so the page says what went wrong and keeps what was typed. Never a message: the page words it.
 */
export function formAnswerLocation(requestUrl: string, problem?: { code: string; fields: Record<string, string> }): string {
  const page = new URL(requestUrl).pathname.replace(/\/[^/]*$/, "");
  if (!problem) return page;
  const query = new URLSearchParams({ problem: problem.code, action: new URL(requestUrl).pathname.replace(/^.*\//, "") });
  for (const [name, value] of Object.entries(problem.fields)) query.set(name, value.slice(0, ECHO_MAX_CHARS));
  return `${page}?${query}`;
}

function seeOther(location: string, requestId: string): Response {
  return new Response(null, {
    status: 303,
    headers: { Location: location, "X-Request-Id": requestId, "Cache-Control": "no-store", ...transportSecurityHeaders() },
  });
}

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
 *
 * The same action also takes the page's own HTML form, sent before the page's script has loaded or without it
 * (`application/x-www-form-urlencoded`, the same fields, the same limits and the same `run`): it is answered 303 to
 * the page, which shows the new state, or after a refusal 303 to the page with `problem=<code>` and the fields sent
 * ({@link formAnswerLocation}; docs/decisions/0209-customer-forms-post-to-their-action-routes.md).
 */
export function customerAction<E extends CustomerEndpoint>(
  endpoint: E,
  run: (ctx: { token: string; body: CustomerBody<E>; now: Date; requestId: string }) => Promise<CustomerAnswer<E>>,
) {
  const opts = endpoint;
  return async (request: Request, route: RouteContext): Promise<Response> => {
    const requestId = randomUUID();
    const form = isFormPost(request);
    let fields: Record<string, string> = {};
    try {
      const { token } = await route.params;
      await enforceCustomerActionLimits(sourceIp(request.headers), token);
      let body: unknown = undefined;
      if (opts.body) {
        if (form) {
          fields = formFields(await readRawBody(request, MAX_CUSTOMER_BODY_BYTES));
          body = parseOrThrow(opts.body, fields, "body");
        } else {
          if (!isJsonContentType(request.headers.get("content-type")))
            throw apiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json (or the page's form, application/x-www-form-urlencoded)");
          body = parseOrThrow(opts.body, parseJsonBody(await readRawBody(request, MAX_CUSTOMER_BODY_BYTES)), "body");
        }
      }
      const answer = await run({ token, body: body as CustomerBody<E>, now: systemNow(), requestId });
      log.info({ requestId, form, ...answer.log }, opts.logMessage);
      if (form) return seeOther(formAnswerLocation(request.url), requestId);
      return jsonResponse(200, answer.body, { "X-Request-Id": requestId, "Cache-Control": "no-store" });
    } catch (error) {
      const apiErr = toApiError(error, requestId);
      if (form) return seeOther(formAnswerLocation(request.url, { code: apiErr.code, fields }), requestId);
      return errorResponse(apiErr, requestId);
    }
  };
}
