// POST /v1/sandbox/scenario-rules/standard - add the standard set of scenario rules (docs/guides/test-every-path.md "Testing your integration")
import { apiKeyAuditActor } from "@/lib/domain/audit";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";
import { addStandardRules } from "@/lib/domain/scenarios/rules";

export const POST = merchantApi(OPERATIONS.addStandardScenarioRules, async ({ tx, apiKey, merchant, now }) => {
  return { status: 200, body: await addStandardRules(tx, apiKeyAuditActor(apiKey), merchant.id, now) };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
