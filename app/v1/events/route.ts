// GET /v1/events - list the merchant's events (newest first), or follow them with after=<event id>
import { listEvents } from "@/lib/events/feed";
import { methodsNotAllowed } from "@/lib/http/fallback";
import { merchantApi } from "@/lib/http/pipeline";
import { OPERATIONS } from "@/lib/openapi/operations";

export const GET = merchantApi(OPERATIONS.listEvents, async ({ db, merchant, query }) => {
  return { status: 200, body: await listEvents(db, merchant.id, query) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
