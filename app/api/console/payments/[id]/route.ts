// GET /api/console/payments/{id} - one payment's console view (404 for another merchant's), polled by SWR
import { consoleJson } from "@/lib/application/console/json";
import { getPaymentView } from "@/lib/domain/payments/payment-views";
import { getDb } from "@/lib/platform/db";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return consoleJson((actor) => getPaymentView(getDb(), actor, id));
}
