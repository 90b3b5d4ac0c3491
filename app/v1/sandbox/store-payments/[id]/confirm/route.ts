// POST /v1/sandbox/store-payments/{id}/confirm - test helper: the store's test confirmation (Pay or Decline)
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";
import { serializeStorePayment } from "@/lib/domain/payments/serialize";
import { confirmStorePaymentAsStore } from "@/lib/simulators/store/confirm";

export const POST = merchantApi(OPERATIONS.confirmSandboxStorePayment, async ({ tx, merchant, params, body, now }) => {
  const payment = await confirmStorePaymentAsStore(tx, { merchantId: merchant.id, paymentId: params.id, outcome: body.outcome, now });
  return { status: 200, body: serializeStorePayment(payment), resourceId: payment.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
