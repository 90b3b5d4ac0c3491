"use client";

import { usePolled } from "@/components/console/use-polled";
import { ConsoleDeliveryPage } from "@/lib/contract/schemas/console/views";
import Link from "next/link";
import { ActionForm, Hidden, SubmitButton, type ConsoleFormAction } from "@/components/console/forms";
import { EmptyState, Notice, StatusBadge, Table, Td } from "@/components/console/ui";
import type { DeliveryPage } from "@/lib/domain/callbacks/manage-callbacks";
import { ConsoleTime } from "@/components/console/time";
import { countOf } from "@/lib/application/console/words";
import { addressWaitText } from "@/lib/contract/callbacks/retry-schedule";
import { formatConsoleTime } from "@/lib/platform/time-format";

/** Callback deliveries, refreshed every 2 s while one is PENDING; FAILED and NOT CONFIGURED rows can be requeued. */
export function DeliveriesTable({
  initial,
  query,
  showMerchant,
  requeue,
}: {
  initial: DeliveryPage;
  query: string;
  showMerchant: boolean;
  /** The console's requeue action, passed by the page. */
  requeue: ConsoleFormAction;
}) {
  const { data: page, error } = usePolled(`/api/console/deliveries?${query}`, initial, 2000, ConsoleDeliveryPage);
  if (page.items.length === 0) return <EmptyState title="No deliveries">Events appear here when payments succeed, fail or expire.</EmptyState>;
  return (
    <>
      {error ? <Notice tone="error">Live refresh failed: {error.message}</Notice> : null}
      <Table
        caption="Callback deliveries"
        head={["Created (Dubai)", "Event", ...(showMerchant ? ["Merchant"] : []), "State", "Last error", "Next attempt (Dubai)", ""]}
      >
        {page.items.map((d) => (
          <tr key={d.id} data-testid={`delivery-${d.id}`}>
            <Td wrap className="min-w-[6rem]">
              <ConsoleTime at={d.createdAt} recordedAt={d.recordedAt} zone={false} />
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
              {d.state === "PENDING" ? <ConsoleTime at={d.nextAttemptAt} zone={false} /> : "—"}
              {d.state === "PENDING" && d.waitingSince ? (
                <span className="block text-xs text-amber-800" data-testid="delivery-waiting">
                  waiting: {addressWaitText(formatConsoleTime(d.waitingSince))}
                </span>
              ) : null}
            </Td>
            <Td>
              {d.state === "FAILED" || d.state === "NOT_CONFIGURED" ? (
                <ActionForm action={requeue} label={`Requeue delivery ${d.id}`}>
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
