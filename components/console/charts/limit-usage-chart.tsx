"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartCard, FiguresTable } from "@/components/console/charts/chart-card";
import { NBSP } from "@/components/console/charts/daily-chart";
import { usePolled } from "@/components/console/use-polled";
import { ConsoleLimitUsage } from "@/lib/contract/schemas/console/views";
import type { LimitUsage, ProfileUsage } from "@/lib/domain/reports/limit-usage";

const pct = (ratio: number | null) => (ratio === null ? null : Math.round(ratio * 1000) / 10);
/** The payments of a profile (merchant, currency, channel and direction) created from `from` to `to` (Dubai days). */
const paymentsLink = (p: ProfileUsage, from: string, to: string) =>
  `/console/payments?${new URLSearchParams({ merchant: p.merchantId, currency: p.currency, method: p.channel, direction: p.direction, from, to })}`;

/**
 * The pricing page's limit chart, refreshed every 10 s with SWR: each profile's use of its daily and monthly limit
 * in percent (pending and succeeded payments count), with a table of the amounts that links to the payments behind.
 */
export function LimitUsageChart({ initial, url }: { initial: LimitUsage; url: string }) {
  const { data } = usePolled(url, initial, 10_000, ConsoleLimitUsage);
  const router = useRouter();
  const monthStart = `${data.month}-01`;
  const rows = data.profiles.map((p) => ({
    name: `${p.merchantName}: ${p.label}`,
    daily: pct(p.daily.ratio),
    monthly: pct(p.monthly.ratio),
    dayHref: paymentsLink(p, data.day, data.day),
    monthHref: paymentsLink(p, monthStart, data.day),
  }));
  // The scale reaches every bar: 100 % or, when a profile went over its limit, the next multiple of 25 % above.
  const top = Math.max(100, ...rows.flatMap((r) => [r.daily ?? 0, r.monthly ?? 0]).map((v) => Math.ceil(v / 25) * 25));
  return (
    <ChartCard
      testId="chart-limit-usage"
      title="Limit use"
      description={`Each profile's daily limit (${data.day}) and monthly limit (${data.month}) used by pending and succeeded payments, in percent; profiles without limits are not shown. Click a bar to open the profile's payments of that period.`}
      empty={
        rows.length > 0 ? null : "No limit use yet: no pricing profile shown here has a daily or monthly limit. Set one on a profile below to see its use here."
      }
      chart={
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={rows} layout="vertical" margin={{ left: 16 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" domain={[0, top]} tickFormatter={(v: number) => `${v}${NBSP}%`} fontSize={12} />
            <YAxis type="category" dataKey="name" width={220} fontSize={12} />
            <Tooltip />
            <Legend />
            <Bar
              dataKey="daily"
              name="Used of today's limit (%)"
              fill="#4f46e5"
              cursor="pointer"
              onClick={(d) => router.push((d as unknown as { dayHref: string }).dayHref)}
            />
            <Bar
              dataKey="monthly"
              name="Used of this month's limit (%)"
              fill="#0e7490"
              cursor="pointer"
              onClick={(d) => router.push((d as unknown as { monthHref: string }).monthHref)}
            />
          </BarChart>
        </ResponsiveContainer>
      }
      table={
        <FiguresTable
          caption="Limit use per pricing profile"
          columns={["Profile", "Used today", "Daily limit", "Used this month", "Monthly limit"]}
          rows={data.profiles.map((p) => ({
            key: p.profileId,
            cells: [
              `${p.merchantName}: ${p.label}`,
              <Link
                key="d"
                className="text-indigo-700 underline"
                href={paymentsLink(p, data.day, data.day)}
              >{`${p.daily.used} ${p.currency}${p.daily.ratio === null ? "" : ` (${pct(p.daily.ratio)} %)`}`}</Link>,
              p.daily.limit === null ? "unlimited" : `${p.daily.limit} ${p.currency}`,
              <Link
                key="m"
                className="text-indigo-700 underline"
                href={paymentsLink(p, monthStart, data.day)}
              >{`${p.monthly.used} ${p.currency}${p.monthly.ratio === null ? "" : ` (${pct(p.monthly.ratio)} %)`}`}</Link>,
              p.monthly.limit === null ? "unlimited" : `${p.monthly.limit} ${p.currency}`,
            ],
          }))}
        />
      }
    />
  );
}
