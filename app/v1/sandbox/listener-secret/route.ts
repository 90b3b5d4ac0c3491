// GET /v1/sandbox/listener-secret - where the calling key's listener secret stands (docs/callbacks.md "Rotating the secret")
import { systemNow } from "@/lib/platform/clock";
import { listenerSecretState } from "@/lib/domain/callbacks/secret-rotation";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const GET = merchantApi(OPERATIONS.getListenerSecret, async ({ db, apiKey }) => {
  return { status: 200, body: await listenerSecretState(db, apiKey.id, systemNow()) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
