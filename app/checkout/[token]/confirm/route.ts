// POST /checkout/{token}/confirm - the customer confirms the quoted total (session -> AWAITING_VERIFICATION)
import { customerCheckoutAction } from "@/lib/checkout-sessions/customer-endpoint";
import { confirmCheckoutSession } from "@/lib/checkout-sessions/confirm";

export const dynamic = "force-dynamic";
export const POST = customerCheckoutAction(confirmCheckoutSession);
