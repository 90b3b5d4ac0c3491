"use client";

import Link from "next/link";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartCard, FiguresTable } from "@/components/console/charts/chart-card";
import { usePolled } from "@/components/console/use-polled";
import type { LimitUsage } from "@/lib/reports/limit-usage";

const pct = (ratio: number | null) => (ratio === null ? null : Math.round(ratio * 1000) / 10);
const paymentsLink = (merchantId: string, currency: string, from: string, to: string) => `/console/payments?merchant=${merchantId}&currency=${currency}&from=${from}&to=${to}`;

/**
 * The pricing page's limit chart, refreshed every 10 s with SWR: each profile's use of its daily and monthly limit
 * in percent (pending and succeeded payments count), with a table of the amounts that links to the payments behind.
 */
export function LimitUsageChart({ initial, url }: { initial: LimitUsage; url: string }) {
  const { data } = usePolled(url, initial, 10_000);
  const rows = data.profiles.map((p) => ({ name: `${p.merchantName}: ${p.label}`, daily: pct(p.daily.ratio), monthly: pct(p.monthly.ratio) }));
  const monthStart = `${data.month}-01`;
  return (
    <ChartCard
      testId="chart-limit-usage"
      title="Limit use"
      description={`Each profile's daily limit (${data.day}) and monthly limit (${data.month}) used by pending and succeeded payments, in percent; profiles without limits are not shown.`}
      chart={
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={rows} layout="vertical" margin={{ left: 16 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" domain={[0, 100]} unit=" %" fontSize={12} allowDataOverflow />
            <YAxis type="category" dataKey="name" width={220} fontSize={12} />
            <Tooltip />
            <Legend />
            <Bar dataKey="daily" name="Today (%)" fill="#4f46e5" />
            <Bar dataKey="monthly" name="This month (%)" fill="#0e7490" />
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
              <Link key="d" className="text-indigo-700 underline" href={paymentsLink(p.merchantId, p.currency, data.day, data.day)}>{`${p.daily.used} ${p.currency}${p.daily.ratio === null ? "" : ` (${pct(p.daily.ratio)} %)`}`}</Link>,
              p.daily.limit === null ? "unlimited" : `${p.daily.limit} ${p.currency}`,
              <Link key="m" className="text-indigo-700 underline" href={paymentsLink(p.merchantId, p.currency, monthStart, data.day)}>{`${p.monthly.used} ${p.currency}${p.monthly.ratio === null ? "" : ` (${pct(p.monthly.ratio)} %)`}`}</Link>,
              p.monthly.limit === null ? "unlimited" : `${p.monthly.limit} ${p.currency}`,
            ],
          }))}
        />
      }
    />
  );
}
