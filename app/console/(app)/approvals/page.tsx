import Link from "next/link";
import { ApproveButton } from "@/components/console/approve-button";
import { Card, EmptyState, PageHeader, Pager, Table, Td } from "@/components/console/ui";
import { formatDateTime, pageParam } from "@/lib/console/format";
import { approvalQueue } from "@/lib/console/payments";
import { requireActor } from "@/lib/console/session";
import { getDb } from "@/lib/db";

export const dynamic = "force-dynamic";

export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requireActor();
  const queue = await approvalQueue(getDb(), actor, pageParam((await searchParams).page));
  return (
    <>
      <PageHeader
        title="Withdrawal approvals"
        description="Withdrawals wait here in PENDING_APPROVAL. Approval moves one to PENDING; the user whose API key created it cannot approve it, and an expired one cannot be approved."
      />
      <Card>
        {queue.items.length === 0 ? (
          <EmptyState title="Nothing to approve">New withdrawals created through the API appear here.</EmptyState>
        ) : (
          <Table caption="Withdrawals awaiting approval" head={["Reference", ...(actor.role === "OPERATOR" ? ["Merchant"] : []), "Amount", "Created by", "Created (Dubai)", "Approve by", ""]}>
            {queue.items.map((p) => (
              <tr key={p.id} data-testid={`approval-${p.reference}`}>
                <Td><Link href={`/console/payments/${p.id}`} className="font-medium text-indigo-700 hover:underline">{p.reference}</Link></Td>
                {actor.role === "OPERATOR" ? <Td>{p.merchantName}</Td> : null}
                <Td className="text-right tabular-nums">{p.amount} {p.currency}</Td>
                <Td>{p.createdBy ?? "—"}</Td>
                <Td>{formatDateTime(p.createdAt)}</Td>
                <Td>{formatDateTime(p.expiresAt)}</Td>
                <Td className="whitespace-normal"><ApproveButton paymentId={p.id} refusal={p.refusal} /></Td>
              </tr>
            ))}
          </Table>
        )}
        <Pager page={queue.page} pages={queue.pages} total={queue.total} basePath="/console/approvals" />
      </Card>
    </>
  );
}
