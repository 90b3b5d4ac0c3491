// POST /v1/sandbox/clock/advance - move the merchant's sandbox time ahead (docs/api.md "Sandbox clock")
import { apiKeyAuditActor } from "@/lib/domain/audit";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";
import { moveSandboxClock } from "@/lib/simulators/sandbox-clock/clock";

export const POST = merchantApi(OPERATIONS.advanceSandboxClock, async ({ tx, apiKey, merchant, body }) => {
  const moved = await moveSandboxClock(tx, apiKeyAuditActor(apiKey), {
    merchantId: merchant.id,
    by: body.by,
    reason: `POST /v1/sandbox/clock/advance by ${body.by}`,
  });
  return { status: 200, body: moved, resourceId: merchant.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
