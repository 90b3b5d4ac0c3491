// POST /v1/checkout-sessions - open a customer amount-entry checkout session
import { merchantApi } from "@/lib/application/http/pipeline";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { createCheckoutSession } from "@/lib/domain/checkout-sessions/create";
import { serializeCheckoutSession } from "@/lib/domain/checkout-sessions/serialize";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const POST = merchantApi(OPERATIONS.createCheckoutSession, async ({ tx, merchant, body, now }) => {
  const session = await createCheckoutSession(tx, { merchant, body, now });
  return { status: 201, body: serializeCheckoutSession(session, now), resourceId: session.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
