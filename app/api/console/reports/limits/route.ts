// GET /api/console/reports/limits - data of the console's limits chart (lib/reports/limit-usage.ts), polled by SWR;
// ?merchant=<id> narrows an operator's view to one merchant (a MERCHANT user always sees its own).
import { consoleJson } from "@/lib/console/json";
import { getDb } from "@/lib/db";
import { limitUsage } from "@/lib/reports/limit-usage";
import { reportMerchantParam } from "@/lib/reports/days";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return consoleJson((actor) => limitUsage(getDb(), actor, { merchantId: reportMerchantParam(new URL(request.url).searchParams.get("merchant")) }));
}
