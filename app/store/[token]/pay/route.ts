// POST /store/{token}/pay - the store's sandbox test confirmation: pay (checkout and payment SUCCEEDED)
import { storeConfirmationAction } from "@/lib/store/confirm-endpoint";

export const dynamic = "force-dynamic";
export const POST = storeConfirmationAction("SUCCEEDED");
