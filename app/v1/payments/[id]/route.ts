// GET /v1/payments/{id} - one payment with checkout and customer detail
import { merchantApi } from "@/lib/application/http/pipeline";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { getPayment, paymentLoad } from "@/lib/domain/payments/read";
import { serializePayment } from "@/lib/domain/payments/serialize";
import { OPERATIONS } from "@/lib/application/openapi/operations";

// The payment is read in the key's statement (docs/architecture.md "Hot paths").
export const GET = merchantApi(OPERATIONS.getPayment, { load: paymentLoad }, async ({ db, merchant, params, loaded }) => {
  const payment = await getPayment(db, merchant.id, params.id, loaded);
  return { status: 200, body: serializePayment(payment, { detail: true }) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
