import type { ReactElement, ReactNode } from "react";
import { BarChart, CartesianGrid, ComposedChart, Legend, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type DotItemDotProps } from "recharts";

const CHARTS = { bar: BarChart, line: LineChart, composed: ComposedChart } as const;

/** A Dubai day "2026-11-24" as the axis shows it: "11-24". */
const shortDay = (day: string) => day.slice(5);

/**
 * A chart over Dubai days in the console's style: the x axis is each datum's `day`, with a grid, a y axis (whole
 * numbers unless `yAxis` is given), a tooltip and a legend around `children` (the Bars and Lines). `kind` picks
 * bars, lines or both. Drawn for sighted users only: the ChartCard around it hides it from assistive technology
 * and carries the table with the same figures.
 */
export function DailyChart({
  kind,
  data,
  yAxis,
  legend = true,
  children,
}: {
  kind: keyof typeof CHARTS;
  data: object[];
  yAxis?: ReactElement;
  legend?: boolean;
  children: ReactNode;
}) {
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

/** The index of the only datum with a value (not null) under `key`; -1 when none has one, or two or more do. */
function onlyValueAt(data: object[], key: string): number {
  const withValue = data.flatMap((d, i) => (((d as Record<string, unknown>)[key] ?? null) === null ? [] : [i]));
  return withValue.length === 1 ? withValue[0] : -1;
}

/**
 * The `dot` of a Line that joins days with values (`connectNulls`): a line needs two points, so when one day
 * alone has a value, that day is drawn as a dot with its value written above it (`format`ted; `below` for a second
 * line of the same chart, whose dot may sit on the first one); otherwise no dot (the line shows the days). `color`
 * is the line's, at least 4.5:1 on white.
 */
export function loneDayDot(
  data: object[],
  dataKey: string,
  color: string,
  { format = String, below = false }: { format?: (value: number) => string; below?: boolean } = {},
) {
  const only = onlyValueAt(data, dataKey);
  // The value stays inside the plot: written leftwards of the last day (today, most often) and rightwards of the
  // first, and under a dot at the top of the chart (a value at the axis maximum, 100 %).
  const anchor = only === data.length - 1 ? "end" : only === 0 ? "start" : "middle";
  const shift = anchor === "end" ? -6 : anchor === "start" ? 6 : 0;
  return function LoneDayDot({ cx, cy, index, value }: DotItemDotProps) {
    if (index !== only || cx == null || cy == null) return <g key={`dot-${index}`} />;
    return (
      <g key={`dot-${index}`} className="lone-day-point">
        <circle cx={cx} cy={cy} r={5} fill={color} stroke="#ffffff" strokeWidth={1.5} />
        <text x={cx + shift} y={below || cy < 24 ? cy + 20 : cy - 10} textAnchor={anchor} fontSize={12} fill={color}>
          {format(Number(value))}
        </text>
      </g>
    );
  };
}
