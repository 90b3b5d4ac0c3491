import Link from "next/link";
import type { ReactNode } from "react";
import { approvePayment } from "@/app/console/actions/payments";
import { ApproveButton } from "@/components/console/approve-button";
import { Card, EmptyState, Notice, PageHeader, Pager } from "@/components/console/ui";
import { pageParam } from "@/lib/application/console/format";
import { ConsoleTime } from "@/components/console/time";
import { formatConsoleTime } from "@/lib/platform/time-format";
import { approvalQueue, approvedWithdrawal } from "@/lib/domain/payments/payment-views";
import { requireActor } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";

export const dynamic = "force-dynamic";

export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requireActor();
  const params = await searchParams;
  const queue = await approvalQueue(getDb(), actor, pageParam(params.page));
  const approved = await approvedWithdrawal(getDb(), actor, typeof params.approved === "string" ? params.approved : undefined);
  return (
    <>
      <PageHeader
        title="Withdrawal approvals"
        description="Withdrawals wait here in PENDING_APPROVAL. Approval moves one to PENDING; the user whose API key created it cannot approve it, and an expired one cannot be approved."
      />
      {approved ? (
        <div className="mb-4" data-testid="approved-notice">
          <Notice
            tone="success"
            title={
              <>
                Approved withdrawal <bdi>{approved.reference}</bdi> ({approved.amount} {approved.currency})
              </>
            }
          >
            It is now {approved.status}. Complete it through the API (POST /v1/sandbox/payments/&#123;id&#125;/complete)
            {approved.expiresAt ? ` before ${formatConsoleTime(approved.expiresAt)}` : ""}.{" "}
            <Link className="font-medium underline" href={`/console/payments/${approved.id}`}>
              View the payment
            </Link>
          </Notice>
        </div>
      ) : null}
      <Card>
        {queue.items.length === 0 ? (
          <EmptyState title="Nothing to approve">New withdrawals created through the API appear here.</EmptyState>
        ) : (
          // A list rather than a table: each withdrawal carries an action and, when it is refused, the reason,
          // which a table column would squeeze or push out of view on a laptop or a phone.
          <ul aria-label="Withdrawals awaiting approval" className="divide-y divide-slate-100 rounded-lg border border-slate-200">
            {queue.items.map((p) => (
              <li
                key={p.id}
                data-testid={`approval-${p.reference}`}
                className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-start sm:justify-between sm:gap-6"
              >
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                    <Link href={`/console/payments/${p.id}`} className="break-all font-medium text-indigo-700 hover:underline">
                      <bdi>{p.reference}</bdi>
                    </Link>
                    <span className="text-sm font-semibold tabular-nums text-slate-900">
                      {p.amount} {p.currency}
                    </span>
                  </p>
                  <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm min-[480px]:grid-cols-2 xl:grid-cols-4">
                    {actor.role === "OPERATOR" ? (
                      <Detail label="Merchant">
                        <bdi>{p.merchantName}</bdi>
                      </Detail>
                    ) : null}
                    <Detail label="Created by">{p.createdBy ?? "—"}</Detail>
                    <Detail label="Created (Dubai)">
                      <ConsoleTime at={p.createdAt} recordedAt={p.recordedAt} zone={false} />
                    </Detail>
                    <Detail label="Approve by (Dubai)">
                      <ConsoleTime at={p.expiresAt} zone={false} sandbox={p.sandboxClock !== undefined} />
                    </Detail>
                  </dl>
                </div>
                <div className="sm:w-56 sm:shrink-0">
                  <ApproveButton
                    paymentId={p.id}
                    reference={p.reference}
                    amount={p.amount}
                    currency={p.currency}
                    refusal={p.refusal}
                    approve={approvePayment}
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
        <Pager page={queue.page} pages={queue.pages} total={queue.total} basePath="/console/approvals" />
      </Card>
    </>
  );
}

/** One labelled value of a withdrawal in the queue. */
function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="break-words text-slate-800">{children}</dd>
    </div>
  );
}
