// POST /v1/events/{id}/redeliver - a fresh delivery of the event to the configured address and running listeners
import { redeliverEvent } from "@/lib/domain/events/feed";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const POST = merchantApi(OPERATIONS.redeliverEvent, async ({ tx, merchant, params, now }) => {
  return { status: 201, body: await redeliverEvent(tx, merchant.id, params.id, now) };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
