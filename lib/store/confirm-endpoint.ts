import { randomUUID } from "node:crypto";
import { sourceIp } from "@/lib/auth/ip";
import { enforceCustomerActionLimits } from "@/lib/http/rate-limit";
import { errorResponse, jsonResponse, toApiError } from "@/lib/http/respond";
import { log } from "@/lib/log";
import { confirmStoreCheckout, type StoreConfirmation } from "@/lib/store/confirm";

type RouteContext = { params: Promise<{ token: string }> };

/**
 * Route handler of a sandbox test confirmation on the store page: POST /store/{token}/pay (SUCCEEDED) and
 * /store/{token}/decline (FAILED). The path token is the only credential (bearer link; no cookie, key or
 * body is read). Limited per source IP and per link (429 RATE_LIMITED with Retry-After). Answers 200 `{ state, status }` (checkout state, payment status) or the contract's
 * error envelope (404 NOT_FOUND, 409 INVALID_STATE), always with Cache-Control no-store and X-Request-Id.
 * Logs carry the payment id, never the token.
 */
export function storeConfirmationAction(outcome: StoreConfirmation) {
  return async (request: Request, route: RouteContext): Promise<Response> => {
    const requestId = randomUUID();
    try {
      const { token } = await route.params;
      await enforceCustomerActionLimits(sourceIp(request.headers), token);
      const result = await confirmStoreCheckout(token, outcome, new Date());
      log.info({ requestId, paymentId: result.paymentId, outcome, state: result.state }, "store test confirmation");
      return jsonResponse(200, { state: result.state, status: result.status }, { "X-Request-Id": requestId, "Cache-Control": "no-store" });
    } catch (error) {
      return errorResponse(toApiError(error, requestId), requestId);
    }
  };
}
