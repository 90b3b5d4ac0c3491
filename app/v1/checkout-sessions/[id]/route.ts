// GET /v1/checkout-sessions/{id} - read a checkout session (a confirmed amount is not payment success)
import { merchantApi } from "@/lib/application/http/pipeline";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { getCheckoutSession } from "@/lib/domain/checkout-sessions/read";
import { serializeCheckoutSession } from "@/lib/domain/checkout-sessions/serialize";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const GET = merchantApi(OPERATIONS.getCheckoutSession, async ({ db, merchant, params, now }) => {
  const session = await getCheckoutSession(db, merchant.id, params.id);
  return { status: 200, body: serializeCheckoutSession(session, now) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
