// POST /v1/sandbox/checkout-sessions/{id}/quote - test helper: the customer chooses amount and currency
import { quoteAsCustomer, serializeQuotedSession } from "@/lib/domain/checkout-sessions/test-helpers";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const POST = merchantApi(OPERATIONS.quoteSandboxCheckoutSession, async ({ tx, merchant, params, body, now }) => {
  const session = await quoteAsCustomer(tx, { merchantId: merchant.id, sessionId: params.id, choice: body, now });
  return { status: 200, body: serializeQuotedSession(session, now), resourceId: session.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
