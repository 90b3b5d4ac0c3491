// POST /v1/sandbox/payments/{id}/expire - test helper: expire a pending test payment now, as the expiry sweep does
import { merchantApi } from "@/lib/application/http/pipeline";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { expirePaymentNow } from "@/lib/domain/payments/sandbox-expire";
import { serializePayment } from "@/lib/domain/payments/serialize";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const POST = merchantApi(OPERATIONS.expireSandboxPayment, async ({ tx, merchant, params, now }) => {
  const payment = await expirePaymentNow(tx, { merchantId: merchant.id, paymentId: params.id, now });
  return { status: 200, body: serializePayment(payment, { detail: true }), resourceId: payment.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
