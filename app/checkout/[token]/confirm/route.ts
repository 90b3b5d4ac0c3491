// POST /checkout/{token}/confirm - the customer confirms the quoted total (session -> AWAITING_VERIFICATION)
import { confirmCheckoutSession } from "@/lib/checkout-sessions/confirm";
import { customerSessionAnswer } from "@/lib/checkout-sessions/serialize";
import { customerAction } from "@/lib/http/customer-pipeline";
import { CustomerAmount } from "@/lib/schemas/api/checkout-sessions";

export const dynamic = "force-dynamic";
export const POST = customerAction({ body: CustomerAmount, logMessage: "customer checkout action" }, async ({ token, body, now }) => {
  const session = await confirmCheckoutSession(token, body, now);
  return { body: customerSessionAnswer(session, now), log: { checkoutSessionId: session.id, action: "confirm", state: session.state } };
});
