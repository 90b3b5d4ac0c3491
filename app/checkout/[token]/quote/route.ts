// POST /checkout/{token}/quote - the customer chooses amount and currency (session -> QUOTED)
import { customerCheckoutAction } from "@/lib/checkout-sessions/customer-endpoint";
import { quoteCheckoutSession } from "@/lib/checkout-sessions/quote";

export const dynamic = "force-dynamic";
export const POST = customerCheckoutAction(quoteCheckoutSession);
