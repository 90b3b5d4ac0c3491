// POST /v1/payments - create a sandbox deposit or withdrawal
// GET  /v1/payments - list the merchant's payments
import { merchantApi } from "@/lib/http/pipeline";
import { methodsNotAllowed } from "@/lib/http/fallback";
import { createPayment } from "@/lib/payments/create";
import { listPayments } from "@/lib/payments/read";
import { serializePayment } from "@/lib/payments/serialize";
import { OPERATIONS, pipelineOptions } from "@/lib/openapi/operations";

export const POST = merchantApi(
  pipelineOptions(OPERATIONS.createPayment),
  async ({ tx, apiKey, body, now }) => {
    const payment = await createPayment(tx, { apiKey, body, now });
    return { status: 201, body: serializePayment(payment, { detail: true }), resourceId: payment.id };
  },
);

export const GET = merchantApi(pipelineOptions(OPERATIONS.listPayments), async ({ db, merchant, query }) => {
  const { items, ...page } = await listPayments(db, merchant.id, query);
  return { status: 200, body: { items: items.map((r) => serializePayment(r, { detail: false })), ...page } };
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
