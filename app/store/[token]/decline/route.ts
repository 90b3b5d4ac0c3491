// POST /store/{token}/decline - the store's sandbox test confirmation: decline (checkout and payment FAILED)
import { customerAction } from "@/lib/application/http/customer-pipeline";
import { CUSTOMER_OPERATIONS } from "@/lib/application/openapi/customer-operations";
import { confirmStoreCheckout } from "@/lib/simulators/store/confirm";

export const dynamic = "force-dynamic";
export const POST = customerAction(CUSTOMER_OPERATIONS.declineStorePage, async ({ token, now }) => {
  const result = await confirmStoreCheckout(token, "FAILED", now);
  return { body: { state: result.state, status: result.status }, log: { paymentId: result.paymentId, outcome: "FAILED", state: result.state } };
});
