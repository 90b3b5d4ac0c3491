import Link from "next/link";
import { PaymentsCharts } from "@/components/console/charts/payments-charts";
import { Card, MerchantFilter, Notice, PageHeader, StatusBadge, linkClass } from "@/components/console/ui";
import { merchantOptions } from "@/lib/domain/merchants/manage-merchants";
import { overview } from "@/lib/domain/reports/overview";
import { reportMerchantParam } from "@/lib/domain/reports/days";
import { paymentsOverview } from "@/lib/domain/reports/payments-overview";
import { requireActor } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";

export const dynamic = "force-dynamic";

function Figure({ label, value, href, hint }: { label: string; value: number; href: string; hint: string }) {
  return (
    <Link href={href} className="block rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-indigo-300">
      <p className="text-sm text-slate-500">{label}</p>
      <p className="mt-1 text-3xl font-semibold tabular-nums text-slate-900">{value}</p>
      <p className="mt-1 text-xs text-slate-500">{hint}</p>
    </Link>
  );
}

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requireActor();
  const chosen = actor.role === "OPERATOR" ? reportMerchantParam((await searchParams).merchant) : null;
  const [o, charts, merchants] = await Promise.all([
    overview(getDb(), actor),
    paymentsOverview(getDb(), actor, { merchantId: chosen }),
    actor.role === "OPERATOR" ? merchantOptions(getDb()) : Promise.resolve([]),
  ]);
  const paused = o.settings.intakePaused || o.settings.pausedChannels.length > 0;
  return (
    <>
      <PageHeader
        title={o.merchant ? o.merchant.name : "Overview"}
        description={`Dubai business day ${o.day}. Signed in as ${actor.username}.`}
        actions={o.merchant ? <StatusBadge status={o.merchant.status} /> : null}
      />
      <div className="space-y-4">
        {paused ? (
          <Notice tone="warning" title="Payment intake is paused">
            {o.settings.intakePaused
              ? "All new payments are refused with 503 PAYMENT_INTAKE_PAUSED."
              : `Paused channels: ${o.settings.pausedChannels.join(", ")}.`}
            {actor.role === "OPERATOR" ? (
              <>
                {" "}
                <Link className={linkClass} href="/console/settings">
                  Change
                </Link>
              </>
            ) : null}
          </Notice>
        ) : null}
        {o.operator && o.operator.missingRates.length > 0 ? (
          <Notice tone="warning" title={`No rate for today (${o.day}) for ${o.operator.missingRates.map((r) => r.pair).join(", ")}`}>
            Cross-currency payments on these pairs are refused with 409 FX_RATE_MISSING.{" "}
            <Link className={linkClass} href="/console/rates">
              Enter today&apos;s rates
            </Link>
          </Notice>
        ) : null}
        {o.operator && o.operator.missingRatesAhead.length > 0 ? (
          <Notice tone="warning" title="Rates missing in the next 7 days">
            <p>Enter them before the day starts (20:00 UTC the evening before), or cross-currency payments on these pairs are refused then.</p>
            <ul className="mt-1 list-disc pl-5" data-testid="missing-rates-ahead">
              {o.operator.missingRatesAhead.map((m) => (
                <li key={m.pair}>
                  <strong>{m.pair}</strong> (needed by {m.usedBy} enabled pricing profile{m.usedBy === 1 ? "" : "s"}): no rate for{" "}
                  {m.days.length > 3 ? `${m.days.length} days from ${m.days[0]} to ${m.days.at(-1)}` : m.days.join(", ")}.{" "}
                  <Link className={linkClass} href={`/console/rates?base=${m.base}&quote=${m.quote}&day=${m.days[0]}`}>
                    Enter {m.pair} from {m.days[0]}
                  </Link>
                </li>
              ))}
            </ul>
          </Notice>
        ) : null}
        {o.merchant && o.merchant.status !== "ACTIVE" ? (
          <Notice tone="warning" title="This merchant is not active">
            API keys are refused until an operator activates it.
          </Notice>
        ) : null}
        {/* Payments today, with last week's figure, is the first card of the charts below (shown once). */}
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <Figure
            label="Withdrawals awaiting approval"
            value={o.awaitingApproval}
            href="/console/approvals"
            hint="Approved by someone other than the creator"
          />
          <Figure
            label="Callbacks needing attention"
            value={o.deliveriesNeedingAttention}
            href="/console/callbacks"
            hint={`FAILED or NOT CONFIGURED deliveries that no listener delivered${o.deliveredByListener > 0 ? `; ${o.deliveredByListener} more received through sandpiper listen` : ""}`}
          />
          {o.operator ? (
            <Figure
              label="Allow-list requests to review"
              value={o.pendingAllowListRequests}
              href="/console/merchants"
              hint="Server IPs merchants asked for; approve or reject on the merchant's page"
            />
          ) : (
            <Figure
              label="Allow-list requests pending"
              value={o.pendingAllowListRequests}
              href={`/console/merchants/${actor.merchantId}`}
              hint="Server IPs waiting for an operator's approval"
            />
          )}
        </div>
        {o.operator ? (
          <form
            method="get"
            aria-label="Choose the merchant of the charts"
            className="flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
          >
            <MerchantFilter
              merchants={merchants}
              selected={chosen ?? undefined}
              label="Charts for"
              anyLabel="All merchants"
              className="block min-w-0 max-w-full text-xs font-medium text-slate-600"
              fill={false}
            />
            <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-indigo-700">
              Show
            </button>
          </form>
        ) : null}
        <PaymentsCharts initial={charts} url={`/api/console/reports/payments${chosen ? `?merchant=${chosen}` : ""}`} />
        {o.operator ? (
          <Card title="Service">
            <ul className="space-y-1 text-sm text-slate-700">
              <li>
                Inactive merchants: <strong>{o.operator.inactiveMerchants}</strong> —{" "}
                <Link className={linkClass} href="/console/merchants">
                  merchants
                </Link>
              </li>
              <li>
                Store checkout: <strong>{o.settings.storeEnabled ? "enabled" : "disabled"}</strong>
              </li>
              <li>
                Global amount limit: {o.settings.globalMinAmount} to {o.settings.globalMaxAmount} in the payment currency
              </li>
            </ul>
          </Card>
        ) : null}
      </div>
    </>
  );
}
