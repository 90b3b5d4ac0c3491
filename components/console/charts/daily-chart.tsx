import type { ReactElement, ReactNode } from "react";
import { BarChart, CartesianGrid, ComposedChart, Legend, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

const CHARTS = { bar: BarChart, line: LineChart, composed: ComposedChart } as const;

/** A Dubai day "2026-11-24" as the axis shows it: "11-24". */
const shortDay = (day: string) => day.slice(5);

/**
 * A chart over Dubai days in the console's style: the x axis is each datum's `day`, with a grid, a y axis (whole
 * numbers unless `yAxis` is given), a tooltip and a legend around `children` (the Bars and Lines). `kind` picks
 * bars, lines or both. Drawn for sighted users only: the ChartCard around it hides it from assistive technology
 * and carries the table with the same figures.
 */
export function DailyChart({ kind, data, yAxis, legend = true, children }: { kind: keyof typeof CHARTS; data: object[]; yAxis?: ReactElement; legend?: boolean; children: ReactNode }) {
  const Chart = CHARTS[kind];
  return (
    <ResponsiveContainer width="100%" height="100%">
      <Chart accessibilityLayer={false} data={data}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" tickFormatter={shortDay} fontSize={12} />
        {yAxis ?? <YAxis allowDecimals={false} fontSize={12} />}
        <Tooltip />
        {legend ? <Legend /> : null}
        {children}
      </Chart>
    </ResponsiveContainer>
  );
}
