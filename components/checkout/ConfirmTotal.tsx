"use client";

import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { postCheckoutAction, showNewState, type ActionWords } from "@/components/checkout/post-action";
import { ErrorAlert, PrimaryButton } from "@/components/checkout/ui";

/**
 * The "Confirm total" button: confirms exactly the quoted amount and currency shown on the page
 * (session -> AWAITING_VERIFICATION). An HTML form posting `amount` and `currency` to `/checkout/{token}/confirm`, so
 * it works before this script has loaded and without it (the answer is the page of the new state;
 * docs/decisions/0209-customer-forms-post-to-their-action-routes.md); once the script runs it sends the same action
 * itself and shows the result without a reload.
 * @param label the button's words, naming the charged amount ("Confirm total of AED 5,619.34").
 * @param problem the words of a refusal of this form (components/checkout/problems.ts), shown until the next try.
 * @param words the button's words while it runs and how a refusal is worded, in the page's language.
 */
export function ConfirmTotal({
  amount,
  currency,
  label,
  words,
  problem = null,
}: {
  amount: string;
  currency: string;
  label: string;
  words: { confirming: string; action: ActionWords };
  problem?: string | null;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const [error, setError] = useState<string | null>(problem);
  const [busy, setBusy] = useState(false);

  async function confirm(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const outcome = await postCheckoutAction(pathname, "confirm", { amount, currency }, words.action);
    setBusy(false);
    if (!outcome.ok) setError(outcome.message);
    if (outcome.ok || outcome.code === "INVALID_STATE") showNewState(router, pathname);
  }

  return (
    <form method="post" action={`${pathname}/confirm`} onSubmit={confirm} className="space-y-3">
      <input type="hidden" name="amount" value={amount} />
      <input type="hidden" name="currency" value={currency} />
      {error && <ErrorAlert>{error}</ErrorAlert>}
      <PrimaryButton type="submit" busy={busy} busyLabel={words.confirming}>
        {label}
      </PrimaryButton>
    </form>
  );
}
