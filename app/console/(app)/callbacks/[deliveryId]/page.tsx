import Link from "next/link";
import { Card, DefinitionList, EmptyState, PageHeader, StatusBadge, Table, Td, linkClass } from "@/components/console/ui";
import { deliveryDetail } from "@/lib/console/callbacks";
import { formatDateTime } from "@/lib/console/format";
import { orNotFound, requireActor } from "@/lib/console/session";
import { getDb } from "@/lib/db";

export const dynamic = "force-dynamic";

export default async function DeliveryPage({ params }: { params: Promise<{ deliveryId: string }> }) {
  const actor = await requireActor();
  const { deliveryId } = await params;
  const d = await orNotFound(deliveryDetail(getDb(), actor, deliveryId));
  return (
    <>
      <p className="mb-2 text-sm"><Link className={linkClass} href="/console/callbacks">← Callbacks</Link></p>
      <PageHeader title={`Delivery of ${d.event.type}`} description={<>Event id <code className="font-mono text-xs">{d.eventId}</code> (X-Service-Event-Id, kept across retries)</>} actions={<StatusBadge status={d.state} />} />
      <div className="space-y-4">
        <Card title="Delivery">
          <DefinitionList
            items={[
              ["State", d.state.replace("_", " ")],
              ["Attempts this round", `${d.attemptCount} of 8`],
              ["Next attempt", d.state === "PENDING" ? formatDateTime(d.nextAttemptAt) : "—"],
              ["Delivered", formatDateTime(d.deliveredAt)],
              ["Last error", d.lastError ?? "—"],
              ["Payment", d.event.paymentId ? <Link key="p" className={linkClass} href={`/console/payments/${d.event.paymentId}`}>{d.event.paymentId}</Link> : "test event"],
            ]}
          />
        </Card>
        <Card title="Attempts">
          {d.attempts.length === 0 ? (
            <EmptyState title="No attempts yet" />
          ) : (
            <Table caption="Attempts" head={["#", "Started (Dubai)", "Duration", "HTTP", "Error", "Response (start)", "Address"]}>
              {d.attempts.map((a) => (
                <tr key={a.id}>
                  <Td>{a.number}</Td>
                  <Td>{formatDateTime(a.startedAt)}</Td>
                  <Td className="tabular-nums">{a.durationMs} ms</Td>
                  <Td>{a.statusCode ?? "—"}</Td>
                  <Td wrap className="min-w-[10rem]">{a.error ?? "—"}</Td>
                  <Td className="max-w-[14rem] truncate" mono>{a.responseSnippet ?? "—"}</Td>
                  <Td className="max-w-[16rem] truncate" mono>{a.url}</Td>
                </tr>
              ))}
            </Table>
          )}
        </Card>
        <Card title="Signed body" description="These exact bytes are signed and sent on every attempt.">
          <pre className="max-h-80 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-3 font-mono text-xs text-slate-800">{d.event.body}</pre>
        </Card>
      </div>
    </>
  );
}
