"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { Line, YAxis } from "recharts";
import { ChartCard, FiguresTable } from "@/components/console/charts/chart-card";
import { DailyChart, OutcomeBars, dayDot, latencyLabel, latencyScale, Y_AXIS_WIDTH } from "@/components/console/charts/daily-chart";
import { usePolled } from "@/components/console/use-polled";
import { ConsoleCallbacksOverview } from "@/lib/contract/schemas/console/views";
import type { CallbacksOverview } from "@/lib/domain/reports/callbacks-overview";

const OUTCOMES = [
  {
    key: "firstAttempt",
    label: "Delivered at the first attempt",
    column: "First attempt",
    color: "#047857",
    filter: { state: "SUCCEEDED", attempts: "first" },
  },
  { key: "afterRetries", label: "Delivered after retries", column: "After retries", color: "#0e7490", filter: { state: "SUCCEEDED", attempts: "retried" } },
  { key: "listener", label: "Received through sandpiper listen", column: "Via listener", color: "#7c3aed", filter: { path: "listener" } },
  { key: "failed", label: "Failed", column: "Failed", color: "#be123c", filter: { state: "FAILED", path: "address" } },
  { key: "notConfigured", label: "Not configured", column: "Not configured", color: "#b45309", filter: { state: "NOT_CONFIGURED", path: "address" } },
] as const;
type ListFilter = { state?: string; attempts?: "first" | "retried"; path?: "listener" | "address" };
/**
 * The deliveries list behind a figure: that filter (state, first attempt or retried, the path that delivered it),
 * for the chosen merchant; for a day's bar also the day the deliveries ended on.
 */
export function deliveriesLink(filter: ListFilter, merchantId: string | null, endedOn?: string): string {
  const query = new URLSearchParams({ ...filter, ...(merchantId ? { merchant: merchantId } : {}), ...(endedOn ? { endedOn } : {}) });
  return `/console/callbacks?${query}#deliveries`;
}

/**
 * The callbacks page's charts, refreshed every 10 s with SWR: deliveries per day by outcome (a click opens the
 * deliveries in that state), latency p50 and p95 per day, the backlog now (per merchant for operators looking at
 * every merchant). Each chart has a table with the same numbers.
 */
export function CallbacksCharts({ initial, url }: { initial: CallbacksOverview; url: string }) {
  const { data } = usePolled(url, initial, 10_000, ConsoleCallbacksOverview);
  const router = useRouter();
  const m = data.merchantId;
  const scale = latencyScale(data.latency.flatMap((l) => [l.p50Ms, l.p95Ms]));
  const anyDelivery = data.outcomes.some((o) => OUTCOMES.some((s) => o[s.key] > 0));
  return (
    <div className="space-y-4">
      <p className="rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm" data-testid="callback-backlog">
        <span className="text-slate-600">Backlog now: </span>
        <Link className="text-2xl font-semibold tabular-nums text-slate-900 hover:text-indigo-700" href={deliveriesLink({ state: "PENDING" }, m)}>
          {data.backlog.pending}
        </Link>
        <span className="text-slate-600"> {data.backlog.pending === 1 ? "delivery" : "deliveries"} waiting for an attempt</span>
        {data.backlog.byMerchant.length > 0 ? (
          <span className="mt-2 block text-slate-700">
            {data.backlog.byMerchant.map((b) => (
              <Link key={b.merchantId} className="mr-3 inline-block text-indigo-700 underline" href={deliveriesLink({ state: "PENDING" }, b.merchantId)}>
                {b.name}: {b.pending}
              </Link>
            ))}
          </span>
        ) : null}
      </p>
      <ChartCard
        testId="chart-deliveries-by-outcome"
        title="Callback deliveries per day"
        description="Deliveries by how they ended, per Dubai day of the outcome, over the last 30 days. An event that a sandpiper listen process delivered counts as received through the listener, not as failed or not configured. Click a bar to open those deliveries."
        empty={anyDelivery ? null : "No callback deliveries yet: a delivery is counted here on the day it ends, delivered, failed or not configured."}
        chart={<OutcomeBars data={data.outcomes} series={OUTCOMES} unit="deliveries" onDay={(o, day) => router.push(deliveriesLink(o.filter, m, day))} />}
        table={
          <FiguresTable
            caption="Callback deliveries per day by outcome"
            columns={["Day (Dubai)", ...OUTCOMES.map((o) => o.column)]}
            rows={[...data.outcomes].reverse().map((o) => ({
              key: o.day,
              cells: [
                o.day,
                ...OUTCOMES.map((s) => (
                  <Link key={s.key} className="text-indigo-700 underline" href={deliveriesLink(s.filter, m, o.day)}>
                    {o[s.key]}
                  </Link>
                )),
              ],
            }))}
          />
        }
      />
      <ChartCard
        testId="chart-delivery-latency"
        title="Delivery latency per day"
        description="From the event's creation to the receiver's 2xx answer, on a log scale: the median (p50) and p95, each the upper bound of a power-of-two bucket in milliseconds. A day without a delivered callback is a gap in the lines."
        empty={
          data.latency.some((l) => l.p95Ms !== null) ? null : "No delivered callbacks yet: latency is measured when a receiver answers a callback with a 2xx."
        }
        chart={
          <DailyChart
            kind="line"
            data={data.latency}
            yAxis={<YAxis scale="log" domain={scale.domain} ticks={scale.ticks} tickFormatter={latencyLabel} fontSize={12} width={Y_AXIS_WIDTH} />}
          >
            <Line
              type="linear"
              dataKey="p50Ms"
              name="Median, p50 (ms)"
              stroke="#4f46e5"
              dot={dayDot(data.latency, "p50Ms", "#4f46e5", { format: (v) => `${v} ms`, below: true })}
            />
            <Line type="linear" dataKey="p95Ms" name="p95 (ms)" stroke="#be123c" dot={dayDot(data.latency, "p95Ms", "#be123c", { format: (v) => `${v} ms` })} />
          </DailyChart>
        }
        table={
          <FiguresTable
            caption="Delivery latency per day"
            columns={["Day (Dubai)", "Delivered", "p50 (ms, at most)", "p95 (ms, at most)"]}
            rows={[...data.latency].reverse().map((l) => ({
              key: l.day,
              cells: [
                l.day,
                <Link key="delivered" className="text-indigo-700 underline" href={deliveriesLink({ state: "SUCCEEDED" }, m, l.day)}>
                  {l.delivered}
                </Link>,
                l.p50Ms ?? "—",
                l.p95Ms ?? "—",
              ],
            }))}
          />
        }
      />
    </div>
  );
}
