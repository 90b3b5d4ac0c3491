// POST /v1/sandbox/clock/reset - back to the real time (docs/api.md "Sandbox clock")
import { apiKeyAuditActor } from "@/lib/audit";
import { methodsNotAllowed } from "@/lib/http/fallback";
import { merchantApi } from "@/lib/http/pipeline";
import { OPERATIONS } from "@/lib/openapi/operations";
import { moveSandboxClock } from "@/lib/sandbox-clock/clock";

export const POST = merchantApi(OPERATIONS.resetSandboxClock, async ({ tx, apiKey, merchant }) => {
  const moved = await moveSandboxClock(tx, apiKeyAuditActor(apiKey), { merchantId: merchant.id, by: null, reason: "POST /v1/sandbox/clock/reset" });
  return { status: 200, body: moved, resourceId: merchant.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
