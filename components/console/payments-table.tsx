"use client";

import { usePolled } from "@/components/console/use-polled";
import { ConsolePaymentPage } from "@/lib/contract/schemas/console/views";
import Link from "next/link";
import { EmptyState, Notice, StatusBadge, Table, Td } from "@/components/console/ui";
import type { listConsolePayments } from "@/lib/domain/payments/payment-views";
import { ConsoleTime } from "@/components/console/time";

type Page = Awaited<ReturnType<typeof listConsolePayments>>;

/**
 * The payment list, refreshed every 3 s while a shown payment can still change state; in the order the payments were
 * written, a payment made under a moved sandbox clock showing its sandbox time beside the real one.
 */
export function PaymentsTable({ initial, query, showMerchant, filtered }: { initial: Page; query: string; showMerchant: boolean; filtered: boolean }) {
  const { data: page, error } = usePolled(`/api/console/payments?${query}`, initial, 3000, ConsolePaymentPage);
  if (page.items.length === 0) {
    return <EmptyState title={filtered ? "No payments match these filters" : "No payments yet"}>Payments created through the API appear here.</EmptyState>;
  }
  return (
    <>
      {error ? <Notice tone="error">Live refresh failed: {error.message}</Notice> : null}
      <ul aria-label="Payments" className="-mx-1 space-y-2 sm:hidden">
        {page.items.map((p) => (
          <li key={p.id}>
            <Link href={`/console/payments/${p.id}`} className="block rounded-lg border border-slate-200 px-3 py-2 hover:border-indigo-300">
              <span className="flex items-start justify-between gap-2">
                <bdi className="min-w-0 break-all font-medium text-indigo-700">{p.reference}</bdi>
                <span className="shrink-0">
                  <StatusBadge status={p.status} />
                </span>
              </span>
              <span className="mt-1 flex flex-wrap justify-between gap-x-2 text-sm text-slate-600">
                <span className="tabular-nums">
                  {p.amount} {p.currency}
                </span>
                <span>
                  {p.direction === "DEPOSIT" ? "Deposit" : "Withdrawal"} · {p.method === "GATEWAY" ? "Gateway" : "Bank transfer"}
                </span>
              </span>
              <span className="block text-xs text-slate-500">
                <ConsoleTime at={p.createdAt} recordedAt={p.recordedAt} />
                {showMerchant ? (
                  <>
                    {" · "}
                    <bdi>{p.merchantName}</bdi>
                  </>
                ) : null}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <div className="hidden sm:block">
        <Table caption="Payments" head={["Created (Dubai)", "Reference", "Status", ...(showMerchant ? ["Merchant"] : []), "Amount", "Fee", "Kind"]}>
          {page.items.map((p) => (
            <tr key={p.id} className="hover:bg-slate-50">
              <Td wrap className="min-w-[8rem]">
                <ConsoleTime at={p.createdAt} recordedAt={p.recordedAt} zone={false} />
              </Td>
              {/* A long reference breaks onto more lines rather than pushing the last columns out of view. */}
              <Td wrap className="min-w-[10rem]">
                <Link href={`/console/payments/${p.id}`} className="break-all font-medium text-indigo-700 hover:underline">
                  <bdi>{p.reference}</bdi>
                </Link>
              </Td>
              <Td>
                <StatusBadge status={p.status} />
              </Td>
              {showMerchant ? (
                <Td wrap className="min-w-[7rem]">
                  <bdi>{p.merchantName}</bdi>
                </Td>
              ) : null}
              <Td className="text-right tabular-nums">
                {p.amount} {p.currency}
              </Td>
              <Td className="text-right tabular-nums">{p.fee}</Td>
              {/* Two short lines instead of one long one: the table fits a 1280 px laptop beside the navigation. */}
              <Td>
                <span className="block">{p.direction === "DEPOSIT" ? "Deposit" : "Withdrawal"}</span>
                <span className="block text-xs text-slate-500">{p.method === "GATEWAY" ? "Gateway" : "Bank transfer"}</span>
              </Td>
            </tr>
          ))}
        </Table>
      </div>
    </>
  );
}
