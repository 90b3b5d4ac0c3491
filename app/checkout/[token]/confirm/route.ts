// POST /checkout/{token}/confirm - the customer confirms the quoted total (session -> AWAITING_VERIFICATION)
import { confirmCheckoutSession } from "@/lib/checkout-sessions/confirm";
import { customerSessionAnswer } from "@/lib/checkout-sessions/serialize";
import { customerAction } from "@/lib/http/customer-pipeline";
import { CUSTOMER_OPERATIONS } from "@/lib/openapi/customer-operations";

export const dynamic = "force-dynamic";
export const POST = customerAction(CUSTOMER_OPERATIONS.confirmCheckoutPage, async ({ token, body, now }) => {
  const session = await confirmCheckoutSession(token, body, now);
  return { body: customerSessionAnswer(session, now), log: { checkoutSessionId: session.id, action: "confirm", state: session.state } };
});
