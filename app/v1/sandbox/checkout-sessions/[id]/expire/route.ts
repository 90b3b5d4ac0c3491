// POST /v1/sandbox/checkout-sessions/{id}/expire - test helper: expire a checkout session now
import { expireSessionNow } from "@/lib/domain/checkout-sessions/expire";
import { serializeCheckoutSession } from "@/lib/domain/checkout-sessions/serialize";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const POST = merchantApi(OPERATIONS.expireSandboxCheckoutSession, async ({ tx, merchant, params, now }) => {
  const session = await expireSessionNow(tx, { merchantId: merchant.id, sessionId: params.id, now });
  return { status: 200, body: serializeCheckoutSession(session, now), resourceId: session.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
