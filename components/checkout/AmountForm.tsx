"use client";

import { usePathname, useRouter } from "next/navigation";
import { useId, useState } from "react";
import { checkAmount, groupedAmount } from "@/components/checkout/amount";
import { postCheckoutAction, showNewState } from "@/components/checkout/post-action";
import { ErrorAlert, Field, FIELD_CONTROL, PrimaryButton } from "@/components/checkout/ui";

type Props = {
  currencies: string[];
  minAmount: string;
  maxAmount: string;
  defaultAmount?: string | null;
  defaultCurrency?: string | null;
  submitLabel: string;
  /** A secondary button ("Update total" beside the primary "Confirm total"). */
  secondary?: boolean;
  /** The words of a refusal of this form sent without the script (components/checkout/problems.ts), shown until the next try. */
  problem?: string | null;
};

/**
 * The customer's amount and currency form; sending it quotes the session (-> QUOTED) and shows the total. An HTML form
 * posting `amount` and `currency` to `/checkout/{token}/quote`, so it works before this script has loaded and without
 * it: the answer is the page of the new state, or the page again with the refusal and the amount as typed
 * (docs/decisions/0209-customer-forms-post-to-their-action-routes.md). Once the script runs it checks the amount first
 * and sends the same action itself, without a reload.
 */
export function AmountForm({ currencies, minAmount, maxAmount, defaultAmount, defaultCurrency, submitLabel, secondary = false, problem = null }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const id = useId();
  const [amount, setAmount] = useState(defaultAmount ?? "");
  const [currency, setCurrency] = useState(defaultCurrency && currencies.includes(defaultCurrency) ? defaultCurrency : currencies[0]);
  const [error, setError] = useState<string | null>(problem);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkAmount(amount, minAmount, maxAmount);
    if ("message" in checked) {
      setError(checked.message);
      return;
    }
    setBusy(true);
    setError(null);
    const outcome = await postCheckoutAction(pathname, "quote", { amount: checked.amount, currency });
    setBusy(false);
    if (!outcome.ok) setError(outcome.message);
    if (outcome.ok || outcome.code === "INVALID_STATE") showNewState(router, pathname);
  }

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <form method="post" action={`${pathname}/quote`} onSubmit={submit} noValidate className="space-y-4">
      <div className="grid grid-cols-[1fr_auto] gap-3">
        <Field id={`${id}-amount`} label="Amount">
          <input
            id={`${id}-amount`}
            name="amount"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            enterKeyHint="go"
            placeholder="0.00"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            aria-invalid={error ? true : undefined}
            required
            className={`${FIELD_CONTROL} tabular-nums placeholder:text-slate-500 aria-[invalid=true]:border-red-700`}
          />
        </Field>
        <Field id={`${id}-currency`} label="Currency">
          <select id={`${id}-currency`} name="currency" value={currency} onChange={(e) => setCurrency(e.target.value)} className={FIELD_CONTROL}>
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <p id={hintId} className="text-sm text-slate-600">
        Between {groupedAmount(minAmount)} and {groupedAmount(maxAmount)}, at most 2 decimals.
      </p>
      {error && <ErrorAlert id={errorId}>{error}</ErrorAlert>}
      <PrimaryButton type="submit" busy={busy} busyLabel="Calculating…" secondary={secondary}>
        {submitLabel}
      </PrimaryButton>
    </form>
  );
}
