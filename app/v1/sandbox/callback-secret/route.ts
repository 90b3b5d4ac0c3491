// GET /v1/sandbox/callback-secret - where the merchant's callback secret stands (docs/callbacks.md "Rotating the secret")
import { systemNow } from "@/lib/platform/clock";
import { callbackSecretState } from "@/lib/domain/callbacks/secret-rotation";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const GET = merchantApi(OPERATIONS.getCallbackSecret, async ({ db, merchant }) => {
  return { status: 200, body: await callbackSecretState(db, merchant.id, systemNow()) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
