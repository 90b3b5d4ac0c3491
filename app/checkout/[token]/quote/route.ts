// POST /checkout/{token}/quote - the customer chooses amount and currency (session -> QUOTED)
import { quoteCheckoutSession } from "@/lib/domain/checkout-sessions/quote";
import { customerSessionAnswer } from "@/lib/domain/checkout-sessions/serialize";
import { customerAction } from "@/lib/application/http/customer-pipeline";
import { CUSTOMER_OPERATIONS } from "@/lib/application/openapi/customer-operations";

export const dynamic = "force-dynamic";
export const POST = customerAction(CUSTOMER_OPERATIONS.quoteCheckoutPage, async ({ token, body, now }) => {
  const session = await quoteCheckoutSession(token, body, now);
  return { body: customerSessionAnswer(session, now), log: { checkoutSessionId: session.id, action: "quote", state: session.state } };
});
