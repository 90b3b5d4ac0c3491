// POST /v1/sandbox/payments/{id}/complete - conclude a pending test payment as SUCCEEDED or FAILED (with FAILED, optionally
// a failure code: docs/api.md "Failure codes")
import { merchantApi } from "@/lib/application/http/pipeline";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { completePayment } from "@/lib/domain/payments/complete";
import { serializePayment } from "@/lib/domain/payments/serialize";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const POST = merchantApi(OPERATIONS.completeSandboxPayment, async ({ tx, merchant, params, body, now }) => {
  const { outcome, failureCode } = body;
  const payment = await completePayment(tx, { merchantId: merchant.id, paymentId: params.id, outcome, failureCode, now });
  return { status: 200, body: serializePayment(payment, { detail: true }), resourceId: payment.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
