// POST /v1/sandbox/deliveries/{id}/attempt - test helper: run a callback delivery's next attempt now
import { attemptDeliveryNow } from "@/lib/domain/callbacks/deliveries";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const POST = merchantApi(OPERATIONS.attemptSandboxDelivery, async ({ tx, merchant, params }) => {
  const delivery = await attemptDeliveryNow(tx, { merchantId: merchant.id, deliveryId: params.id });
  return { status: 200, body: delivery, resourceId: delivery.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
