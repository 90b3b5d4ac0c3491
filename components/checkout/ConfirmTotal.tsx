"use client";

import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { postCheckoutAction } from "@/components/checkout/post-action";
import { ErrorAlert, PrimaryButton } from "@/components/checkout/ui";

/**
 * The "Confirm total" button: confirms exactly the quoted amount and currency shown on the page
 * (session -> AWAITING_VERIFICATION) and reloads the page.
 */
export function ConfirmTotal({ amount, currency, label }: { amount: string; currency: string; label: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    setError(null);
    const outcome = await postCheckoutAction(pathname, "confirm", { amount, currency });
    setBusy(false);
    if (!outcome.ok) setError(outcome.message);
    if (outcome.ok || outcome.code === "INVALID_STATE") router.refresh();
  }

  return (
    <div className="space-y-3">
      {error && <ErrorAlert>{error}</ErrorAlert>}
      <PrimaryButton type="button" onClick={confirm} busy={busy} busyLabel="Confirming…">
        {label}
      </PrimaryButton>
    </div>
  );
}
