// GET /api/console/deliveries - the console's callback deliveries (state, merchant, page), polled by SWR
import { DeliveryFilters, deliveryPage } from "@/lib/domain/callbacks/manage-callbacks";
import { consoleJson } from "@/lib/application/console/json";
import { getDb } from "@/lib/platform/db";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return consoleJson((actor) => deliveryPage(getDb(), actor, DeliveryFilters.parse(Object.fromEntries(new URL(request.url).searchParams))));
}
