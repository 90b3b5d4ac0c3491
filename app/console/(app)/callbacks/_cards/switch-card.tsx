import type { ReactNode } from "react";
import { ActionForm, Field, Hidden, SubmitButton, type ConsoleFormAction } from "@/components/console/forms";
import { Card } from "@/components/console/ui";

/** A merchant's on/off delivery setting switched with a reason (chaos mode, fast retries): its state and the form. */
export function SwitchCard(props: {
  title: string;
  description: string;
  testId: string;
  merchantId: string;
  on: boolean;
  action: ConsoleFormAction;
  placeholder: string;
  children: ReactNode;
}) {
  const name = props.title.toLowerCase();
  return (
    <Card title={props.title} description={props.description}>
      <p className="mb-3 text-sm text-slate-700" data-testid={props.testId}>
        {props.children}
      </p>
      <ActionForm action={props.action} label={`Switch ${name}`} className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <Hidden name="merchantId" value={props.merchantId} />
        {props.on ? null : <Hidden name="enabled" value="on" />}
        <Field name="reason" label="Reason" required placeholder={props.placeholder} className="flex-1" />
        <div className="sm:pt-6">
          <SubmitButton variant={props.on ? "secondary" : "primary"}>{props.on ? `Switch ${name} off` : `Switch ${name} on`}</SubmitButton>
        </div>
      </ActionForm>
    </Card>
  );
}
