import { ActionForm, Field, Hidden, SubmitButton } from "@/components/console/forms";
import { Card } from "@/components/console/ui";
import { endOverlapAction, requeueAction, rotateSecretAction, sendTestAction, setCallbackAction, setReturnUrlAction } from "@/app/console/actions/callbacks";
import { callbackAddressRule, savedAddressNote } from "@/lib/domain/callbacks/callback-config";
import { systemNow } from "@/lib/platform/clock";
import { formatConsoleTime } from "@/lib/platform/time-format";

/** What the address card shows of a merchant's callback settings (lib/domain/callbacks/manage-callbacks.ts callbackSettings). */
export type CallbackAddressSettings = {
  id: string;
  name: string;
  callbackUrl: string | null;
  returnUrl: string | null;
  previousCallbackSecretUntil: Date | null;
};

/**
 * The Callbacks page's address card (docs/callbacks.md): the saved address and the form that sets it (a new signing
 * secret, shown once), rotating the secret with an overlap, a test event and requeueing every failed delivery.
 */
export function CallbackAddressCard({ merchant, showName }: { merchant: CallbackAddressSettings; showName: boolean }) {
  return (
    <Card
      title={`Callback address${showName ? ` of ${merchant.name}` : ""}`}
      description={`${callbackAddressRule()} Saving generates a new signing secret, shown only once.`}
    >
      <SavedAddress
        url={merchant.callbackUrl}
        testId="callback-url"
        note={savedAddressNote(merchant.callbackUrl)}
        unset={<span className="text-amber-800">not set</span>}
      />
      <ActionForm
        action={setCallbackAction}
        label="Set the callback address"
        className="flex flex-col gap-3 sm:flex-row sm:items-start"
        shownOnceNote="Copy the secret now: it verifies X-Service-Signature and is not shown again."
      >
        <Hidden name="merchantId" value={merchant.id} />
        <Field name="url" label="New address" required placeholder="https://shop.example.com/callbacks" className="flex-1" />
        <div className="sm:pt-6">
          <SubmitButton>Save address</SubmitButton>
        </div>
      </ActionForm>
      {merchant.callbackUrl ? <SecretRotation merchantId={merchant.id} overlapEndsAt={merchant.previousCallbackSecretUntil} /> : null}
      <div className="mt-4 flex flex-wrap gap-3 border-t border-slate-100 pt-4">
        <ActionForm action={sendTestAction} label="Send a test event">
          <Hidden name="merchantId" value={merchant.id} />
          <SubmitButton variant="secondary" disabledReason={merchant.callbackUrl ? null : "set an address first"}>
            Send test event
          </SubmitButton>
        </ActionForm>
        <ActionForm action={requeueAction} label="Requeue all" confirm="Requeue every FAILED and NOT CONFIGURED delivery of this merchant?">
          <Hidden name="merchantId" value={merchant.id} />
          <SubmitButton variant="secondary" disabledReason={merchant.callbackUrl ? null : "set an address first"}>
            Requeue all failed and not configured
          </SubmitButton>
        </ActionForm>
      </div>
    </Card>
  );
}

/** "Current: <address> (<note>)" of an address card, or `unset` when there is none. */
function SavedAddress({ url, testId, note = null, unset }: { url: string | null; testId: string; note?: string | null; unset: React.ReactNode }) {
  return (
    <p className="mb-3 text-sm text-slate-700">
      Current:{" "}
      {url ? (
        <>
          <code className="break-all font-mono text-xs" data-testid={testId}>
            {url}
          </code>
          {note ? (
            <span className="ml-1 text-slate-600" data-testid={`${testId}-note`}>
              ({note})
            </span>
          ) : null}
        </>
      ) : (
        unset
      )}
    </p>
  );
}

/**
 * The merchant's default return address (docs/api.md "Returning to your site"): where "Return to <merchant>" on the
 * customer pages leads when a store payment or checkout session gives none. Empty removes it.
 */
export function ReturnAddressCard({ merchant, showName }: { merchant: CallbackAddressSettings; showName: boolean }) {
  return (
    <Card
      title={`Return address${showName ? ` of ${merchant.name}` : ""}`}
      description="Where the customer pages' ending pages (paid, declined, expired, confirmed) link back to, unless the store payment or checkout session gives its own returnUrl or cancelUrl. An https address; an address on this machine only in local mode. A customer's return is no proof of payment and carries no status: confirm payments by a verified callback or an authenticated read."
    >
      <SavedAddress url={merchant.returnUrl} testId="return-url" unset={<span className="text-slate-600">not set (the pages show no return link)</span>} />
      <ActionForm action={setReturnUrlAction} label="Set the return address" className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <Hidden name="merchantId" value={merchant.id} />
        <Field name="url" label="Return address (empty removes it)" placeholder="https://shop.example.com/orders" className="flex-1" />
        <div className="sm:pt-6">
          <SubmitButton>Save return address</SubmitButton>
        </div>
      </ActionForm>
    </Card>
  );
}

/** Rotating the signing secret with an overlap, and ending a running overlap (docs/callbacks.md "Rotating the secret"). */
function SecretRotation({ merchantId, overlapEndsAt }: { merchantId: string; overlapEndsAt: Date | null }) {
  const running = overlapEndsAt && overlapEndsAt > systemNow() ? overlapEndsAt : null;
  return (
    <div className="mt-4 border-t border-slate-100 pt-4" data-testid="secret-rotation">
      <h3 className="text-sm font-semibold text-slate-800">Rotate the signing secret</h3>
      <p className="mt-1 text-xs text-slate-600">
        A new secret for the same address. During the overlap the old secret still signs X-Service-Signature and webhook-signature carries a signature by each,
        so your receiver verifies every callback with either secret while you deploy the new one.
      </p>
      {running ? (
        <div className="mt-2 flex flex-wrap items-center gap-3 text-sm text-amber-900" data-testid="overlap-state">
          <span>
            Overlap: the previous secret signs until <strong>{formatConsoleTime(running)}</strong>.
          </span>
          <ActionForm action={endOverlapAction} label="End the overlap" confirm="Stop signing with the previous secret now?">
            <Hidden name="merchantId" value={merchantId} />
            <SubmitButton variant="secondary">End the overlap now</SubmitButton>
          </ActionForm>
        </div>
      ) : null}
      <ActionForm
        action={rotateSecretAction}
        label="Rotate the signing secret"
        className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-3 sm:items-start"
        confirm="Make a new signing secret for this address?"
        shownOnceNote="Copy the new secret now: it is not shown again. It also verifies webhook-signature with any Standard Webhooks library."
      >
        <Hidden name="merchantId" value={merchantId} />
        <Field
          name="overlap"
          label="Old secret keeps signing for"
          defaultValue="24h"
          options={[
            { value: "0s", label: "no overlap (stops now)" },
            { value: "1h", label: "1 hour" },
            { value: "24h", label: "24 hours" },
            { value: "7d", label: "7 days" },
          ]}
        />
        <Field name="reason" label="Reason" required placeholder="e.g. yearly rotation" />
        <div className="sm:pt-6">
          <SubmitButton>Rotate secret</SubmitButton>
        </div>
      </ActionForm>
    </div>
  );
}
