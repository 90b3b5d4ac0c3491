// GET /v1/events/{id} - one event exactly as delivered, with its deliveries and attempts
import { getEvent } from "@/lib/events/feed";
import { methodsNotAllowed } from "@/lib/http/fallback";
import { merchantApi } from "@/lib/http/pipeline";
import { OPERATIONS } from "@/lib/openapi/operations";

export const GET = merchantApi(OPERATIONS.getEvent, async ({ db, merchant, params }) => {
  return { status: 200, body: await getEvent(db, merchant.id, params.id) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
