import type { ReactNode } from "react";

/**
 * A chart with its accessible alternative: the chart (drawn for sighted users, hidden from screen readers) and,
 * under it, a "Show the numbers" disclosure with the same figures as a table whose cells link to the list behind
 * them. With `empty` (a sentence saying there is nothing to draw yet and why), that sentence stands in place of
 * the chart (docs/guides/console-for-operators.md "Charts": no empty axes).
 */
export function ChartCard({
  title,
  description,
  chart,
  table,
  testId,
  empty = null,
}: {
  title: string;
  description: string;
  chart: ReactNode;
  table: ReactNode;
  testId: string;
  empty?: string | null;
}) {
  return (
    <section aria-label={title} data-testid={testId} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <p className="mt-1 text-sm text-slate-600">{description}</p>
      {empty ? (
        <p className="mt-3 rounded-lg border border-dashed border-slate-300 bg-slate-50 p-4 text-sm text-slate-700" data-testid="chart-empty">
          {empty}
        </p>
      ) : (
        <div className="mt-3 h-64 w-full" aria-hidden="true">
          {chart}
        </div>
      )}
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer font-medium text-indigo-700">Show the numbers</summary>
        <div className="mt-2 max-h-80 overflow-auto">{table}</div>
      </details>
    </section>
  );
}

/** The table of a chart's figures: one row per day (or item), the first column a row header. */
export function FiguresTable({ caption, columns, rows }: { caption: string; columns: string[]; rows: { key: string; cells: ReactNode[] }[] }) {
  return (
    <table className="w-full min-w-max border-collapse text-left text-sm tabular-nums">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col" className="border-b border-slate-200 px-2 py-1 font-semibold text-slate-700">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            {r.cells.map((cell, i) =>
              i === 0 ? (
                <th key={i} scope="row" className="border-b border-slate-100 px-2 py-1 font-normal text-slate-700">
                  {cell}
                </th>
              ) : (
                <td key={i} className="border-b border-slate-100 px-2 py-1 text-slate-800">
                  {cell}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
