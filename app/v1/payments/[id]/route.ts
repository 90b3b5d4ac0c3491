// GET /v1/payments/{id} - one payment with checkout and customer detail
import { merchantApi } from "@/lib/http/pipeline";
import { methodsNotAllowed } from "@/lib/http/fallback";
import { getPayment } from "@/lib/payments/read";
import { serializePayment } from "@/lib/payments/serialize";
import { OPERATIONS, pipelineOptions } from "@/lib/openapi/operations";

export const GET = merchantApi(pipelineOptions(OPERATIONS.getPayment), async ({ db, merchant, params }) => {
  const payment = await getPayment(db, merchant.id, params.id);
  return { status: 200, body: serializePayment(payment, { detail: true }) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
