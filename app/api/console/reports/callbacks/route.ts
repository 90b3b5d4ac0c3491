// GET /api/console/reports/callbacks - data of the console's callbacks chart (lib/reports/callbacks-overview.ts), polled by SWR;
// ?merchant=<id> narrows an operator's view to one merchant (a MERCHANT user always sees its own).
import { consoleJson } from "@/lib/console/json";
import { getDb } from "@/lib/db";
import { callbacksOverview } from "@/lib/reports/callbacks-overview";
import { reportMerchantParam } from "@/lib/reports/days";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return consoleJson((actor) => callbacksOverview(getDb(), actor, { merchantId: reportMerchantParam(new URL(request.url).searchParams.get("merchant")) }));
}
