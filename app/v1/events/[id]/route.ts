// GET /v1/events/{id} - one event exactly as delivered, with its deliveries and attempts
import { getEvent } from "@/lib/domain/events/feed";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const GET = merchantApi(OPERATIONS.getEvent, async ({ db, merchant, params }) => {
  return { status: 200, body: await getEvent(db, merchant.id, params.id) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
