// GET /api/console/reports/limits - data of the console's limits chart (lib/domain/reports/limit-usage.ts), polled by SWR;
// ?merchant=<id> narrows an operator's view to one merchant (a MERCHANT user always sees its own).
import { consoleJson } from "@/lib/application/console/json";
import { getDb } from "@/lib/platform/db";
import { limitUsage } from "@/lib/domain/reports/limit-usage";
import { reportMerchantParam } from "@/lib/domain/reports/days";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return consoleJson((actor) => limitUsage(getDb(), actor, { merchantId: reportMerchantParam(new URL(request.url).searchParams.get("merchant")) }));
}
