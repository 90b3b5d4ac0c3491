"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/application/console/action";
import { approveFromConsole } from "@/lib/domain/payments/payment-views";

/** Approves a withdrawal (PENDING_APPROVAL -> PENDING); the lib refuses the creator, expired ones and other merchants'. */
export const approvePayment = consoleAction(z.object({ paymentId: z.string().max(64) }), async ({ actor, tx, input, now }) => {
  const p = await approveFromConsole(tx, actor, { paymentId: input.paymentId, now });
  return { message: `Approved withdrawal ${p.reference}; it is now PENDING.` };
});
