// POST /v1/sandbox/clock/reset - back to the real time (docs/api.md "Sandbox clock")
import { apiKeyAuditActor } from "@/lib/domain/audit";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";
import { moveSandboxClock } from "@/lib/simulators/sandbox-clock/clock";

export const POST = merchantApi(OPERATIONS.resetSandboxClock, async ({ tx, apiKey, merchant }) => {
  const moved = await moveSandboxClock(tx, apiKeyAuditActor(apiKey), { merchantId: merchant.id, by: null, reason: "POST /v1/sandbox/clock/reset" });
  return { status: 200, body: moved, resourceId: merchant.id };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
