import { Card, EmptyState, FilterButtons, MerchantFilter, PageHeader, Pager } from "@/components/console/ui";
import { listAudit, type AuditSnapshot } from "@/lib/domain/audit";
import { pageParam, param } from "@/lib/application/console/format";
import { ConsoleTime } from "@/components/console/time";
import { merchantOptions } from "@/lib/domain/merchants/manage-merchants";
import { requireOperatorPage } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";
import { isUuid } from "@/lib/contract/schemas/api/common";

export const dynamic = "force-dynamic";

const input = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";

/** A member's value as short text (objects and arrays as compact JSON). */
function show(value: unknown): string {
  if (value === undefined) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** Before and after side by side, one line per member that is in either. */
function Changes({ before, after }: { before: AuditSnapshot; after: AuditSnapshot }) {
  const b = before ?? {};
  const a = after ?? {};
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  if (keys.length === 0) return null;
  return (
    <div className="relative mt-2 overflow-x-auto">
      <table className="w-full table-fixed text-left text-xs">
        <thead>
          <tr className="text-slate-500">
            <th scope="col" className="w-[20%] py-1 pr-3 font-medium">
              Field
            </th>
            <th scope="col" className="w-[40%] py-1 pr-3 font-medium">
              Before
            </th>
            <th scope="col" className="w-[40%] py-1 font-medium">
              After
            </th>
          </tr>
        </thead>
        <tbody className="font-mono text-slate-700">
          {keys.map((k) => {
            const changed = JSON.stringify(b[k]) !== JSON.stringify(a[k]);
            return (
              <tr key={k} className="border-t border-slate-100 align-top">
                <td className="py-1 pr-3 font-sans text-slate-600">{k}</td>
                <td className="break-all py-1 pr-3">{k in b ? show(b[k]) : <span className="text-slate-400">—</span>}</td>
                <td className={`break-all py-1 ${changed && k in b ? "font-semibold text-slate-900" : ""}`}>
                  {k in a ? show(a[k]) : <span className="text-slate-400">—</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireOperatorPage();
  const sp = await searchParams;
  const filters = { action: param(sp.action)?.slice(0, 80), actor: param(sp.actor)?.slice(0, 80), merchant: param(sp.merchant) };
  const merchantId = filters.merchant && isUuid(filters.merchant) ? filters.merchant : undefined;
  const db = getDb();
  const [log, merchants] = await Promise.all([
    listAudit(db, { page: pageParam(sp.page), limit: 25, action: filters.action, actor: filters.actor, merchantId }),
    merchantOptions(db),
  ]);
  const names = new Map(merchants.map((m) => [m.id, m.name]));
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change made in the console: who, when, what, before and after, and why. Rows are append-only; the database refuses to change or delete them."
      />
      <Card className="mb-4">
        <form method="get" className="grid grid-cols-1 gap-3 sm:grid-cols-4" aria-label="Filter the audit log">
          <label className="block text-xs font-medium text-slate-600">
            Action starts with
            <input name="action" defaultValue={filters.action} placeholder="merchant." className={input} />
          </label>
          <label className="block text-xs font-medium text-slate-600">
            User
            <input name="actor" defaultValue={filters.actor} placeholder="operator" className={input} />
          </label>
          <MerchantFilter merchants={merchants} selected={merchantId} />
          <FilterButtons clearHref="/console/audit" />
        </form>
      </Card>
      <Card>
        {log.items.length === 0 ? (
          <EmptyState title="No audit entries match" />
        ) : (
          <ol aria-label="Audit log" className="divide-y divide-slate-100">
            {log.items.map((r) => (
              <li key={r.id} className="py-3" data-testid="audit-entry">
                <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
                  <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">{r.action}</code>
                  <span className="font-medium text-slate-900">{r.actorName}</span>
                  <span className="text-slate-500">
                    <ConsoleTime at={r.createdAt} recordedAt={r.recordedAt} />
                  </span>
                  {r.merchantId ? <span className="text-slate-500">· {names.get(r.merchantId) ?? r.merchantId.slice(0, 8)}</span> : null}
                  <span className="text-xs text-slate-400">
                    {r.entity}
                    {r.entityId ? ` ${r.entityId}` : ""}
                  </span>
                </div>
                {r.reason ? (
                  <p className="mt-1 text-sm text-slate-700">
                    <span className="text-slate-500">Reason:</span> {r.reason}
                  </p>
                ) : null}
                <Changes before={r.before} after={r.after} />
              </li>
            ))}
          </ol>
        )}
        <Pager page={log.page} pages={log.pages} total={log.total} basePath="/console/audit" params={filters} />
      </Card>
    </>
  );
}
