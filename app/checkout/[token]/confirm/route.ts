// POST /checkout/{token}/confirm - the customer confirms the quoted total (session -> AWAITING_VERIFICATION)
import { confirmCheckoutSession } from "@/lib/domain/checkout-sessions/confirm";
import { customerSessionAnswer } from "@/lib/domain/checkout-sessions/serialize";
import { customerAction } from "@/lib/application/http/customer-pipeline";
import { CUSTOMER_OPERATIONS } from "@/lib/application/openapi/customer-operations";

export const dynamic = "force-dynamic";
export const POST = customerAction(CUSTOMER_OPERATIONS.confirmCheckoutPage, async ({ token, body, now }) => {
  const session = await confirmCheckoutSession(token, body, now);
  return { body: customerSessionAnswer(session, now), log: { checkoutSessionId: session.id, action: "confirm", state: session.state } };
});
