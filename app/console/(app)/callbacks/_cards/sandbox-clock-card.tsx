import { ActionForm, Field, Hidden, SubmitButton } from "@/components/console/forms";
import { Card } from "@/components/console/ui";
import { moveClockAction } from "@/app/console/actions/sandbox-clock";
import { formatOffset } from "@/lib/platform/clock";

/**
 * The Callbacks page's sandbox clock card (docs/api.md "Sandbox clock"): how far the merchant's clock runs ahead, the
 * form that advances it and the one that sets it back to the real time. `clockOffsetMs` in milliseconds.
 */
export function SandboxClockCard({ merchantId, clockOffsetMs }: { merchantId: string; clockOffsetMs: bigint }) {
  return (
    <Card
      title="Sandbox clock"
      description="Moves this merchant's sandbox time ahead, as if that time had gone by: pending payments and checkout sessions past their expiry expire now, callback retries waiting for their time come sooner, velocity windows and daily and monthly limits roll over. Only this merchant's objects; callback signatures keep the real time. Also with POST /v1/sandbox/clock/advance."
    >
      <p className="mb-3 text-sm text-slate-700" data-testid="clock-state">
        {clockOffsetMs === 0n ? (
          <>
            The sandbox clock is at the <strong>real time</strong>.
          </>
        ) : (
          <>
            The sandbox clock runs <strong>{formatOffset(clockOffsetMs)}</strong> ahead of the real time.
          </>
        )}
      </p>
      <div className="flex flex-wrap items-start gap-6">
        <ActionForm action={moveClockAction} label="Advance the sandbox clock" className="w-full space-y-3 sm:w-80">
          <Hidden name="merchantId" value={merchantId} />
          <Field name="by" label="Advance by" required placeholder="e.g. 2h, 1d, 90m" />
          <Field name="reason" label="Reason" required placeholder="e.g. expiry test" />
          <SubmitButton>Advance</SubmitButton>
        </ActionForm>
        {clockOffsetMs !== 0n ? (
          <ActionForm action={moveClockAction} label="Reset the sandbox clock" className="w-full space-y-3 sm:w-80">
            <Hidden name="merchantId" value={merchantId} />
            <Field name="reason" label="Reason" required placeholder="e.g. done testing" />
            <SubmitButton variant="secondary">Back to the real time</SubmitButton>
          </ActionForm>
        ) : null}
      </div>
    </Card>
  );
}
