import Link from "next/link";
import { ActionForm, Checkbox, CheckboxGroup, Field, Hidden, SubmitButton } from "@/components/console/forms";
import { Card, DefinitionList, EmptyState, Notice, PageHeader, StatusBadge, linkClass } from "@/components/console/ui";
import { activate, deactivate, updatePolicy } from "@/app/console/actions/merchants";
import { AllowListCard } from "./allow-list-card";
import { RiskRulesCard } from "./risk-rules-card";
import { listAllowedIpRequests } from "@/lib/domain/merchants/allow-list";
import { formatBps } from "@/lib/application/console/format";
import { CUSTOMER_FIELDS, getMerchant } from "@/lib/domain/merchants/manage-merchants";
import { orNotFound, requireActor } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";
import { CURRENCIES } from "@/lib/contract/money/currency";
import { listRiskRules } from "@/lib/domain/risk/velocity-rules";
import { callbackUrlPolicy } from "@/lib/domain/callbacks/callback-config";

export const dynamic = "force-dynamic";

const PERIODS = [
  ["bankTransferDepositMinutes", "Bank-transfer deposit"],
  ["gatewayDepositMinutes", "Gateway deposit"],
  ["withdrawalApprovalMinutes", "Withdrawal approval"],
  ["storeCheckoutMinutes", "Store checkout"],
  ["checkoutSessionMinutes", "Amount-entry session"],
] as const;

export default async function MerchantPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireActor();
  const { id } = await params;
  const local = callbackUrlPolicy().allowLoopback ?? false;
  const m = await orNotFound(getMerchant(getDb(), actor, id, { allowLoopback: local }));
  const requests = await listAllowedIpRequests(getDb(), actor, m.id);
  const riskRules = await listRiskRules(getDb(), actor, m.id);
  const operator = actor.role === "OPERATOR";
  return (
    <>
      {operator ? (
        <p className="mb-2 text-sm">
          <Link className={linkClass} href="/console/merchants">
            ← Merchants
          </Link>
        </p>
      ) : null}
      <PageHeader
        title={m.name}
        description={
          <>
            Merchant id <code className="font-mono text-xs">{m.id}</code>
          </>
        }
        actions={<StatusBadge status={m.status} />}
      />
      <div className="space-y-4">
        <Card
          title="Status"
          description={`Activation needs at least one approved server IP on the allow-list and an https callback address${local ? " (in local mode, as here, an http address on this machine counts too)" : ""}.`}
        >
          {m.status === "ACTIVE" ? (
            operator ? (
              <ActionForm
                action={deactivate}
                label="Deactivate"
                confirm={`Deactivate ${m.name}? All its API keys are revoked for good.`}
                className="flex flex-col gap-3 sm:flex-row sm:items-end"
              >
                <Hidden name="merchantId" value={m.id} />
                <Field name="reason" label="Reason for deactivating" required className="flex-1" />
                <SubmitButton variant="danger">Deactivate and revoke keys</SubmitButton>
              </ActionForm>
            ) : (
              <p className="text-sm text-slate-700">Active: API keys work.</p>
            )
          ) : operator ? (
            <ActionForm action={activate} label="Activate" className="flex flex-col gap-3 sm:flex-row sm:items-end">
              <Hidden name="merchantId" value={m.id} />
              <Field name="reason" label="Note (optional)" className="flex-1" />
              <SubmitButton disabledReason={m.activationRefusal ? `Cannot activate yet: ${m.activationRefusal}.` : null}>Activate</SubmitButton>
            </ActionForm>
          ) : (
            <Notice tone="warning">
              Inactive: API keys are refused. {m.activationRefusal ? `To be activated, ${m.activationRefusal}.` : "An operator can activate it now."}
            </Notice>
          )}
        </Card>

        <AllowListCard merchantId={m.id} operator={operator} entries={m.allowedIps} pending={requests.pending} decided={requests.decided} />
        <RiskRulesCard merchantId={m.id} operator={operator} rules={riskRules} />

        <Card
          title="Callback address"
          actions={
            <Link className={linkClass} href={operator ? `/console/callbacks?merchant=${m.id}` : "/console/callbacks"}>
              Manage callbacks
            </Link>
          }
        >
          <p className="text-sm text-slate-700">
            {m.callbackUrl ? (
              <code className="break-all font-mono text-xs">{m.callbackUrl}</code>
            ) : (
              "Not set: events are stored as NOT CONFIGURED until an address is set."
            )}
          </p>
        </Card>

        {operator ? (
          <Card title="Settings" description="Apply to payments created after saving; existing payments keep their acceptance period and pricing snapshot.">
            <ActionForm action={updatePolicy} label="Merchant settings" className="space-y-5">
              <Hidden name="merchantId" value={m.id} />
              <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
                <Field name="name" label="Name" required defaultValue={m.name} />
                <Field
                  name="defaultCommissionBps"
                  label="Fallback commission (bps)"
                  required
                  inputMode="numeric"
                  defaultValue={m.defaultCommissionBps}
                  hint="Used when no pricing profile exists"
                />
              </div>
              <CheckboxGroup
                name="enabledCurrencies"
                legend="Enabled currencies"
                options={CURRENCIES.map((c) => ({ value: c, label: c }))}
                defaultChecked={m.enabledCurrencies}
              />
              <fieldset className="grid grid-cols-2 gap-4 lg:grid-cols-5">
                <legend className="mb-2 text-sm font-medium text-slate-700">Acceptance periods (minutes)</legend>
                {PERIODS.map(([name, label]) => (
                  <Field key={name} name={name} label={label} required inputMode="numeric" defaultValue={m[name]} />
                ))}
              </fieldset>
              <CheckboxGroup
                name="requiredCustomerFields"
                legend="Customer fields required on POST /v1/payments"
                options={CUSTOMER_FIELDS.map((f) => ({ value: f, label: f }))}
                defaultChecked={m.requiredCustomerFields}
                hint="Missing ones are refused with 400 CUSTOMER_PROFILE_REQUIRED, never filled in."
              />
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                <Checkbox name="storeRequiresCountry" label="Store payments require customer.country" defaultChecked={m.storeRequiresCountry} />
                <Checkbox
                  name="amountEntryEnabled"
                  label="Customer amount-entry flow"
                  defaultChecked={m.amountEntryEnabled}
                  hint="When on, /v1/checkout-sessions is available and /v1/store-payments is not."
                />
              </div>
              <Field name="reason" label="Reason for this change" required />
              <SubmitButton>Save settings</SubmitButton>
            </ActionForm>
          </Card>
        ) : (
          <Card title="Settings" description="Set by the service operator.">
            <DefinitionList
              items={[
                ["Enabled currencies", m.enabledCurrencies.join(", ")],
                ...PERIODS.map(([name, label]) => [`${label} period`, `${m[name]} minutes`] as [string, string]),
                ["Required customer fields", m.requiredCustomerFields.join(", ") || "none"],
                ["Amount-entry flow", m.amountEntryEnabled ? "on" : "off"],
                ["Fallback commission", formatBps(m.defaultCommissionBps)],
              ]}
            />
          </Card>
        )}

        {operator ? (
          <Card
            title="Console users"
            actions={
              <Link className={linkClass} href="/console/users">
                Manage users
              </Link>
            }
          >
            {m.users.length === 0 ? (
              <EmptyState title="No users for this merchant" />
            ) : (
              <ul className="divide-y divide-slate-100 text-sm">
                {m.users.map((u) => (
                  <li key={u.id} className="flex items-center justify-between py-2">
                    <span>{u.username}</span>
                    <span className="text-slate-500">{u.active ? "active" : "deactivated"}</span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        ) : null}
      </div>
    </>
  );
}
