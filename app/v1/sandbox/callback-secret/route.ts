// GET /v1/sandbox/callback-secret - where the merchant's callback secret stands (docs/callbacks.md "Rotating the secret")
import { systemNow } from "@/lib/clock";
import { callbackSecretState } from "@/lib/callbacks/secret-rotation";
import { methodsNotAllowed } from "@/lib/http/fallback";
import { merchantApi } from "@/lib/http/pipeline";
import { OPERATIONS } from "@/lib/openapi/operations";

export const GET = merchantApi(OPERATIONS.getCallbackSecret, async ({ db, merchant }) => {
  return { status: 200, body: await callbackSecretState(db, merchant.id, systemNow()) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
