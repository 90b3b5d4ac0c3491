// POST /v1/checkout-sessions - open a customer amount-entry checkout session
import { merchantApi } from "@/lib/http/pipeline";
import { methodsNotAllowed } from "@/lib/http/fallback";
import { createCheckoutSession } from "@/lib/checkout-sessions/create";
import { serializeCheckoutSession } from "@/lib/checkout-sessions/serialize";
import { OPERATIONS } from "@/lib/openapi/operations";

export const POST = merchantApi(OPERATIONS.createCheckoutSession, async ({ tx, merchant, body, now }) => {
  const session = await createCheckoutSession(tx, { merchant, body, now });
  return { status: 201, body: serializeCheckoutSession(session, now), resourceId: session.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
