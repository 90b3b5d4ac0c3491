// GET /v1/sandbox/scenario-rules - list the merchant's scenario rules; POST - add one (audited)
import { apiKeyAuditActor } from "@/lib/domain/audit";
import { methodsNotAllowed } from "@/lib/application/http/fallback";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";
import { createScenarioRule, listScenarioRules } from "@/lib/domain/scenarios/rules";

export const GET = merchantApi(OPERATIONS.listScenarioRules, async ({ db, merchant }) => {
  return { status: 200, body: await listScenarioRules(db, merchant.id) };
});

export const POST = merchantApi(OPERATIONS.createScenarioRule, async ({ tx, apiKey, merchant, body, now }) => {
  const rule = await createScenarioRule(tx, apiKeyAuditActor(apiKey), merchant.id, body, now);
  return { status: 201, body: rule, resourceId: rule.id };
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
