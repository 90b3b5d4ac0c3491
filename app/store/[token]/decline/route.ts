// POST /store/{token}/decline - the store's sandbox test confirmation: decline (checkout and payment FAILED)
import { storeConfirmationAction } from "@/lib/store/confirm-endpoint";

export const dynamic = "force-dynamic";
export const POST = storeConfirmationAction("FAILED");
