// PATCH /v1/sandbox/scenario-rules/{id} - change a scenario rule; DELETE - delete it (both audited)
import { apiKeyAuditActor } from "@/lib/domain/audit";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";
import { deleteScenarioRule, updateScenarioRule } from "@/lib/domain/scenarios/rules";

export const PATCH = merchantApi(OPERATIONS.updateScenarioRule, async ({ tx, apiKey, merchant, params, body, now }) => {
  const rule = await updateScenarioRule(tx, apiKeyAuditActor(apiKey), merchant.id, params.id, body, now);
  return { status: 200, body: rule, resourceId: rule.id };
});

export const DELETE = merchantApi(OPERATIONS.deleteScenarioRule, async ({ tx, apiKey, merchant, params, now }) => {
  return { status: 200, body: await deleteScenarioRule(tx, apiKeyAuditActor(apiKey), merchant.id, params.id, now) };
});

export const { GET, POST, PUT, OPTIONS } = methodsNotAllowed(["PATCH", "DELETE"]);
