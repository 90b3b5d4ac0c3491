"use server";

import { z } from "zod";
import { consoleAction } from "@/lib/application/console/action";
import {
  CallbackUrlInput,
  ChaosModeInput,
  checkForwardSignature,
  checkSignature,
  configureCallback,
  EndOverlapInput,
  endOverlapFromConsole,
  RotateSecretInput,
  rotateSecretFromConsole,
  ForwardSignatureCheckInput,
  FastRetriesInput,
  requeueFromConsole,
  attemptNowFromConsole,
  sendTestFromConsole,
  setChaosMode,
  setFastRetries,
  SignatureCheckInput,
} from "@/lib/domain/callbacks/manage-callbacks";
import { optionalText, uuidField } from "@/lib/contract/schemas/forms/fields";
import { ReturnUrlInput, setDefaultReturnUrl } from "@/lib/domain/merchants/return-address";
import type { SignatureDiagnosis } from "@/lib/domain/callbacks/signature-check";
import { formatConsoleTime } from "@/lib/platform/time-format";
import { countOf } from "@/lib/application/console/words";

/** Sets the callback address; the new signing secret is returned once. */
export const setCallbackAction = consoleAction(CallbackUrlInput, async ({ actor, tx, input, now }) => {
  const secret = await configureCallback(tx, actor, input, now);
  return { message: "Saved the callback address and generated a new signing secret.", shownOnce: { "Signing secret": secret } };
});

/** Sets or removes the merchant's default return address of the customer pages (docs/api.md "Returning to your site"). */
export const setReturnUrlAction = consoleAction(ReturnUrlInput, async ({ actor, tx, input, now }) => {
  const saved = await setDefaultReturnUrl(tx, actor, input, now);
  return { message: saved ? "Saved the return address." : "Removed the return address: the customer pages show no return link unless a payment gives one." };
});

/** Rotates the signing secret, keeping the address; the old one signs beside it for the chosen overlap. */
export const rotateSecretAction = consoleAction(RotateSecretInput, async ({ actor, tx, input }) => {
  const { secret, overlapEndsAt } = await rotateSecretFromConsole(tx, actor, input);
  return {
    message: overlapEndsAt
      ? `Rotated the signing secret. Until ${formatConsoleTime(overlapEndsAt)} the old secret still signs X-Service-Signature and webhook-signature carries a signature by each; deploy the new one, then end the overlap.`
      : "Rotated the signing secret; the old one no longer signs.",
    shownOnce: { "Signing secret": secret },
  };
});

/** Ends a rotation's overlap: the old secret stops signing now. */
export const endOverlapAction = consoleAction(EndOverlapInput, async ({ actor, tx, input }) => {
  await endOverlapFromConsole(tx, actor, input);
  return { message: "The overlap has ended: callbacks are signed with the new secret only." };
});

/** Requeues one delivery (deliveryId) or every FAILED / NOT_CONFIGURED one in scope. */
export const requeueAction = consoleAction(
  z.object({ deliveryId: optionalText(64).pipe(z.uuid().optional()), merchantId: optionalText(64).pipe(z.uuid().optional()) }),
  async ({ actor, tx, input, now }) => {
    const count = await requeueFromConsole(tx, actor, { merchantId: input.merchantId, deliveryIds: input.deliveryId ? [input.deliveryId] : undefined }, now);
    return {
      message:
        count === 0
          ? "Nothing was requeued: only FAILED and NOT CONFIGURED deliveries of merchants with a callback address can be requeued."
          : `Requeued ${countOf(count, "delivery")}; ${count === 1 ? "it is" : "they are"} being sent now.`,
    };
  },
);

/** Sends a PENDING delivery's next attempt now, even while its address is known to refuse connections; audited. */
export const attemptNowAction = consoleAction(z.object({ deliveryId: uuidField }), async ({ actor, tx, input, now }) => {
  await attemptNowFromConsole(tx, actor, input, now);
  return { message: "The next attempt is being sent now; this page shows it in a moment." };
});

export const sendTestAction = consoleAction(z.object({ merchantId: uuidField }), async ({ actor, tx, input, now }) => {
  const sent = await sendTestFromConsole(tx, actor, input, now);
  return { message: `Test event ${sent.eventId} queued; watch its delivery below.` };
});

/** Switches chaos mode on or off for a merchant (reason required, audited). */
export const setChaosModeAction = consoleAction(ChaosModeInput, async ({ actor, tx, input, now }) => {
  await setChaosMode(tx, actor, input, now);
  return {
    message: input.enabled
      ? "Chaos mode is on: deliveries and listener forwards now also bring duplicates, delays, forged and stale requests."
      : "Chaos mode is off: deliveries are sent as usual.",
  };
});

/** Switches fast retries on or off for a merchant (reason required, audited). */
export const setFastRetriesAction = consoleAction(FastRetriesInput, async ({ actor, tx, input, now }) => {
  await setFastRetries(tx, actor, input, now);
  return {
    message: input.enabled
      ? "Fast retries are on: failed callbacks are retried after 0.5 s, 2 s, 5 s, 10 s, 20 s, 40 s and 60 s."
      : "Fast retries are off: failed callbacks are retried after 30 s to 1 h as usual.",
  };
});

/** "Check my verification": which part of the merchant's signature differs from what was sent. */
export const checkSignatureAction = consoleAction(SignatureCheckInput, async ({ actor, tx, input, now }) =>
  answerOf(await checkSignature(tx, actor, input, now)),
);

/** "Check my verification" for a listener forward attempt, against the listener secret that signed it. */
export const checkForwardSignatureAction = consoleAction(ForwardSignatureCheckInput, async ({ actor, tx, input, now }) =>
  answerOf(await checkForwardSignature(tx, actor, input, now)),
);

function answerOf(diagnosis: SignatureDiagnosis) {
  return {
    message: diagnosis.verified ? "Your signature is correct." : "Your signature does not match; see what differs below.",
    details: diagnosis.findings.map((f) => ({ ok: f.ok, text: f.message })),
  };
}
