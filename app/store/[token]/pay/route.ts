// POST /store/{token}/pay - the store's sandbox test confirmation: pay (checkout and payment SUCCEEDED)
import { customerAction } from "@/lib/application/http/customer-pipeline";
import { CUSTOMER_OPERATIONS } from "@/lib/application/openapi/customer-operations";
import { confirmStoreCheckout } from "@/lib/simulators/store/confirm";

export const dynamic = "force-dynamic";
export const POST = customerAction(CUSTOMER_OPERATIONS.payStorePage, async ({ token, now }) => {
  const result = await confirmStoreCheckout(token, "SUCCEEDED", now);
  return { body: { state: result.state, status: result.status }, log: { paymentId: result.paymentId, outcome: "SUCCEEDED", state: result.state } };
});
