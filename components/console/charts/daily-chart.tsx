import type { ReactElement, ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type DotItemDotProps } from "recharts";

const CHARTS = { bar: BarChart, line: LineChart, composed: ComposedChart } as const;

/** A Dubai day "2026-11-24" as the axis shows it: "11-24". */
const shortDay = (day: string) => day.slice(5);

/**
 * A no-break space: recharts wraps a tick label at ordinary spaces when it is wider than the axis, never at this
 * one, so "512 ms" stays on one line.
 */
export const NBSP = "\u00a0";

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });
/** An axis number in a few characters: 950, 1.5K, 2M (counts and amounts). */
export const compactNumber = (value: number) => compact.format(value);

/** The width in px of a y axis whose labels are {@link compactNumber}s or {@link latencyLabel}s at 12 px. */
export const Y_AXIS_WIDTH = 56;

/**
 * A chart over Dubai days in the console's style: the x axis is each datum's `day`, with a grid, a y axis (whole
 * numbers from zero, written compactly, unless `yAxis` is given), a tooltip and a legend around `children` (the
 * Bars and Lines). `kind` picks bars, lines or both. Drawn for sighted users only: the ChartCard around it hides it
 * from assistive technology and carries the table with the same figures. The top margin leaves room for a dot
 * drawn on the plot's top edge (a value at the axis maximum).
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
      <Chart accessibilityLayer={false} data={data} margin={{ top: 10, right: 10, bottom: 5, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" tickFormatter={shortDay} fontSize={12} />
        {yAxis ?? <YAxis allowDecimals={false} fontSize={12} width={Y_AXIS_WIDTH} tickFormatter={compactNumber} />}
        <Tooltip />
        {legend ? <Legend /> : null}
        {children}
      </Chart>
    </ResponsiveContainer>
  );
}

/**
 * Bars of a {@link DailyChart} stacked by outcome, one series each: its colour, its name in the legend with the unit
 * ("Failed (payments)"), and a click on a bar that calls `onDay` with the series and the bar's Dubai day (the page
 * opens the list behind it).
 * @param data one object per Dubai day with `day` and a count per series key; `series` `{ key, label, color }[]`.
 */
export function OutcomeBars<S extends { readonly key: string; readonly label: string; readonly color: string }>({
  data,
  series,
  unit,
  onDay,
}: {
  data: object[];
  series: readonly S[];
  unit: string;
  onDay: (series: S, day: string) => void;
}) {
  return (
    <DailyChart kind="bar" data={data}>
      {series.map((o) => (
        <Bar
          key={o.key}
          dataKey={o.key}
          name={`${o.label} (${unit})`}
          stackId="outcome"
          fill={o.color}
          cursor="pointer"
          onClick={(bar) => onDay(o, (bar.payload as { day: string }).day)}
        />
      ))}
    </DailyChart>
  );
}

/**
 * A latency in ms as an axis label, on one line and in at most six characters: "512 ms" below a second, "32.8 s"
 * (three significant digits) from a second up.
 */
export function latencyLabel(ms: number): string {
  return ms < 1000 ? `${ms}${NBSP}ms` : `${Number((ms / 1000).toPrecision(3))}${NBSP}s`;
}

/**
 * The log-scale domain and ticks of a latency axis whose values are powers of two in ms (bucket upper bounds):
 * from half the smallest value to twice the largest, so every point lies inside the plot with one bucket of
 * headroom above and below, with at most six power-of-two ticks (every second or third power when the range is
 * wide) that always include the top. Null values are left out; without any value, 1 ms to 1024 ms.
 */
export function latencyScale(values: (number | null)[]): { domain: [number, number]; ticks: number[] } {
  const known = values.filter((v): v is number => v !== null && v > 0);
  const low = known.length ? Math.max(1, Math.min(...known) / 2) : 1;
  const high = known.length ? Math.max(...known) * 2 : 1024;
  const count = Math.floor(Math.log2(high / low)) + 1;
  const step = Math.ceil(count / 6);
  const ticks: number[] = [];
  for (let v = high; v >= low; v /= 2 ** step) ticks.unshift(v);
  return { domain: [low, high], ticks };
}

/** The index of the only datum with a value (not null) under `key`; -1 when none has one, or two or more do. */
function onlyValueAt(data: object[], key: string): number {
  const withValue = data.flatMap((d, i) => (((d as Record<string, unknown>)[key] ?? null) === null ? [] : [i]));
  const [only] = withValue;
  return withValue.length === 1 && only !== undefined ? only : -1;
}

/**
 * The `dot` of a Line over Dubai days: a small dot on every day with a value, so a day between two days without
 * one (where the line has a gap) is still seen. When one day alone has a value, that day is a larger dot with its
 * value written beside it (`format`ted; `below` for a second line of the same chart, whose dot may sit on the first
 * one). `color` is the line's, at least 4.5:1 on white.
 */
export function dayDot(
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
  return function DayDot({ cx, cy, index, value }: DotItemDotProps) {
    if (cx == null || cy == null || value == null || Number.isNaN(cy)) return <g key={`dot-${index}`} />;
    if (index !== only) return <circle key={`dot-${index}`} className="day-point" cx={cx} cy={cy} r={3} fill={color} />;
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
