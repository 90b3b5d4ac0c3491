"use client";

import { useRouter } from "next/navigation";
import { ActionForm, Hidden, SubmitButton, type ConsoleFormAction } from "@/components/console/forms";

/**
 * "Approve" for one withdrawal: asks for confirmation (reference, amount, what happens next), and after the
 * approval reloads the queue with a confirmation notice (the row itself leaves the queue). Disabled with the
 * reason when the signed-in user may not approve it. `approve` is the console's approve action, passed by the page.
 */
export function ApproveButton({
  paymentId,
  reference,
  amount,
  currency,
  refusal,
  approve,
}: {
  paymentId: string;
  reference: string;
  amount: string;
  currency: string;
  refusal: string | null;
  approve: ConsoleFormAction;
}) {
  const router = useRouter();
  return (
    <ActionForm
      action={approve}
      label={`Approve withdrawal ${reference}`}
      confirm={`Approve withdrawal ${reference} of ${amount} ${currency}? It moves to PENDING and can then be completed through the API. This cannot be undone.`}
      onSuccess={() => router.replace(`/console/approvals?approved=${paymentId}`)}
    >
      <Hidden name="paymentId" value={paymentId} />
      <SubmitButton disabledReason={refusal ? `You cannot approve: ${refusal}.` : null}>Approve</SubmitButton>
    </ActionForm>
  );
}
