"use server";

import { consoleAction } from "@/lib/application/console/action";
import {
  addRuleFromConsole,
  addStandardFromConsole,
  deleteRuleFromConsole,
  ScenarioMerchant,
  ScenarioRuleForm,
  ScenarioRuleSwitch,
  ScenarioRuleTarget,
  switchRuleFromConsole,
} from "@/lib/domain/scenarios/manage";
import { countOf } from "@/lib/application/console/words";

/** Adds a scenario rule (docs/api.md "Scenario rules"). */
export const addScenarioRuleAction = consoleAction(ScenarioRuleForm, async ({ actor, tx, input, now }) => {
  const rule = await addRuleFromConsole(tx, actor, input, now);
  return { message: `Added the rule "${rule.name}"${rule.enabled ? "" : " (off: enable it to apply it)"}.` };
});

/** Enables or disables a rule. */
export const switchScenarioRuleAction = consoleAction(ScenarioRuleSwitch, async ({ actor, tx, input, now }) => {
  const rule = await switchRuleFromConsole(tx, actor, input, now);
  return { message: `The rule "${rule.name}" is ${rule.enabled ? "on: it applies to new payments" : "off"}.` };
});

/** Deletes a rule. */
export const deleteScenarioRuleAction = consoleAction(ScenarioRuleTarget, async ({ actor, tx, input, now }) => {
  await deleteRuleFromConsole(tx, actor, input, now);
  return { message: "Deleted the rule; payments it already matched keep their conclusion." };
});

/** Adds the standard set, enabled. */
export const addStandardScenarioRulesAction = consoleAction(ScenarioMerchant, async ({ actor, tx, input, now }) => {
  const page = await addStandardFromConsole(tx, actor, input, now);
  return { message: `The standard set is on (${countOf(page.total, "rule")} in all).` };
});
