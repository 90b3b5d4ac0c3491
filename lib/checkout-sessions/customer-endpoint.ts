import { randomUUID } from "node:crypto";
import { apiError } from "@/lib/errors";
import type { CheckoutSession } from "@/lib/generated/prisma/client";
import { isJsonContentType, readRawBody } from "@/lib/http/body";
import { parseJsonBody } from "@/lib/http/json";
import { sourceIp } from "@/lib/auth/ip";
import { enforceCustomerActionLimits } from "@/lib/http/rate-limit";
import { errorResponse, jsonResponse, toApiError } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";
import { log } from "@/lib/log";
import { fromMinor } from "@/lib/money/currency";
import { CustomerAmount } from "@/lib/schemas/checkout-sessions";
import { effectiveState } from "@/lib/checkout-sessions/transitions";

/** The customer's requests carry two short members; anything longer is not one of them. */
const MAX_CUSTOMER_BODY_BYTES = 1024;

type RouteContext = { params: Promise<{ token: string }> };

/**
 * A route handler for a customer action on the hosted checkout page (POST /checkout/{token}/quote and
 * /confirm). The token in the path is the only credential (a bearer link), so no cookie or key is read.
 * Order: request id, 429 (per source IP and per link), 415 (application/json), 413, JSON + strict
 * `{amount, currency}` 400, action. Answers
 * 200 `{state, amount, currency}` or the contract's error envelope, always with Cache-Control no-store and
 * X-Request-Id. Logs carry the session id, never the token.
 */
export function customerCheckoutAction(action: (token: string, choice: CustomerAmount, now: Date) => Promise<CheckoutSession>) {
  return async (request: Request, route: RouteContext): Promise<Response> => {
    const requestId = randomUUID();
    const headers = { "X-Request-Id": requestId, "Cache-Control": "no-store" };
    try {
      const { token } = await route.params;
      await enforceCustomerActionLimits(sourceIp(request.headers), token);
      if (!isJsonContentType(request.headers.get("content-type"))) {
        throw apiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json");
      }
      const choice = parseOrThrow(CustomerAmount, parseJsonBody(await readRawBody(request, MAX_CUSTOMER_BODY_BYTES)), "body");
      const now = new Date();
      const session = await action(token, choice, now);
      log.info({ requestId, checkoutSessionId: session.id, action: new URL(request.url).pathname.split("/").pop(), state: session.state }, "customer checkout action");
      const body = { state: effectiveState(session, now), amount: session.amountMinor === null ? null : fromMinor(session.amountMinor), currency: session.currency };
      return jsonResponse(200, body, headers);
    } catch (error) {
      return errorResponse(toApiError(error, requestId), requestId);
    }
  };
}
