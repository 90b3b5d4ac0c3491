import Link from "next/link";
import { LimitUsageChart } from "@/components/console/charts/limit-usage-chart";
import { reportMerchantParam } from "@/lib/domain/reports/days";
import { limitUsage } from "@/lib/domain/reports/limit-usage";
import { savePricing } from "@/app/console/actions/pricing";
import { PricingForm, type PricingDefaults } from "@/components/console/pricing-form";
import { Badge, Card, EmptyState, PageHeader, Pager, Table, Td, linkClass } from "@/components/console/ui";
import { formatBps, pageParam, param } from "@/lib/application/console/format";
import { formatConsoleDay } from "@/lib/platform/time-format";
import { merchantOptions } from "@/lib/domain/merchants/manage-merchants";
import { listProfiles, profileHistory, versionAsInput } from "@/lib/domain/pricing/profile-versions";
import { requireOperatorPage } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";
import { ApiError } from "@/lib/contract/errors";
import { fromMinor } from "@/lib/contract/money/currency";
import { isUuid } from "@/lib/contract/schemas/api/common";

export const dynamic = "force-dynamic";

/** Form defaults from the latest version of `profileId` (the "new version" link), or none. */
async function defaultsFor(profileId: string | undefined): Promise<PricingDefaults> {
  if (!profileId) return {};
  // An unknown or malformed profile id in the link gives an empty form; any other failure is raised.
  const history = await profileHistory(getDb(), profileId).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === "NOT_FOUND") return null;
    throw error;
  });
  const latest = history?.profile.versions[0];
  if (!history || !latest) return {};
  const input = versionAsInput(history.profile, latest);
  const amount = (v: bigint | null) => (v === null ? "" : fromMinor(v));
  return {
    ...Object.fromEntries(Object.entries(input).map(([k, v]) => [k, typeof v === "number" ? String(v) : v])),
    minAmount: amount(input.minAmount),
    maxAmount: amount(input.maxAmount),
    dailyLimit: amount(input.dailyLimit),
    monthlyLimit: amount(input.monthlyLimit),
    reason: undefined,
  } as PricingDefaults;
}

export default async function PricingPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requireOperatorPage();
  const sp = await searchParams;
  const merchantId = param(sp.merchant);
  const chosen = reportMerchantParam(merchantId);
  const [merchants, profiles, defaults, usage] = await Promise.all([
    merchantOptions(getDb()),
    listProfiles(getDb(), { merchantId: merchantId && isUuid(merchantId) ? merchantId : undefined, page: pageParam(sp.page), limit: 20 }),
    defaultsFor(param(sp.profile)),
    limitUsage(getDb(), actor, { merchantId: chosen }),
  ]);
  return (
    <>
      <PageHeader
        title="Pricing profiles"
        description="One profile per merchant, transaction currency, channel and direction. Every save is a new, immutable version with a reason; payments keep the snapshot they were created with."
      />
      <div className="mb-4">
        <LimitUsageChart initial={usage} url={`/api/console/reports/limits${chosen ? `?merchant=${chosen}` : ""}`} />
      </div>
      <Card title="Profiles" className="mb-4">
        {profiles.items.length === 0 ? (
          <EmptyState title="No pricing profiles yet">
            Without a profile, a payment uses the merchant&apos;s fallback commission in its own currency.
          </EmptyState>
        ) : (
          <Table caption="Pricing profiles" head={["Profile", "Version", "Charge / settle", "Commission", "Markup + buffer", "State", ""]}>
            {profiles.items.map((p) => {
              const v = p.versions[0];
              return (
                <tr key={p.id}>
                  <Td>
                    <Link className={linkClass} href={`/console/pricing/${p.id}`}>
                      {p.currency} · {p.channel === "GATEWAY" ? "Gateway" : "Bank transfer"} · {p.direction === "DEPOSIT" ? "Deposit" : "Withdrawal"}
                    </Link>
                    <span className="block text-xs text-slate-500">{p.merchant.name}</span>
                  </Td>
                  <Td>
                    v{v?.version ?? 0}
                    <span className="block text-xs text-slate-500">{formatConsoleDay(v?.createdAt ?? p.createdAt)}</span>
                  </Td>
                  <Td>{v ? `${v.chargeCurrency} / ${v.settlementCurrency}` : "—"}</Td>
                  <Td className="tabular-nums">
                    {v ? (v.commissionFixedMinor !== null ? `${fromMinor(v.commissionFixedMinor)} ${p.currency}` : formatBps(v.commissionBps)) : "—"}
                  </Td>
                  <Td className="tabular-nums">{v ? `${formatBps(v.markupBps)} + ${formatBps(v.bufferBps)}` : "—"}</Td>
                  <Td>{v?.enabled ? <Badge tone="green">enabled</Badge> : <Badge tone="red">disabled</Badge>}</Td>
                  <Td>
                    <Link className={linkClass} href={`/console/pricing?profile=${p.id}#new-version`}>
                      New version
                    </Link>
                  </Td>
                </tr>
              );
            })}
          </Table>
        )}
        <Pager page={profiles.page} pages={profiles.pages} total={profiles.total} basePath="/console/pricing" params={{ merchant: merchantId }} />
      </Card>
      <Card
        title="Save a new version"
        description="Rates and percentages are basis points (100 bps = 1 %). Amounts are decimal text in the transaction currency."
        id="new-version"
      >
        {merchants.length === 0 ? (
          <EmptyState title="Create a merchant first" />
        ) : (
          <PricingForm key={param(sp.profile) ?? "new"} merchants={merchants} defaults={defaults} save={savePricing} />
        )}
      </Card>
    </>
  );
}
