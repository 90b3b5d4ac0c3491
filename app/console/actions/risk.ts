"use server";

import { consoleAction } from "@/lib/application/console/action";
import { addRiskRule, RemoveRiskRuleForm, removeRiskRule, RiskRuleForm } from "@/lib/domain/risk/velocity-rules";

/** Adds a velocity rule to a merchant (operators; audited with the reason). */
export const addRiskRuleAction = consoleAction(RiskRuleForm, async ({ actor, tx, input, now }) => {
  const rule = await addRiskRule(tx, actor, input, now);
  return {
    message: `Added the rule: ${rule.kind === "COUNT" ? `at most ${rule.maxCount} payment${rule.maxCount === 1 ? "" : "s"}` : `at most ${rule.maxAmount} ${rule.currency}`} per ${rule.subjectLabel} within ${rule.windowSeconds / 60} minutes. It applies to the next payment.`,
  };
});

/** Removes a velocity rule (operators; audited with the reason). */
export const removeRiskRuleAction = consoleAction(RemoveRiskRuleForm, async ({ actor, tx, input, now }) => {
  await removeRiskRule(tx, actor, input, now);
  return { message: "Removed the rule." };
});
