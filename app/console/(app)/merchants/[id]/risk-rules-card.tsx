import { ActionForm, Field, Hidden, SubmitButton } from "@/components/console/forms";
import { Card, EmptyState, RecordItem, RecordList } from "@/components/console/ui";
import { addRiskRuleAction, removeRiskRuleAction } from "@/app/console/actions/risk";
import { formatConsoleTime } from "@/lib/platform/time-format";
import { CURRENCIES } from "@/lib/contract/money/currency";
import { RISK_SUBJECTS } from "@/lib/domain/risk/velocity";
import type { RiskRuleView } from "@/lib/domain/risk/velocity-rules";

/** "30 minutes", "1 hour", "2 days": a window in the largest whole unit. */
function windowText(seconds: number): string {
  const minutes = seconds / 60;
  const [n, unit] = minutes % 1440 === 0 ? [minutes / 1440, "day"] : minutes % 60 === 0 ? [minutes / 60, "hour"] : [minutes, "minute"];
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

function ruleText(r: RiskRuleView): string {
  const bound = r.kind === "COUNT" ? `At most ${r.maxCount} payment${r.maxCount === 1 ? "" : "s"}` : `At most ${r.maxAmount} ${r.currency} in total`;
  return `${bound} per ${r.subjectLabel} within ${windowText(r.windowSeconds)}`;
}

/**
 * The merchant page's velocity rules (docs/api.md "Errors": RISK_REJECTED): the active rules, and for operators
 * the add form and a remove action, each with a reason.
 */
export function RiskRulesCard({ merchantId, operator, rules }: { merchantId: string; operator: boolean; rules: RiskRuleView[] }) {
  return (
    <Card
      id="velocity-rules"
      title="Velocity rules"
      description="Limits on how often one customer may pay: a payment (or checkout session) over a rule is refused with 403 RISK_REJECTED. Windows are fixed periods (a 1-hour rule counts per clock hour, in UTC), so across the end of one window a customer can reach up to twice the bound. Payments count when they are created, whatever their outcome."
    >
      {rules.length === 0 ? (
        <EmptyState title="No velocity rules" />
      ) : (
        <RecordList label="Velocity rules">
          {rules.map((r) => (
            <RecordItem
              key={r.id}
              title={ruleText(r)}
              details={`added ${formatConsoleTime(r.createdAt)}: ${r.reason}`}
              action={
                operator ? (
                  <ActionForm action={removeRiskRuleAction} label={`Remove rule ${ruleText(r)}`} className="flex flex-col gap-2 sm:flex-row sm:items-end">
                    <Hidden name="merchantId" value={merchantId} />
                    <Hidden name="ruleId" value={r.id} />
                    <Field name="reason" label="Reason" required />
                    <SubmitButton variant="secondary">Remove</SubmitButton>
                  </ActionForm>
                ) : null
              }
            />
          ))}
        </RecordList>
      )}
      {operator ? (
        <ActionForm action={addRiskRuleAction} label="Add a velocity rule" resetOnSuccess className="mt-5 grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
          <Hidden name="merchantId" value={merchantId} />
          <Field
            name="kind"
            label="Counts"
            options={[
              { value: "COUNT", label: "Number of payments" },
              { value: "AMOUNT", label: "Total amount" },
            ]}
          />
          <Field name="subject" label="Per customer" options={Object.entries(RISK_SUBJECTS).map(([value, s]) => ({ value, label: s.label }))} />
          <Field name="windowMinutes" label="Window (minutes)" inputMode="numeric" defaultValue="60" />
          <Field name="maxCount" label="Most payments" inputMode="numeric" hint="For a number-of-payments rule" />
          <Field name="maxAmount" label="Largest total" inputMode="decimal" hint="For a total-amount rule, e.g. 5000.00" />
          <Field name="currency" label="Currency of the total" options={[{ value: "", label: "—" }, ...CURRENCIES.map((c) => ({ value: c, label: c }))]} />
          <Field name="reason" label="Reason" required className="sm:col-span-2" />
          <div className="sm:col-span-2 xl:col-span-4">
            <SubmitButton>Add rule</SubmitButton>
          </div>
        </ActionForm>
      ) : null}
    </Card>
  );
}
