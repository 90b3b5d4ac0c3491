// POST /v1/store-payments - create a fixed-amount store payment (checkout QUEUED; the url comes later by polling)
import { merchantApi } from "@/lib/application/http/pipeline";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { getPayment } from "@/lib/domain/payments/read";
import { serializeStorePayment } from "@/lib/domain/payments/serialize";
import { OPERATIONS } from "@/lib/application/openapi/operations";
import { createStorePayment } from "@/lib/simulators/store/create-store-payment";

export const POST = merchantApi(
  OPERATIONS.createStorePayment,
  {
    // docs/api.md "Idempotency" 4: a replay returns the same payment id with the current checkout state.
    replay: async ({ db, merchant }, stored) => {
      const payment = await getPayment(db, merchant.id, stored.resourceId!);
      return { status: stored.status, body: serializeStorePayment(payment), resourceId: payment.id };
    },
  },
  async ({ tx, apiKey, body, now }) => {
    const payment = await createStorePayment(tx, { apiKey, body, now });
    return { status: 201, body: serializeStorePayment(payment), resourceId: payment.id };
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
