// GET /v1/events - list the merchant's events (newest first), or follow them with after=<event id>
import { listEvents } from "@/lib/domain/events/feed";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const GET = merchantApi(OPERATIONS.listEvents, async ({ db, merchant, query }) => {
  return { status: 200, body: await listEvents(db, merchant.id, query) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
