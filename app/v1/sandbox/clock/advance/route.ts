// POST /v1/sandbox/clock/advance - move the merchant's sandbox time ahead (docs/api.md "Sandbox clock")
import { apiKeyAuditActor } from "@/lib/audit";
import { methodsNotAllowed } from "@/lib/http/fallback";
import { merchantApi } from "@/lib/http/pipeline";
import { OPERATIONS } from "@/lib/openapi/operations";
import { moveSandboxClock } from "@/lib/sandbox-clock/clock";

export const POST = merchantApi(OPERATIONS.advanceSandboxClock, async ({ tx, apiKey, merchant, body }) => {
  const moved = await moveSandboxClock(tx, apiKeyAuditActor(apiKey), {
    merchantId: merchant.id,
    by: body.by,
    reason: `POST /v1/sandbox/clock/advance by ${body.by}`,
  });
  return { status: 200, body: moved, resourceId: merchant.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
