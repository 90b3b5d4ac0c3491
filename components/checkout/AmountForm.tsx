"use client";

import { usePathname, useRouter } from "next/navigation";
import { useId, useState } from "react";
import { checkAmount, money, type AmountWords } from "@/components/checkout/amount";
import { postCheckoutAction, showNewState, type ActionWords } from "@/components/checkout/post-action";
import { ErrorAlert, Field, FIELD_CONTROL, PrimaryButton } from "@/components/checkout/ui";
import { readEnteredAmount } from "@/lib/contract/money/currency";

/**
 * The amount form's words in the page's language, resolved on the server (messages/*.json `customer.amount`):
 * `hint` with the bounds in it, `understood` with "{amount}" where the amount as read goes.
 */
export type AmountFormWords = {
  label: string;
  currency: string;
  hint: string;
  calculating: string;
  understood: string;
  refusals: AmountWords;
  action: ActionWords;
  /** The page's formatting language (BCP 47), for the amount as read. */
  locale: string;
};

type Props = {
  currencies: string[];
  minAmount: string;
  maxAmount: string;
  defaultAmount?: string | null;
  defaultCurrency?: string | null;
  submitLabel: string;
  words: AmountFormWords;
  /** A secondary button ("Update total" beside the primary "Confirm total"). */
  secondary?: boolean;
  /** The words of a refusal of this form sent without the script (components/checkout/problems.ts), shown until the next try. */
  problem?: string | null;
};

/**
 * The customer's amount and currency form; sending it quotes the session (-> QUOTED) and shows the total. An HTML form
 * posting `amount` and `currency` to `/checkout/{token}/quote`, so it works before this script has loaded and without
 * it: the answer is the page of the new state, or the page again with the refusal and the amount as typed
 * (docs/decisions/0209-customer-forms-post-to-their-action-routes.md). Once the script runs it says what it
 * understood as the customer types ("Understood as USD 1,500.00." for "1,500" or "١٥٠٠"), checks the amount first
 * and sends the same action itself, without a reload.
 */
export function AmountForm({ currencies, minAmount, maxAmount, defaultAmount, defaultCurrency, submitLabel, words, secondary = false, problem = null }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const id = useId();
  const [amount, setAmount] = useState(defaultAmount ?? "");
  const [currency, setCurrency] = useState(defaultCurrency && currencies.includes(defaultCurrency) ? defaultCurrency : currencies[0]);
  const [error, setError] = useState<string | null>(problem);
  const [busy, setBusy] = useState(false);
  const read = readEnteredAmount(amount, currency);
  const understood = "amount" in read && currency ? words.understood.replace("{amount}", money(read.amount, currency, words.locale)) : "";

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkAmount(amount, { min: minAmount, max: maxAmount, currency }, words.refusals);
    if ("message" in checked) {
      setError(checked.message);
      return;
    }
    setBusy(true);
    setError(null);
    const outcome = await postCheckoutAction(pathname, "quote", { amount: checked.amount, currency }, words.action);
    setBusy(false);
    if (!outcome.ok) setError(outcome.message);
    if (outcome.ok || outcome.code === "INVALID_STATE") showNewState(router, pathname);
  }

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const understoodId = `${id}-understood`;
  return (
    <form method="post" action={`${pathname}/quote`} onSubmit={submit} noValidate className="space-y-4">
      <div className="grid grid-cols-[1fr_auto] gap-3">
        <Field id={`${id}-amount`} label={words.label}>
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
            aria-describedby={[hintId, understood ? understoodId : null, error ? errorId : null].filter(Boolean).join(" ")}
            aria-invalid={error ? true : undefined}
            required
            className={`${FIELD_CONTROL} tabular-nums placeholder:text-slate-500 aria-[invalid=true]:border-red-700`}
          />
        </Field>
        <Field id={`${id}-currency`} label={words.currency}>
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
        {words.hint}
      </p>
      <p id={understoodId} className="text-sm font-medium text-slate-900" aria-live="polite" data-testid="amount-understood">
        {understood}
      </p>
      {error && <ErrorAlert id={errorId}>{error}</ErrorAlert>}
      <PrimaryButton type="submit" busy={busy} busyLabel={words.calculating} secondary={secondary}>
        {submitLabel}
      </PrimaryButton>
    </form>
  );
}
