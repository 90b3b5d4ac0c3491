// POST /v1/events/{id}/redeliver - a fresh delivery of the event to the configured address and running listeners
import { redeliverEvent } from "@/lib/events/feed";
import { methodsNotAllowed } from "@/lib/http/fallback";
import { merchantApi } from "@/lib/http/pipeline";
import { OPERATIONS } from "@/lib/openapi/operations";

export const POST = merchantApi(OPERATIONS.redeliverEvent, async ({ tx, merchant, params, now }) => {
  return { status: 201, body: await redeliverEvent(tx, merchant.id, params.id, now) };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
