"use client";

import { usePolled } from "@/components/console/use-polled";
import { ConsolePaymentView } from "@/lib/contract/schemas/console/views";
import { ApproveButton } from "@/components/console/approve-button";
import type { ConsoleFormAction } from "@/components/console/forms";
import { Card, DefinitionList, EmptyState, Notice, StatusBadge, Table, Td } from "@/components/console/ui";
import { formatBps } from "@/lib/application/console/format";
import { ConsoleTime } from "@/components/console/time";
import { formatConsoleTime, formatRealTime, formatSandboxTime, type MerchantTimeText } from "@/lib/platform/time-format";
import type { PaymentView } from "@/lib/domain/payments/payment-views";
import { countOf } from "@/lib/application/console/words";

const SNAPSHOT_LABELS: [string, string][] = [
  ["ruleVersion", "Profile version"],
  ["fallback", "Fallback pricing"],
  ["rateDay", "Rate day (Dubai)"],
  ["originalCurrency", "Original currency"],
  ["chargeCurrency", "Charge currency"],
  ["settlementCurrency", "Settlement currency"],
  ["baseRate", "Base rate"],
  ["effectiveRate", "Effective rate"],
  ["settlementRate", "Settlement rate"],
  ["commissionBps", "Commission"],
  ["markupBps", "FX markup"],
  ["bufferBps", "Risk buffer"],
  ["reserveBps", "Reserve"],
  ["amountMinor", "Amount (minor units)"],
  ["fee", "Fee"],
  ["reserve", "Reserve amount"],
  ["merchantNet", "Merchant net"],
  ["settlementNet", "Settlement net"],
  ["gateway", "Charge (minor units)"],
  ["atBase", "At base rate (minor)"],
  ["markupIncome", "Markup income (minor)"],
  ["bufferIncome", "Buffer income (minor)"],
  ["fxIncome", "FX income (minor)"],
  ["delayDays", "Settlement delay (days)"],
  ["reserveDays", "Reserve held (days)"],
];

function snapshotValue(key: string, value: unknown): string {
  if (key.endsWith("Bps")) return formatBps(value as number);
  if (typeof value === "boolean") return value ? "yes" : "no";
  return value === null || value === undefined ? "—" : String(value);
}

/**
 * A time of the payment itself (acceptance end, approval, conclusion): the merchant's clock, so a sandbox time when the
 * payment carries a sandbox clock (docs/operating.md "Times in the console").
 */
type PaymentClock = (at: MerchantTimeText | null | undefined) => string;

function paymentClock(p: PaymentView["payment"]): PaymentClock {
  return (at) => (p.sandboxClock ? formatSandboxTime(at) : formatConsoleTime(at));
}

/** What the scenario rule that matched a payment did or will do (docs/api.md "Scenario rules"); the rule's name isolated. */
function scenarioText(s: NonNullable<PaymentView["payment"]["scenario"]>, time: PaymentClock): React.ReactNode {
  const outcome = s.failureCode ? `${s.outcome} ${s.failureCode}` : s.outcome;
  const name = <bdi>{s.name}</bdi>;
  if (s.concludedAt)
    return (
      <>
        Concluded by scenario rule {name} ({outcome}) at {time(s.concludedAt)}
      </>
    );
  if (s.outcome === "EXPIRE")
    return (
      <>
        Scenario rule {name}: left to expire at {time(s.dueAt)}
      </>
    );
  return (
    <>
      Scenario rule {name}: {outcome} {s.dueAt ? `due ${time(s.dueAt)}` : "after approval"} (unless concluded otherwise first)
    </>
  );
}

/** One payment: summary, approval, pricing snapshot, ledger and callbacks; refreshed every 3 s while it can change. */
/** A payment's detail, polled every 3 s; `approve` is the console's approve action, passed by the page. */
export function PaymentDetail({ initial, approve }: { initial: PaymentView; approve: ConsoleFormAction }) {
  const { data: v, error } = usePolled(`/api/console/payments/${initial.payment.id}`, initial, 3000, ConsolePaymentView);
  const p = v.payment;
  const time = paymentClock(p);
  const snapshot = (p.pricing ?? null) as Record<string, unknown> | null;
  return (
    <div className="space-y-4">
      {error ? <Notice tone="error">Live refresh failed: {error.message}</Notice> : null}
      <Card
        title="Summary"
        actions={
          <span data-testid="payment-status">
            <StatusBadge status={p.status} />
          </span>
        }
      >
        <DefinitionList
          items={[
            [
              "Reference",
              // Merchant text is isolated wherever it is shown (docs/decisions/0206-merchant-text-without-direction-controls.md).
              <bdi key="r" className="font-medium" data-testid="payment-reference">
                {p.reference}
              </bdi>,
            ],
            ["Merchant", <bdi key="m">{v.merchantName}</bdi>],
            ["Amount", `${p.amount} ${p.currency}`],
            ["Fee", `${p.fee} ${p.currency}`],
            ["Kind", `${p.direction === "DEPOSIT" ? "Deposit" : "Withdrawal"} by ${p.method === "GATEWAY" ? "gateway" : "bank transfer"}`],
            [
              "Created",
              <span key="cr">
                <ConsoleTime at={p.createdAt} recordedAt={p.recordedAt} />
                {v.payment.createdBy ? ` by ${v.payment.createdBy}'s API key` : ""}
              </span>,
            ],
            ["Acceptance ends", time(p.expiresAt)],
            ["Approved", p.approvedAt ? `${time(p.approvedAt)}${v.payment.approvedBy ? ` by ${v.payment.approvedBy}` : ""}` : "—"],
            ["Finalized", time(p.finalizedAt)],
            [
              "Payment id",
              <code key="id" className="font-mono text-xs">
                {p.id}
              </code>,
            ],
            ...(p.checkout ? [["Store checkout", `${p.checkout.state} · charge ${p.checkout.chargeAmount} AED`] as [string, string]] : []),
            ...(v.payment.description ? [["Description", <bdi key="d">{v.payment.description}</bdi>] as [string, React.ReactNode]] : []),
            ...(p.failure
              ? [
                  [
                    "Failure",
                    <span key="fl" data-testid="payment-failure">
                      <code className="font-mono text-xs">{p.failure.code}</code>: {p.failure.message}
                    </span>,
                  ] as [string, React.ReactNode],
                ]
              : []),
            ...(p.scenario
              ? [
                  [
                    "Scenario rule",
                    <span key="sc" data-testid="payment-scenario">
                      {scenarioText(p.scenario, time)}
                    </span>,
                  ] as [string, React.ReactNode],
                ]
              : []),
            ...(p.sandboxClock
              ? [
                  [
                    "Sandbox clock",
                    `${p.sandboxClock.offset} ahead of the real time: times marked "sandbox" are the merchant's sandbox clock, times marked "Dubai" the real clock`,
                  ] as [string, string],
                ]
              : []),
          ]}
        />
      </Card>
      {v.isWithdrawalAwaitingApproval ? (
        <Card title="Approval" description="A withdrawal is approved by a console user other than the one whose API key created it.">
          <ApproveButton paymentId={p.id} reference={p.reference} amount={p.amount} currency={p.currency} refusal={v.approvalRefusal} approve={approve} />
        </Card>
      ) : null}
      <Card title="Pricing snapshot" description="Fixed when the payment was created; later profile or rate changes never alter it.">
        {snapshot ? (
          <div data-testid="pricing-snapshot">
            <DefinitionList
              columns={2}
              items={SNAPSHOT_LABELS.filter(([k]) => k in snapshot).map(([k, label]) => [
                label,
                <span key={k} data-field={k} className="tabular-nums">
                  {snapshotValue(k, snapshot[k])}
                </span>,
              ])}
            />
          </div>
        ) : (
          <EmptyState title="No pricing snapshot">Payments from version 0.1 have none.</EmptyState>
        )}
      </Card>
      <Card title="Ledger" description="Balanced double-entry postings; written when the payment succeeds.">
        {v.ledger.length === 0 ? (
          <EmptyState title="No ledger entry yet">A ledger entry is written when the payment succeeds.</EmptyState>
        ) : (
          v.ledger.map((entry) => (
            <div key={entry.id} className="mb-3 last:mb-0">
              <p className="mb-2 text-sm text-slate-600">
                {/* Ledger entries keep the real clock (docs/architecture.md "Which clock a column holds"). */}
                Entry <strong>{entry.kind}</strong> · {formatRealTime(entry.createdAt)}
              </p>
              <Table head={["Account", "Currency", "Debit (+) / credit (−)"]}>
                {entry.lines.map((l, i) => (
                  <tr key={i}>
                    <Td mono>{l.account}</Td>
                    <Td>{l.currency}</Td>
                    <Td className="text-right tabular-nums">{l.amount}</Td>
                  </tr>
                ))}
              </Table>
            </div>
          ))
        )}
      </Card>
      <Card title="Events and callbacks">
        {v.events.length === 0 ? (
          <EmptyState title="No events yet">An event is sent when the payment succeeds, fails or expires.</EmptyState>
        ) : (
          <ul className="space-y-4">
            {v.events.map((e) => (
              <li key={e.id} className="rounded-lg border border-slate-200 p-3">
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <code className="font-mono text-xs">{e.type}</code>
                  <span className="text-slate-500">{time(e.createdAt)}</span>
                  {e.delivery ? <StatusBadge status={e.delivery.state} /> : null}
                  {e.delivery ? <span className="text-slate-500">{countOf(e.delivery.attemptCount, "attempt")}</span> : null}
                </div>
                {e.delivery?.lastError ? <p className="mt-1 text-xs text-rose-700">Last error: {e.delivery.lastError}</p> : null}
                {e.delivery && e.delivery.attempts.length > 0 ? (
                  <div className="mt-2">
                    <Table head={["#", "Started (Dubai)", "Duration", "HTTP", "Error"]}>
                      {e.delivery.attempts.map((a) => (
                        <tr key={a.number}>
                          <Td>{a.number}</Td>
                          <Td>{formatRealTime(a.startedAt, { zone: false, seconds: true })}</Td>
                          <Td className="tabular-nums">{a.durationMs} ms</Td>
                          <Td>{a.statusCode ?? "—"}</Td>
                          <Td className="max-w-xs truncate">{a.error ?? "—"}</Td>
                        </tr>
                      ))}
                    </Table>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
