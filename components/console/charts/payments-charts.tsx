"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { Bar, Line, YAxis } from "recharts";
import { ChartCard, FiguresTable } from "@/components/console/charts/chart-card";
import { compactNumber, DailyChart, OutcomeBars, dayDot, NBSP, Y_AXIS_WIDTH } from "@/components/console/charts/daily-chart";
import { usePolled } from "@/components/console/use-polled";
import { ConsolePaymentsOverview } from "@/lib/contract/schemas/console/views";
import type { PaymentsOverview } from "@/lib/domain/reports/payments-overview";
import { againstLastWeek } from "@/lib/application/console/words";

/** Outcome series: colour, label, and the payments-list status filter a click opens. */
const OUTCOMES = [
  { key: "succeeded", label: "Succeeded", color: "#047857", status: "SUCCEEDED" },
  { key: "failed", label: "Failed", color: "#be123c", status: "FAILED" },
  { key: "expired", label: "Expired", color: "#b45309", status: "EXPIRED" },
  { key: "pending", label: "Still pending", color: "#4338ca", status: "PENDING" },
] as const;
/** Line colours with at least 4.5:1 contrast on white (the legend's text takes them). */
const CURRENCY_COLORS = ["#4f46e5", "#0e7490", "#4d7c0f", "#a21caf", "#c2410c", "#0f766e", "#7e22ce"];

const withMerchant = (merchantId: string | null) => (merchantId ? `&merchant=${merchantId}` : "");
/** The payments list behind a point of a chart: that Dubai day, and a status when given. */
export const paymentsLink = (day: string, status: string | null, merchantId: string | null) =>
  `/console/payments?${status ? `status=${status}&` : ""}from=${day}&to=${day}${withMerchant(merchantId)}`;

/**
 * The overview's payment charts, refreshed every 10 s with SWR: payments per day stacked by outcome (a click on a
 * bar opens that day's payments in that status), the success rate per day, SUCCEEDED volume charged in AED and per
 * currency, and today against the same weekday last week. Each chart has a table with the same numbers.
 */
export function PaymentsCharts({ initial, url }: { initial: PaymentsOverview; url: string }) {
  const { data } = usePolled(url, initial, 10_000, ConsolePaymentsOverview);
  const router = useRouter();
  const m = data.merchantId;
  const rate = data.outcomes.map((o) => ({ day: o.day, rate: o.successRate === null ? null : Math.round(o.successRate * 1000) / 10 }));
  const volume = data.volume.map((v) => ({
    day: v.day,
    aed: Number(v.chargedAed),
    ...Object.fromEntries(data.currencies.map((c) => [c, Number(v.byCurrency[c])])),
  }));
  const anyPayment = data.outcomes.some((o) => o.total > 0);
  const anyRate = rate.some((r) => r.rate !== null);
  const anyVolume = data.currencies.length > 0 || volume.some((v) => v.aed > 0);
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3" data-testid="today-vs-last-week">
        {(
          [
            ["Payments today", data.today.payments, data.lastWeek.payments, String(data.today.payments), String(data.lastWeek.payments), "no payments"],
            [
              "Succeeded today",
              data.today.succeeded,
              data.lastWeek.succeeded,
              String(data.today.succeeded),
              String(data.lastWeek.succeeded),
              "no succeeded payments",
            ],
            [
              "Charged today (AED)",
              Number(data.today.chargedAed),
              Number(data.lastWeek.chargedAed),
              data.today.chargedAed,
              data.lastWeek.chargedAed,
              "nothing charged",
            ],
          ] as const
        ).map(([label, now, before, nowText, beforeText, none]) => (
          <Link
            key={label}
            href={paymentsLink(data.today.day, label === "Payments today" ? null : "SUCCEEDED", m)}
            className="block rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-indigo-300"
          >
            <p className="text-sm text-slate-600">{label}</p>
            <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{nowText}</p>
            <p className="mt-1 text-xs text-slate-600">{againstLastWeek(now, before, beforeText, data.lastWeek.day, none)}</p>
          </Link>
        ))}
      </div>
      <p className="text-xs text-slate-600" data-testid="payments-day-rule">
        Today is {data.today.day}, Dubai. Payments count by the day recorded (Dubai, real time): one made under a moved sandbox clock counts on the day it was
        made, not on its sandbox day.
      </p>

      <ChartCard
        testId="chart-payments-by-outcome"
        title="Payments per day by outcome"
        description="Payments by the Dubai day they were recorded (real time), over the last 30 days, by what became of them: a payment made under a moved sandbox clock counts on the day it was made, not on its sandbox day. Click a bar to open those payments."
        empty={anyPayment ? null : "No payments yet: payments created in the last 30 days appear here by what became of them."}
        chart={<OutcomeBars data={data.outcomes} series={OUTCOMES} unit="payments" onDay={(o, day) => router.push(paymentsLink(day, o.status, m))} />}
        table={
          <FiguresTable
            caption="Payments per day by outcome"
            columns={["Day (Dubai)", ...OUTCOMES.map((o) => o.label), "Success rate"]}
            rows={[...data.outcomes].reverse().map((o) => ({
              key: o.day,
              cells: [
                <Link key="d" className="text-indigo-700 underline" href={paymentsLink(o.day, null, m)}>
                  {o.day}
                </Link>,
                ...OUTCOMES.map((s) => (
                  <Link key={s.key} className="text-indigo-700 underline" href={paymentsLink(o.day, s.status, m)}>
                    {o[s.key]}
                  </Link>
                )),
                o.successRate === null ? "—" : `${Math.round(o.successRate * 1000) / 10} %`,
              ],
            }))}
          />
        }
      />

      <ChartCard
        testId="chart-success-rate"
        title="Success rate per day"
        description="Succeeded among the payments of the day that ended (succeeded, failed or expired), in percent. A day where none ended has no rate: a gap in the line."
        empty={anyRate ? null : "No success rate yet: a day gets one when a payment created that day has succeeded, failed or expired."}
        chart={
          <DailyChart
            kind="line"
            data={rate}
            yAxis={<YAxis domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} tickFormatter={(v: number) => `${v}${NBSP}%`} fontSize={12} width={Y_AXIS_WIDTH} />}
            legend={false}
          >
            <Line
              type="linear"
              dataKey="rate"
              name="Success rate (%)"
              stroke="#047857"
              strokeWidth={2}
              dot={dayDot(rate, "rate", "#047857", { format: (v) => `${v} %` })}
            />
          </DailyChart>
        }
        table={
          <FiguresTable
            caption="Success rate per day"
            columns={["Day (Dubai)", "Success rate"]}
            rows={[...rate].reverse().map((r) => ({
              key: r.day,
              cells: [
                <Link key="d" className="text-indigo-700 underline" href={paymentsLink(r.day, null, m)}>
                  {r.day}
                </Link>,
                r.rate === null ? "—" : `${r.rate} %`,
              ],
            }))}
          />
        }
      />

      <ChartCard
        testId="chart-volume"
        title="Volume per day"
        description="Succeeded payments: the volume charged, converted to AED (bars), and the original amount in each payment currency (lines, each in its own currency, zero on a day without one)."
        empty={anyVolume ? null : "No volume yet: payments that succeed in the last 30 days appear here, charged in AED and in their own currency."}
        chart={
          <DailyChart kind="composed" data={volume} yAxis={<YAxis fontSize={12} width={Y_AXIS_WIDTH} tickFormatter={compactNumber} />}>
            <Bar
              dataKey="aed"
              name="Volume (AED, charged)"
              fill="#64748b"
              cursor="pointer"
              onClick={(d) => router.push(paymentsLink((d as unknown as { day: string }).day, "SUCCEEDED", m))}
            />
            {data.currencies.map((c, i) => (
              <Line key={c} type="linear" dataKey={c} name={`Amount (${c}, original)`} stroke={CURRENCY_COLORS[i % CURRENCY_COLORS.length]} dot={false} />
            ))}
          </DailyChart>
        }
        table={
          <FiguresTable
            caption="Succeeded volume per day"
            columns={["Day (Dubai)", "Volume (AED, charged)", ...data.currencies.map((c) => `Amount (${c}, original)`)]}
            rows={[...data.volume].reverse().map((v) => ({
              key: v.day,
              cells: [
                <Link key="d" className="text-indigo-700 underline" href={paymentsLink(v.day, "SUCCEEDED", m)}>
                  {v.day}
                </Link>,
                v.chargedAed,
                ...data.currencies.map((c) => v.byCurrency[c]),
              ],
            }))}
          />
        }
      />
    </div>
  );
}
