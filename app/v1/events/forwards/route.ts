// POST /v1/events/forwards - record what sandpiper listen reports of its forward attempts
import { recordForwards } from "@/lib/domain/events/listener-forwards";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const POST = merchantApi(OPERATIONS.recordForwards, async ({ db, merchant, apiKey, body }) => {
  return { status: 200, body: await recordForwards(db, merchant.id, apiKey.id, body) };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
