// POST /v1/store-payments - create a fixed-amount store payment (checkout QUEUED; the url comes later by polling)
import { merchantApi } from "@/lib/http/pipeline";
import { methodsNotAllowed } from "@/lib/http/fallback";
import { getPayment } from "@/lib/payments/read";
import { serializePayment } from "@/lib/payments/serialize";
import { OPERATIONS, pipelineOptions } from "@/lib/openapi/operations";
import { createStorePayment } from "@/lib/store/create-store-payment";

export const POST = merchantApi(
  {
    ...pipelineOptions(OPERATIONS.createStorePayment),
    // docs/api.md "Idempotency" 4: a replay returns the same payment id with the current checkout state.
    replay: async ({ db, merchant }, stored) => {
      const payment = await getPayment(db, merchant.id, stored.resourceId!);
      return { status: stored.status, body: serializePayment(payment, { detail: true }), resourceId: payment.id };
    },
  },
  async ({ tx, apiKey, body, now }) => {
    const payment = await createStorePayment(tx, { apiKey, body, now });
    return { status: 201, body: serializePayment(payment, { detail: true }), resourceId: payment.id };
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
