import { ActionForm, Checkbox, Field, Hidden, SubmitButton } from "@/components/console/forms";
import { Card, EmptyState } from "@/components/console/ui";
import {
  addScenarioRuleAction,
  addStandardScenarioRulesAction,
  deleteScenarioRuleAction,
  switchScenarioRuleAction,
} from "@/app/console/actions/scenario-rules";
import type { ScenarioRuleResource } from "@/lib/contract/schemas/api/scenario-rules";
import { FAILURE_CODE_NAMES } from "@/lib/contract/schemas/api/failure-codes";

const select = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";

/** docs/api.md "Scenario rules": the merchant's rules, each with Enable/Disable and Delete, the standard set and a new rule. */
export function ScenarioRulesCard({ merchantId, rules }: { merchantId: string; rules: ScenarioRuleResource[] }) {
  const matchText = (r: ScenarioRuleResource) => {
    const others = [r.match.method, r.match.direction, r.match.currency];
    const text = [r.match.amount ? `amount ${r.match.amount}` : null, ...others].filter(Boolean).join(", ");
    // The prefix is merchant text: isolated (docs/decisions/0206-merchant-text-without-direction-controls.md).
    if (!r.match.referencePrefix) return text;
    return (
      <>
        {r.match.amount ? `amount ${r.match.amount}, ` : ""}reference starts with &quot;<bdi>{r.match.referencePrefix}</bdi>&quot;
        {others.filter(Boolean).length > 0 ? `, ${others.filter(Boolean).join(", ")}` : ""}
      </>
    );
  };
  return (
    <Card
      id="scenario-rules"
      title="Scenario rules"
      description="New payments that match an enabled rule are concluded automatically, exactly as a manual completion would (same status, ledger entry, event and callback), or left to expire. The first enabled rule by position wins; rules are off until enabled. Also managed with /v1/sandbox/scenario-rules."
      actions={
        <ActionForm action={addStandardScenarioRulesAction} label="Add the standard set">
          <Hidden name="merchantId" value={merchantId} />
          <SubmitButton variant="secondary">Add the standard set</SubmitButton>
        </ActionForm>
      }
    >
      {rules.length === 0 ? (
        <EmptyState title="No scenario rules">
          Add the standard set (13.13 fails, 14.14 expires, fail- fails, slow- succeeds after 30 s...) or a rule of your own below.
        </EmptyState>
      ) : (
        <ul className="mb-4 divide-y divide-slate-200" data-testid="scenario-rules">
          {rules.map((r) => (
            <li key={r.id} className="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between" data-testid="scenario-rule">
              <div className="text-sm">
                <span className="font-medium">
                  {r.position}. <bdi>{r.name}</bdi>
                </span>{" "}
                <span className={r.enabled ? "text-emerald-700" : "text-slate-500"}>({r.enabled ? "on" : "off"})</span>
                <div className="text-slate-600">
                  {matchText(r)} → {r.outcome === "EXPIRE" ? "left to expire" : r.outcome}
                  {r.failureCode ? ` (${r.failureCode})` : ""}
                  {r.delayMs && r.outcome !== "EXPIRE" ? ` after ${r.delayMs / 1000} s` : ""}
                </div>
              </div>
              <div className="flex gap-2">
                <ActionForm action={switchScenarioRuleAction} label={`${r.enabled ? "Disable" : "Enable"} ${r.name}`}>
                  <Hidden name="merchantId" value={merchantId} />
                  <Hidden name="ruleId" value={r.id} />
                  {r.enabled ? null : <Hidden name="enabled" value="on" />}
                  <SubmitButton variant="secondary">{r.enabled ? "Disable" : "Enable"}</SubmitButton>
                </ActionForm>
                <ActionForm action={deleteScenarioRuleAction} label={`Delete ${r.name}`} confirm={`Delete the rule "${r.name}"?`}>
                  <Hidden name="merchantId" value={merchantId} />
                  <Hidden name="ruleId" value={r.id} />
                  <SubmitButton variant="secondary">Delete</SubmitButton>
                </ActionForm>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ActionForm action={addScenarioRuleAction} label="Add a scenario rule" resetOnSuccess className="grid gap-3 sm:grid-cols-3">
        <Hidden name="merchantId" value={merchantId} />
        <Field name="name" label="Name" required placeholder="e.g. 99.99 fails" />
        <Field name="amount" label="Amount (any currency)" placeholder="e.g. 13.13" inputMode="decimal" />
        <Field name="referencePrefix" label="Reference starts with" placeholder="e.g. fail-" />
        <label className="text-sm font-medium text-slate-700">
          Outcome
          <select name="outcome" className={select} defaultValue="FAILED">
            <option value="SUCCEEDED">Succeeds</option>
            <option value="FAILED">Fails</option>
            <option value="EXPIRE">Left to expire</option>
          </select>
        </label>
        <Field name="delaySeconds" label="Delay (seconds, 0 to 3600)" defaultValue="0" inputMode="numeric" />
        <label className="text-sm font-medium text-slate-700">
          Failure code (Fails only)
          <select name="failureCode" className={select} defaultValue="">
            <option value="">None</option>
            {FAILURE_CODE_NAMES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </label>
        <Checkbox name="enabled" label="Enabled" defaultChecked />
        <div>
          <SubmitButton>Add rule</SubmitButton>
        </div>
      </ActionForm>
    </Card>
  );
}
