// POST /v1/sandbox/callback-secret/end-overlap - the previous callback secret stops signing now (docs/callbacks.md "Rotating the secret")
import { apiKeyAuditActor } from "@/lib/domain/audit";
import { endCallbackSecretOverlap } from "@/lib/domain/callbacks/secret-rotation";
import { systemNow } from "@/lib/platform/clock";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const POST = merchantApi(OPERATIONS.endCallbackSecretOverlap, async ({ tx, apiKey, merchant }) => {
  const state = await endCallbackSecretOverlap(
    tx,
    apiKeyAuditActor(apiKey),
    { merchantId: merchant.id, reason: "POST /v1/sandbox/callback-secret/end-overlap" },
    systemNow(),
  );
  return { status: 200, body: state, resourceId: merchant.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
