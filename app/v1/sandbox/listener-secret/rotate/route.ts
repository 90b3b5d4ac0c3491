// POST /v1/sandbox/listener-secret/rotate - the calling key's new listen secret, the previous one signing for an overlap (docs/callbacks.md "Rotating the secret")
import { apiKeyAuditActor } from "@/lib/domain/audit";
import { parseOverlap, rotateListenerSecret } from "@/lib/domain/callbacks/secret-rotation";
import { systemNow } from "@/lib/platform/clock";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";

export const POST = merchantApi(OPERATIONS.rotateListenerSecret, async ({ tx, apiKey, merchant, body }) => {
  const overlapMs = parseOverlap(body.overlap);
  const rotated = await rotateListenerSecret(
    tx,
    apiKeyAuditActor(apiKey),
    { apiKeyId: apiKey.id, merchantId: merchant.id, overlapMs, reason: `POST /v1/sandbox/listener-secret/rotate, overlap ${body.overlap ?? "24h"}` },
    systemNow(),
  );
  return { status: 200, body: rotated, resourceId: merchant.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
