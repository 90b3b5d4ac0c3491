// GET /api/console/reports/payments - data of the console's payments chart (lib/domain/reports/payments-overview.ts), polled by SWR;
// ?merchant=<id> narrows an operator's view to one merchant (a MERCHANT user always sees its own).
import { consoleJson } from "@/lib/application/console/json";
import { getDb } from "@/lib/platform/db";
import { paymentsOverview } from "@/lib/domain/reports/payments-overview";
import { reportMerchantParam } from "@/lib/domain/reports/days";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return consoleJson((actor) => paymentsOverview(getDb(), actor, { merchantId: reportMerchantParam(new URL(request.url).searchParams.get("merchant")) }));
}
