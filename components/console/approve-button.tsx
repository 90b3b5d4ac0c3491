"use client";

import { ActionForm, Hidden, SubmitButton } from "@/components/console/forms";
import { approvePayment } from "@/app/console/actions/payments";

/** "Approve" for one withdrawal; disabled with the reason when the signed-in user may not approve it. */
export function ApproveButton({ paymentId, refusal }: { paymentId: string; refusal: string | null }) {
  return (
    <ActionForm action={approvePayment} label={`Approve withdrawal ${paymentId}`}>
      <Hidden name="paymentId" value={paymentId} />
      <SubmitButton disabledReason={refusal ? `You cannot approve: ${refusal}.` : null}>Approve</SubmitButton>
    </ActionForm>
  );
}
