"use client";

import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { postCheckoutAction, showNewState, type ActionWords } from "@/components/checkout/post-action";
import { ErrorAlert, PrimaryButton, SECONDARY_BUTTON } from "@/components/checkout/ui";

/** The words of the store's test confirmation in the page's language (messages/*.json `store.confirmation`), resolved on the server. */
export type ConfirmationWords = { heading: string; intro: string; paying: string; decline: string; declining: string; action: ActionWords };

/**
 * The store's sandbox test confirmation: Pay (checkout SUCCEEDED, payment SUCCEEDED) or Decline (both
 * FAILED). Each is an HTML form posting to `/store/{token}/pay` or `/decline` (the page's own path), so a tap before
 * this script has loaded, or without it, is sent and answered with the page of the new state
 * (docs/decisions/0209-customer-forms-post-to-their-action-routes.md). Once the script runs it sends the same action
 * itself and shows the result without a reload. Both buttons are disabled while a request runs, so one click sends one
 * request; the service refuses a second payment in any case.
 * @param payLabel the Pay button's words, naming the charged amount ("Pay AED 10.15").
 * @param problem the words of a refusal of the page's form (components/checkout/problems.ts), shown until the next try.
 * @param words the section's words ({@link ConfirmationWords}).
 */
export function StoreConfirmation({ payLabel, words, problem = null }: { payLabel: string; words: ConfirmationWords; problem?: string | null }) {
  const TEXT = words;
  const router = useRouter();
  const pathname = usePathname();
  const [busy, setBusy] = useState<"pay" | "decline" | null>(null);
  const [error, setError] = useState<string | null>(problem);

  async function confirm(event: React.FormEvent<HTMLFormElement>, action: "pay" | "decline") {
    event.preventDefault();
    setBusy(action);
    setError(null);
    const outcome = await postCheckoutAction(pathname, action, {}, words.action);
    setBusy(null);
    if (!outcome.ok) setError(outcome.message);
    if (outcome.ok || outcome.code === "INVALID_STATE") showNewState(router, pathname);
  }

  return (
    <section aria-labelledby="test-confirmation" className="space-y-3 rounded-2xl border-2 border-dashed border-amber-500 bg-amber-50 p-5">
      <h2 id="test-confirmation" className="text-base font-semibold text-amber-950">
        {TEXT.heading}
      </h2>
      <p className="text-sm text-amber-950">{TEXT.intro}</p>
      {error && <ErrorAlert>{error}</ErrorAlert>}
      <form method="post" action={`${pathname}/pay`} onSubmit={(e) => confirm(e, "pay")}>
        <PrimaryButton type="submit" busy={busy === "pay"} busyLabel={TEXT.paying} disabled={busy !== null}>
          {payLabel}
        </PrimaryButton>
      </form>
      <form method="post" action={`${pathname}/decline`} onSubmit={(e) => confirm(e, "decline")}>
        <button type="submit" disabled={busy !== null} aria-busy={busy === "decline"} className={SECONDARY_BUTTON}>
          {busy === "decline" ? TEXT.declining : TEXT.decline}
        </button>
      </form>
    </section>
  );
}
