// GET /api/console/reports/callbacks - data of the console's callbacks chart (lib/domain/reports/callbacks-overview.ts), polled by SWR;
// ?merchant=<id> narrows an operator's view to one merchant (a MERCHANT user always sees its own).
import { consoleJson } from "@/lib/application/console/json";
import { getDb } from "@/lib/platform/db";
import { callbacksOverview } from "@/lib/domain/reports/callbacks-overview";
import { reportMerchantParam } from "@/lib/domain/reports/days";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return consoleJson((actor) => callbacksOverview(getDb(), actor, { merchantId: reportMerchantParam(new URL(request.url).searchParams.get("merchant")) }));
}
