"use client";

import { usePolled } from "@/components/console/use-polled";
import Link from "next/link";
import { ActionForm, Hidden, SubmitButton } from "@/components/console/forms";
import { EmptyState, Notice, StatusBadge, Table, Td } from "@/components/console/ui";
import { requeueAction } from "@/app/console/actions/callbacks";
import type { DeliveryPage } from "@/lib/callbacks/manage-callbacks";
import { formatDateTime } from "@/lib/console/format";
import { countOf } from "@/lib/console/words";

/** Callback deliveries, refreshed every 2 s while one is PENDING; FAILED and NOT CONFIGURED rows can be requeued. */
export function DeliveriesTable({ initial, query, showMerchant }: { initial: DeliveryPage; query: string; showMerchant: boolean }) {
  const { data: page, error } = usePolled<DeliveryPage>(`/api/console/deliveries?${query}`, initial, 2000);
  if (page.items.length === 0) return <EmptyState title="No deliveries">Events appear here when payments succeed, fail or expire.</EmptyState>;
  return (
    <>
      {error ? <Notice tone="error">Live refresh failed: {error.message}</Notice> : null}
      <Table
        caption="Callback deliveries"
        head={["Created (Dubai)", "Event", ...(showMerchant ? ["Merchant"] : []), "State", "Last error", "Next attempt", ""]}
      >
        {page.items.map((d) => (
          <tr key={d.id} data-testid={`delivery-${d.id}`}>
            <Td wrap className="min-w-[6rem]">
              {formatDateTime(d.createdAt)}
            </Td>
            <Td>
              <Link className="inline-flex min-h-6 items-center font-mono text-xs text-indigo-700 hover:underline" href={`/console/callbacks/${d.id}`}>
                {d.eventType}
              </Link>
              {d.test ? <span className="ml-1 text-xs text-slate-500">(test)</span> : null}
              {d.paymentId ? (
                <Link className="flex min-h-6 items-center text-xs text-slate-600 hover:underline" href={`/console/payments/${d.paymentId}`}>
                  payment
                </Link>
              ) : null}
            </Td>
            {showMerchant ? <Td wrap>{d.merchantName}</Td> : null}
            <Td>
              <span data-testid="delivery-state">
                <StatusBadge status={d.state} />
              </span>
              <span className="block text-xs text-slate-600">{countOf(d.attempts, "attempt")}</span>
            </Td>
            <Td wrap className="max-w-[11rem] break-all">
              {d.lastError ?? "—"}
            </Td>
            <Td wrap className="min-w-[6rem]">
              {d.state === "PENDING" ? formatDateTime(d.nextAttemptAt) : "—"}
            </Td>
            <Td>
              {d.state === "FAILED" || d.state === "NOT_CONFIGURED" ? (
                <ActionForm action={requeueAction} label={`Requeue delivery ${d.id}`}>
                  <Hidden name="deliveryId" value={d.id} />
                  <SubmitButton variant="secondary">Requeue</SubmitButton>
                </ActionForm>
              ) : null}
            </Td>
          </tr>
        ))}
      </Table>
    </>
  );
}
