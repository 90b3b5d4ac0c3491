// POST /v1/payments - create a sandbox deposit or withdrawal
// GET  /v1/payments - list the merchant's payments
import { merchantApi } from "@/lib/application/http/pipeline";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { createPayment, createPaymentLoad } from "@/lib/domain/payments/create";
import { listLoad, pageFromReads } from "@/lib/domain/payments/read";
import { serializePayment } from "@/lib/domain/payments/serialize";
import { OPERATIONS } from "@/lib/application/openapi/operations";

// One statement reads (with the key) and one writes (docs/architecture.md "Hot paths"): the entry's
// `idempotency: "statement"` gives the handler `commit`.
export const POST = merchantApi(OPERATIONS.createPayment, { load: createPaymentLoad }, async ({ apiKey, body, now, loaded, commit }) =>
  createPayment({ apiKey, body, now, loaded, commit }),
);

// The page and its total are read in the key's statement.
export const GET = merchantApi(OPERATIONS.listPayments, { load: listLoad }, async ({ loaded, query }) => {
  const { items, ...page } = pageFromReads(loaded, query);
  return { status: 200, body: { items: items.map((r) => serializePayment(r, { detail: false })), ...page } };
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
