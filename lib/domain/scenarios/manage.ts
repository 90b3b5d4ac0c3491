// The console's side of scenario rules (docs/api.md "Scenario rules"): form inputs and the access check, then the
// same service as the API (lib/domain/scenarios/rules.ts), which writes the audit row in the action's transaction.
import { z } from "zod";
import { assertMerchantAccess, auditActor, type ConsoleActor } from "@/lib/domain/auth/actor";
import type { Db, Tx } from "@/lib/platform/db";
import { checkbox, integer, optionalText, text, uuidField } from "@/lib/contract/schemas/forms/fields";
import { FailureCode, failureCodeOnlyWithFailed } from "@/lib/contract/schemas/api/failure-codes";
import { MAX_SCENARIO_DELAY_MS, ScenarioMatch, ScenarioOutcome } from "@/lib/contract/schemas/api/scenario-rules";
import { addStandardRules, createScenarioRule, deleteScenarioRule, listScenarioRules, updateScenarioRule } from "@/lib/domain/scenarios/rules";

/**
 * The console's "Add a rule" form: match by amount and/or reference prefix, an outcome, a delay in seconds and, with
 * outcome FAILED, an optional failure code (docs/api.md "Failure codes"; empty = none).
 */
export const ScenarioRuleForm = z
  .object({
    merchantId: uuidField,
    name: text(100, "name"),
    amount: optionalText(13),
    referencePrefix: optionalText(64),
    outcome: ScenarioOutcome,
    delaySeconds: integer(0, MAX_SCENARIO_DELAY_MS / 1000),
    failureCode: z.preprocess((v) => (v === "" ? undefined : v), FailureCode.optional()),
    enabled: checkbox,
  })
  .transform((f, ctx) => {
    const match = ScenarioMatch.safeParse({ ...(f.amount ? { amount: f.amount } : {}), ...(f.referencePrefix ? { referencePrefix: f.referencePrefix } : {}) });
    if (!match.success) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: match.error.issues[0]?.message ?? "give an amount or a reference prefix" });
      return z.NEVER;
    }
    if (f.failureCode && f.outcome !== "FAILED") {
      ctx.addIssue({ code: "custom", path: ["failureCode"], message: `the failure code ${failureCodeOnlyWithFailed(f.outcome)}` });
      return z.NEVER;
    }
    const rule = { name: f.name, enabled: f.enabled, match: match.data, outcome: f.outcome, delayMs: f.delaySeconds * 1000 };
    return { merchantId: f.merchantId, rule: f.failureCode ? { ...rule, failureCode: f.failureCode } : rule };
  });

export const ScenarioRuleSwitch = z.object({ merchantId: uuidField, ruleId: uuidField, enabled: checkbox });
export const ScenarioRuleTarget = z.object({ merchantId: uuidField, ruleId: uuidField });
export const ScenarioMerchant = z.object({ merchantId: uuidField });

/**
 * A merchant's rules for the console (MERCHANT users: their own merchant; operators: any).
 * @throws ApiError 404 NOT_FOUND for another merchant's rules
 */
export function scenarioRulesFor(db: Db, actor: ConsoleActor, merchantId: string) {
  assertMerchantAccess(actor, merchantId, "merchant");
  return listScenarioRules(db, merchantId);
}

/** "Add a rule" (audited). @throws ApiError 404 NOT_FOUND, 400 VALIDATION_ERROR (100 rules already) */
export function addRuleFromConsole(tx: Tx, actor: ConsoleActor, input: z.output<typeof ScenarioRuleForm>, now: Date) {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  return createScenarioRule(tx, auditActor(actor), input.merchantId, input.rule, now);
}

/** "Enable" / "Disable" on a rule (audited). @throws ApiError 404 NOT_FOUND */
export function switchRuleFromConsole(tx: Tx, actor: ConsoleActor, input: z.output<typeof ScenarioRuleSwitch>, now: Date) {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  return updateScenarioRule(tx, auditActor(actor), input.merchantId, input.ruleId, { enabled: input.enabled }, now);
}

/** "Delete" on a rule (audited). @throws ApiError 404 NOT_FOUND */
export function deleteRuleFromConsole(tx: Tx, actor: ConsoleActor, input: z.output<typeof ScenarioRuleTarget>, now: Date) {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  return deleteScenarioRule(tx, auditActor(actor), input.merchantId, input.ruleId, now);
}

/** "Add the standard set" (docs/guides/test-every-path.md "Testing your integration"; audited). @throws ApiError 404 NOT_FOUND */
export function addStandardFromConsole(tx: Tx, actor: ConsoleActor, input: z.output<typeof ScenarioMerchant>, now: Date) {
  assertMerchantAccess(actor, input.merchantId, "merchant");
  return addStandardRules(tx, auditActor(actor), input.merchantId, now);
}
