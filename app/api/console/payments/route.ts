// GET /api/console/payments - the console's payment list (same filters as GET /v1/payments), polled by SWR
import { consoleJson } from "@/lib/application/console/json";
import { parsePaymentFilters } from "@/lib/application/console/payment-filters";
import { listConsolePayments } from "@/lib/domain/payments/payment-views";
import { getDb } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return consoleJson(async (actor) => {
    const filters = parsePaymentFilters(Object.fromEntries(new URL(request.url).searchParams));
    if (!filters.ok) throw apiError("VALIDATION_ERROR", filters.error);
    return listConsolePayments(getDb(), actor, filters.query, filters.merchant);
  });
}
