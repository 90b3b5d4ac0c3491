import Link from "next/link";
import { ActionForm, Field, Hidden, SubmitButton } from "@/components/console/forms";
import { Badge, Card, PageHeader, Table, Td, linkClass } from "@/components/console/ui";
import { toggleProfile } from "@/app/console/actions/pricing";
import { formatBps } from "@/lib/application/console/format";
import { ConsoleTime } from "@/components/console/time";
import { profileHistory } from "@/lib/domain/pricing/profile-versions";
import { orNotFound, requireOperatorPage } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";
import { fromMinor } from "@/lib/contract/money/currency";
import { countOf } from "@/lib/application/console/words";

export const dynamic = "force-dynamic";

const amount = (v: bigint | null) => (v === null ? "—" : fromMinor(v));
const limit = (v: bigint | null) => (v === null ? "unlimited" : fromMinor(v));

export default async function ProfileHistoryPage({ params }: { params: Promise<{ profileId: string }> }) {
  await requireOperatorPage();
  const { profileId } = await params;
  const { profile, versions } = await orNotFound(profileHistory(getDb(), profileId));
  const latest = versions[0];
  return (
    <>
      <p className="mb-2 text-sm">
        <Link className={linkClass} href="/console/pricing">
          ← Pricing profiles
        </Link>
      </p>
      <PageHeader
        title={`${profile.currency} ${profile.channel === "GATEWAY" ? "gateway" : "bank transfer"} ${profile.direction === "DEPOSIT" ? "deposits" : "withdrawals"}`}
        description={`${profile.merchant.name} · ${countOf(versions.length, "version")}. Versions are immutable; the latest one prices new payments.`}
        actions={
          <Link
            className="rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-semibold text-white hover:bg-indigo-700"
            href={`/console/pricing?profile=${profile.id}#new-version`}
          >
            New version
          </Link>
        }
      />
      {latest ? (
        <Card
          title={latest.enabled ? "Disable this profile" : "Enable this profile"}
          className="mb-4"
          description={
            latest.enabled
              ? "New payments on this profile are then refused with 409 PRICING_DISABLED."
              : "New payments are priced with the latest version again."
          }
        >
          <ActionForm action={toggleProfile} className="flex flex-col gap-3 sm:flex-row sm:items-end" label="Enable or disable">
            <Hidden name="profileId" value={profile.id} />
            <Hidden name="enabled" value={latest.enabled ? "false" : "true"} />
            <Field name="reason" label="Reason" required className="flex-1" />
            <SubmitButton variant={latest.enabled ? "danger" : "primary"}>{latest.enabled ? "Disable" : "Enable"}</SubmitButton>
          </ActionForm>
        </Card>
      ) : null}
      <Card title="Versions">
        <Table
          caption="Profile versions"
          head={[
            "Version",
            "State",
            "Charge / settle",
            "Commission",
            "Markup",
            "Buffer",
            "Reserve",
            "Delay / reserve days",
            "Amount range",
            "Daily / monthly limit",
            "Reason",
            "Saved by",
            "Saved (Dubai)",
          ]}
        >
          {versions.map((v) => (
            <tr key={v.id}>
              <Td>v{v.version}</Td>
              <Td>{v.enabled ? <Badge tone="green">enabled</Badge> : <Badge tone="red">disabled</Badge>}</Td>
              <Td>
                {v.chargeCurrency} / {v.settlementCurrency}
              </Td>
              <Td className="tabular-nums">{v.commissionFixedMinor !== null ? `${fromMinor(v.commissionFixedMinor)} fixed` : formatBps(v.commissionBps)}</Td>
              <Td className="tabular-nums">{formatBps(v.markupBps)}</Td>
              <Td className="tabular-nums">{formatBps(v.bufferBps)}</Td>
              <Td className="tabular-nums">{formatBps(v.reserveBps)}</Td>
              <Td>
                {v.delayDays} / {v.reserveDays}
              </Td>
              <Td className="tabular-nums">
                {amount(v.minAmountMinor)} – {amount(v.maxAmountMinor)}
              </Td>
              <Td className="tabular-nums">
                {limit(v.dailyLimitMinor)} / {limit(v.monthlyLimitMinor)}
              </Td>
              <Td wrap className="min-w-[12rem]">
                {v.reason}
              </Td>
              <Td>{v.createdBy ?? "—"}</Td>
              <Td>
                <ConsoleTime at={v.createdAt} zone={false} />
              </Td>
            </tr>
          ))}
        </Table>
      </Card>
    </>
  );
}
