"use client";

import { ActionForm, Checkbox, Field, SubmitButton, type ConsoleFormAction } from "@/components/console/forms";
import { CURRENCIES } from "@/lib/contract/money/currency";

export type PricingDefaults = Record<string, string | boolean | undefined>;

const currencies = CURRENCIES.map((c) => ({ value: c, label: c }));

/** The form of a new pricing profile version: every field of the contract's profile list and a required reason. */
export function PricingForm({
  merchants,
  defaults,
  save,
}: {
  merchants: { id: string; name: string }[];
  defaults: PricingDefaults;
  /** The console's save-pricing action, passed by the page. */
  save: ConsoleFormAction;
}) {
  const d = (k: string) => (typeof defaults[k] === "string" ? (defaults[k] as string) : undefined);
  return (
    <ActionForm action={save} label="New pricing profile version" className="space-y-5">
      <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <legend className="mb-2 text-sm font-semibold text-slate-800">Profile</legend>
        <Field
          name="merchantId"
          label="Merchant"
          required
          options={merchants.map((m) => ({ value: m.id, label: m.name }))}
          defaultValue={d("merchantId")}
          className="sm:col-span-2 lg:col-span-1"
        />
        <Field name="currency" label="Transaction currency" required options={currencies} defaultValue={d("currency") ?? "USD"} />
        <Field
          name="channel"
          label="Channel"
          required
          options={[
            { value: "GATEWAY", label: "Gateway" },
            { value: "BANK_TRANSFER", label: "Bank transfer" },
          ]}
          defaultValue={d("channel")}
        />
        <Field
          name="direction"
          label="Direction"
          required
          options={[
            { value: "DEPOSIT", label: "Deposit" },
            { value: "WITHDRAWAL", label: "Withdrawal" },
          ]}
          defaultValue={d("direction")}
        />
      </fieldset>
      <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <legend className="mb-2 text-sm font-semibold text-slate-800">Currencies and FX</legend>
        <Field name="chargeCurrency" label="Charge currency" required options={currencies} defaultValue={d("chargeCurrency") ?? "USD"} />
        <Field name="settlementCurrency" label="Settlement currency" required options={currencies} defaultValue={d("settlementCurrency") ?? "USD"} />
        <Field name="markupBps" label="FX markup (bps)" required inputMode="numeric" defaultValue={d("markupBps") ?? "0"} hint="150 = 1.50 %" />
        <Field name="bufferBps" label="Risk buffer (bps)" required inputMode="numeric" defaultValue={d("bufferBps") ?? "0"} />
      </fieldset>
      <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <legend className="mb-2 text-sm font-semibold text-slate-800">Commission, reserve and settlement</legend>
        <Field
          name="commissionType"
          label="Commission type"
          required
          options={[
            { value: "PERCENT", label: "Percentage" },
            { value: "FIXED", label: "Fixed amount" },
          ]}
          defaultValue={d("commissionType")}
        />
        <Field name="commissionBps" label="Commission (bps)" inputMode="numeric" defaultValue={d("commissionBps") ?? "0"} hint="For percentage: 250 = 2.50 %" />
        <Field
          name="commissionFixed"
          label="Fixed commission"
          inputMode="decimal"
          defaultValue={d("commissionFixed") ?? ""}
          hint="For fixed: amount in the transaction currency"
        />
        <Field name="reserveBps" label="Reserve (bps)" required inputMode="numeric" defaultValue={d("reserveBps") ?? "0"} />
        <Field name="delayDays" label="Settlement delay (days)" required inputMode="numeric" defaultValue={d("delayDays") ?? "0"} />
        <Field name="reserveDays" label="Reserve held (days)" required inputMode="numeric" defaultValue={d("reserveDays") ?? "0"} />
      </fieldset>
      <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <legend className="mb-2 text-sm font-semibold text-slate-800">
          Amounts and limits <span className="font-normal text-slate-500">(empty = no bound / unlimited)</span>
        </legend>
        <Field name="minAmount" label="Lower transaction amount" inputMode="decimal" defaultValue={d("minAmount") ?? ""} />
        <Field name="maxAmount" label="Upper transaction amount" inputMode="decimal" defaultValue={d("maxAmount") ?? ""} />
        <Field name="dailyLimit" label="Daily limit" inputMode="decimal" defaultValue={d("dailyLimit") ?? ""} />
        <Field name="monthlyLimit" label="Monthly limit" inputMode="decimal" defaultValue={d("monthlyLimit") ?? ""} />
      </fieldset>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Field name="reason" label="Reason for this change" required multiline placeholder="e.g. new commission agreed on 2026-11-20" />
        <div className="flex flex-col justify-between gap-4">
          <Checkbox
            name="enabled"
            label="Enabled"
            defaultChecked={defaults.enabled !== false}
            hint="A disabled latest version blocks new payments with 409 PRICING_DISABLED."
          />
          <div>
            <SubmitButton>Save new version</SubmitButton>
          </div>
        </div>
      </div>
    </ActionForm>
  );
}
