import Link from "next/link";
import type { ReactNode } from "react";

/** Page title with an optional description and actions on the right. */
export function PageHeader({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {description ? <p className="mt-1 max-w-3xl text-sm text-slate-600">{description}</p> : null}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

/** A white panel with an optional heading. */
export function Card({
  title,
  description,
  children,
  className = "",
  actions,
  id,
}: {
  title?: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
  actions?: ReactNode;
  id?: string;
}) {
  return (
    <section id={id} className={`rounded-xl border border-slate-200 bg-white shadow-sm ${className}`} aria-label={title}>
      {title ? (
        <header className="flex flex-wrap items-start justify-between gap-2 border-b border-slate-100 px-4 py-3 sm:px-5">
          <div>
            <h2 className="text-base font-semibold text-slate-900">{title}</h2>
            {description ? <p className="mt-0.5 text-sm text-slate-500">{description}</p> : null}
          </div>
          {actions}
        </header>
      ) : null}
      <div className="px-4 py-4 sm:px-5">{children}</div>
    </section>
  );
}

const TONES = {
  gray: "bg-slate-100 text-slate-700 ring-slate-200",
  green: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  red: "bg-rose-50 text-rose-800 ring-rose-200",
  amber: "bg-amber-50 text-amber-900 ring-amber-200",
  blue: "bg-sky-50 text-sky-800 ring-sky-200",
  violet: "bg-violet-50 text-violet-800 ring-violet-200",
} as const;
export type Tone = keyof typeof TONES;

export function Badge({ children, tone = "gray" }: { children: ReactNode; tone?: Tone }) {
  return (
    <span className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[tone]}`}>
      {children}
    </span>
  );
}

const STATUS_TONE: Record<string, Tone> = {
  PENDING_APPROVAL: "violet",
  PENDING: "blue",
  SUCCEEDED: "green",
  FAILED: "red",
  CANCELLED: "gray",
  EXPIRED: "amber",
  ACTIVE: "green",
  INACTIVE: "gray",
  NOT_CONFIGURED: "amber",
  active: "green",
  revoked: "red",
  expired: "amber",
  QUEUED: "blue",
  READY: "blue",
  REJECTED: "red",
  APPROVED: "green",
};

/** A state name in its colour (payment statuses, delivery states, merchant, key and allow-list request states). */
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONE[status] ?? "gray"}>{status.replaceAll("_", " ")}</Badge>;
}

/**
 * A table that scrolls sideways on narrow screens. The scroll box is `relative`, so what a cell positions out of the
 * flow (screen-reader-only text) stays inside it and never widens the page; a header of several words wraps before the
 * table scrolls.
 */
export function Table({ head, children, caption }: { head: ReactNode[]; children: ReactNode; caption?: string }) {
  return (
    <div className="relative -mx-4 overflow-x-auto sm:mx-0">
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className="bg-slate-50">
          <tr>
            {head.map((h, i) => (
              <th key={i} scope="col" className="px-3 py-2 align-bottom text-xs font-semibold uppercase tracking-wide text-slate-500 first:pl-4 sm:first:pl-3">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">{children}</tbody>
      </table>
    </div>
  );
}

/**
 * A table cell, on one line unless `wrap` (long free text: reasons, errors, lists). Pass wrapping through `wrap`,
 * not as a class: Tailwind orders its rules by itself, and `whitespace-nowrap` comes after `whitespace-normal`, so a
 * `whitespace-normal` class next to the default would lose.
 */
export function Td({ children, className = "", mono = false, wrap = false }: { children: ReactNode; className?: string; mono?: boolean; wrap?: boolean }) {
  return (
    <td
      className={`${wrap ? "whitespace-normal break-words" : "whitespace-nowrap"} px-3 py-2 align-top text-slate-700 first:pl-4 sm:first:pl-3 ${mono ? "font-mono text-xs" : ""} ${className}`}
    >
      {children}
    </td>
  );
}

/** What a list shows when it has no rows. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-slate-50 px-4 py-8 text-center">
      <p className="text-sm font-medium text-slate-700">{title}</p>
      {children ? <div className="mt-1 text-sm text-slate-500">{children}</div> : null}
    </div>
  );
}

/** A notice: warning (amber), error (red), info (blue) or success (green). */
export function Notice({ tone = "info", title, children }: { tone?: "info" | "warning" | "error" | "success"; title?: ReactNode; children?: ReactNode }) {
  const styles = {
    info: "border-sky-200 bg-sky-50 text-sky-900",
    warning: "border-amber-300 bg-amber-50 text-amber-900",
    error: "border-rose-200 bg-rose-50 text-rose-900",
    success: "border-emerald-200 bg-emerald-50 text-emerald-900",
  }[tone];
  return (
    <div role={tone === "error" || tone === "warning" ? "alert" : "status"} className={`rounded-lg border px-4 py-3 text-sm ${styles}`}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : ""}>{children}</div> : null}
    </div>
  );
}

/** Previous / next links that keep the other search parameters. */
export function Pager({
  page,
  pages,
  total,
  basePath,
  params = {},
}: {
  page: number;
  pages: number;
  total: number;
  basePath: string;
  params?: Record<string, string | undefined>;
}) {
  if (total === 0) return null;
  const href = (p: number) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
    q.set("page", String(p));
    return `${basePath}?${q.toString()}`;
  };
  const linkClass = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50";
  const disabledClass = "rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-500";
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-3">
      <p className="text-sm text-slate-500">
        Page {Math.min(page, Math.max(pages, 1))} of {Math.max(pages, 1)} · {total} in all
      </p>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link className={linkClass} href={href(page - 1)} rel="prev">
            Previous
          </Link>
        ) : (
          <span className={disabledClass}>Previous</span>
        )}
        {page < pages ? (
          <Link className={linkClass} href={href(page + 1)} rel="next">
            Next
          </Link>
        ) : (
          <span className={disabledClass}>Next</span>
        )}
      </div>
    </nav>
  );
}

/** Label / value pairs; `columns={2}` puts the pairs in two columns on wide screens (one on a phone). */
export function DefinitionList({ items, columns = 1 }: { items: [ReactNode, ReactNode][]; columns?: 1 | 2 }) {
  return (
    <dl className={`grid grid-cols-1 gap-x-10 text-sm ${columns === 2 ? "lg:grid-cols-2" : ""}`}>
      {items.map(([k, v], i) => (
        <div key={i} className="flex gap-3 border-b border-slate-100 py-1.5 last:border-0 sm:gap-4">
          <dt className="w-32 shrink-0 text-slate-500 sm:w-44">{k}</dt>
          <dd className="min-w-0 break-words text-slate-900">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A bordered list of records, each a title, a line of details and an action (e.g. a remove form). */
export function RecordList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ul aria-label={label} className="divide-y divide-slate-100 rounded-lg border border-slate-200">
      {children}
    </ul>
  );
}

export function RecordItem({ title, details, action }: { title: ReactNode; details: ReactNode; action?: ReactNode }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-3 py-2">
      <div className="min-w-0">
        <div className="break-all text-sm text-slate-900">{title}</div>
        <p className="mt-0.5 text-xs text-slate-500">{details}</p>
      </div>
      {action}
    </li>
  );
}

/** The Apply / Clear buttons of a GET filter form. */
export function FilterButtons({ clearHref, className = "" }: { clearHref: string; className?: string }) {
  return (
    <div className={`flex items-end gap-2 ${className}`}>
      <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-indigo-700">
        Apply
      </button>
      <Link href={clearHref} className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
        Clear
      </Link>
    </div>
  );
}

/**
 * The merchant select of an operator's GET form (the audit log, the request log, callbacks, the overview's charts):
 * "Any" (or `anyLabel`) or one merchant, sent as `merchant`.
 * @param merchants the options, `{ id, name }[]` (lib/domain/merchants merchantOptions); `selected` a merchant id or undefined;
 *   `label` the field's label (default "Merchant"); `className` the label's classes; `fill` see below.
 */
export function MerchantFilter({
  merchants,
  selected,
  label = "Merchant",
  anyLabel = "Any",
  className = "block text-xs font-medium text-slate-600",
  fill = true,
}: {
  merchants: { id: string; name: string }[];
  selected: string | undefined;
  label?: string;
  anyLabel?: string;
  className?: string;
  /** Whether the select fills its label's width (form grids) or keeps its own (a row of fields that wraps). */
  fill?: boolean;
}) {
  return (
    <label className={className}>
      {label}
      <select
        name="merchant"
        defaultValue={selected ?? ""}
        className={`mt-1 block ${fill ? "w-full" : ""} max-w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm`}
      >
        <option value="">{anyLabel}</option>
        {merchants.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </select>
    </label>
  );
}

export const linkClass = "font-medium text-indigo-700 underline-offset-2 hover:underline";
