"use client";

import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { postCheckoutAction } from "@/components/checkout/post-action";
import { ErrorAlert, PrimaryButton, SECONDARY_BUTTON } from "@/components/checkout/ui";

/**
 * The store's sandbox test confirmation: Pay (checkout SUCCEEDED, payment SUCCEEDED) or Decline (both
 * FAILED). Posts to `/store/{token}/pay` or `/decline`, derived from the page's own path, then reloads
 * the page to show the result. Both buttons are disabled while a request runs, so one click sends one
 * request; the service refuses a second payment in any case.
 */
export function StoreConfirmation({ total }: { total: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const [busy, setBusy] = useState<"pay" | "decline" | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function confirm(action: "pay" | "decline") {
    setBusy(action);
    setError(null);
    const outcome = await postCheckoutAction(pathname, action);
    setBusy(null);
    if (!outcome.ok) setError(outcome.message);
    if (outcome.ok || outcome.code === "INVALID_STATE") router.refresh();
  }

  return (
    <section aria-labelledby="test-confirmation" className="space-y-3 rounded-2xl border-2 border-dashed border-amber-500 bg-amber-50 p-5">
      <h2 id="test-confirmation" className="text-base font-semibold text-amber-950">
        Sandbox test confirmation — no real charge
      </h2>
      <p className="text-sm text-amber-950">
        This is a sandbox store. Choose the result this test payment should have; no card is asked for and no money moves.
      </p>
      {error && <ErrorAlert>{error}</ErrorAlert>}
      <PrimaryButton type="button" onClick={() => confirm("pay")} busy={busy === "pay"} busyLabel="Paying…" disabled={busy !== null}>
        {`Pay AED ${total}`}
      </PrimaryButton>
      <button type="button" onClick={() => confirm("decline")} disabled={busy !== null} aria-busy={busy === "decline"} className={SECONDARY_BUTTON}>
        {busy === "decline" ? "Declining…" : "Decline"}
      </button>
    </section>
  );
}
