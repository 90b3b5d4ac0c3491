import { ActionForm, Field, Hidden, SubmitButton } from "@/components/console/forms";
import { Card, EmptyState, RecordItem, RecordList, StatusBadge } from "@/components/console/ui";
import { addIp, approveIpRequest, cancelIpRequest, rejectIpRequest, removeIp } from "@/app/console/actions/allow-list";
import type { AllowedIpRequestView } from "@/lib/domain/merchants/allow-list";
import { formatConsoleTime } from "@/lib/platform/time-format";

type Props = {
  merchantId: string;
  operator: boolean;
  entries: { id: string; address: string; createdAt: Date }[];
  pending: AllowedIpRequestView[];
  decided: AllowedIpRequestView[];
};

/**
 * The merchant page's server IP allow-list (docs/api.md "Authentication" 6): the approved entries (removable by both roles),
 * the pending requests (operators approve or reject with a reason, the merchant's users cancel), the add form (an
 * operator adds at once, a MERCHANT user files a request) and the latest decisions with their reasons.
 */
export function AllowListCard({ merchantId, operator, entries, pending, decided }: Props) {
  return (
    <Card
      id="allow-list"
      title="Server IP allow-list"
      description={`Exact IPv4 or IPv6 addresses of the merchant's fixed egress servers; no CIDR ranges, no wildcards. Store payments and checkout sessions are accepted only from these. ${operator ? "Addresses merchants request are allowed once you approve them." : "New addresses are requests: they are allowed once an operator approves them."}`}
    >
      {entries.length === 0 ? (
        <EmptyState title="No addresses yet" />
      ) : (
        <RecordList label="Allowed server IPs">
          {entries.map((ip) => (
            <RecordItem
              key={ip.id}
              title={<span className="font-mono">{ip.address}</span>}
              details={`added ${formatConsoleTime(ip.createdAt)}`}
              action={
                <ActionForm action={removeIp} label={`Remove ${ip.address}`} confirm={`Remove ${ip.address} from the allow-list?`}>
                  <Hidden name="merchantId" value={merchantId} />
                  <Hidden name="allowedIpId" value={ip.id} />
                  <SubmitButton variant="secondary">Remove</SubmitButton>
                </ActionForm>
              }
            />
          ))}
        </RecordList>
      )}

      {pending.length > 0 ? (
        <div className="mt-5">
          <h3 className="mb-2 text-sm font-semibold text-slate-800">Waiting for an operator&apos;s approval</h3>
          <RecordList label="Pending allow-list requests">
            {pending.map((r) => (
              <RecordItem
                key={r.id}
                title={
                  <>
                    <span className="font-mono">{r.address}</span> <StatusBadge status={r.state} />
                  </>
                }
                details={`requested by ${r.requestedBy} ${formatConsoleTime(r.createdAt)}; not allowed yet`}
                action={operator ? <Decide merchantId={merchantId} request={r} /> : <Cancel merchantId={merchantId} request={r} />}
              />
            ))}
          </RecordList>
        </div>
      ) : null}

      <ActionForm
        action={addIp}
        label={operator ? "Add an address" : "Request an address"}
        className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start"
        resetOnSuccess
      >
        <Hidden name="merchantId" value={merchantId} />
        <Field
          name="address"
          label="Address"
          required
          placeholder="203.0.113.10 or 2001:db8::10"
          className="flex-1"
          hint={operator ? "Added at once." : "An operator reviews the request before the address is allowed."}
        />
        <div className="sm:pt-6">
          <SubmitButton>{operator ? "Add address" : "Request address"}</SubmitButton>
        </div>
      </ActionForm>

      {decided.length > 0 ? (
        <div className="mt-5">
          <h3 className="mb-2 text-sm font-semibold text-slate-800">Recent decisions</h3>
          <RecordList label="Decided allow-list requests">
            {decided.map((r) => (
              <RecordItem
                key={r.id}
                title={
                  <>
                    <span className="font-mono">{r.address}</span> <StatusBadge status={r.state} />
                  </>
                }
                details={`requested by ${r.requestedBy}; ${r.state.toLowerCase()} by ${r.decidedBy ?? "a removed user"} ${formatConsoleTime(r.decidedAt)}${r.reason ? `: ${r.reason}` : ""}`}
              />
            ))}
          </RecordList>
        </div>
      ) : null}
    </Card>
  );
}

/** An operator's Approve button and Reject form (a reason is required) for one pending request. */
function Decide({ merchantId, request }: { merchantId: string; request: AllowedIpRequestView }) {
  return (
    <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row sm:items-start">
      <ActionForm action={approveIpRequest} label={`Approve ${request.address}`}>
        <Hidden name="merchantId" value={merchantId} />
        <Hidden name="requestId" value={request.id} />
        <div className="sm:pt-6">
          <SubmitButton>Approve</SubmitButton>
        </div>
      </ActionForm>
      <ActionForm action={rejectIpRequest} label={`Reject ${request.address}`} className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <Hidden name="merchantId" value={merchantId} />
        <Hidden name="requestId" value={request.id} />
        <Field name="reason" label="Reason for rejecting" required />
        <div className="sm:pt-6">
          <SubmitButton variant="danger">Reject</SubmitButton>
        </div>
      </ActionForm>
    </div>
  );
}

/** A MERCHANT user's Cancel button for one of its merchant's pending requests. */
function Cancel({ merchantId, request }: { merchantId: string; request: AllowedIpRequestView }) {
  return (
    <ActionForm action={cancelIpRequest} label={`Cancel the request for ${request.address}`} confirm={`Cancel the request for ${request.address}?`}>
      <Hidden name="merchantId" value={merchantId} />
      <Hidden name="requestId" value={request.id} />
      <SubmitButton variant="secondary">Cancel request</SubmitButton>
    </ActionForm>
  );
}
