import { PaymentsTable } from "@/components/console/payments-table";
import { Card, FilterButtons, Notice, PageHeader, Pager } from "@/components/console/ui";
import { merchantOptions } from "@/lib/domain/merchants/manage-merchants";
import { parsePaymentFilters } from "@/lib/application/console/payment-filters";
import { listConsolePayments } from "@/lib/domain/payments/payment-views";
import { requireActor } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";
import { CURRENCIES } from "@/lib/contract/money/currency";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;
const FILTERS = ["status", "method", "direction", "currency", "search", "from", "to", "merchant", "limit"] as const;

const select = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";

function Select({ name, label, value, options }: { name: string; label: string; value?: string; options: [string, string][] }) {
  return (
    <label className="block text-xs font-medium text-slate-600">
      {label}
      <select name={name} defaultValue={value ?? ""} className={select}>
        <option value="">Any</option>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}

export default async function PaymentsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const actor = await requireActor();
  const params = await searchParams;
  const filters = parsePaymentFilters(params);
  const current = Object.fromEntries(FILTERS.map((k) => [k, typeof params[k] === "string" && params[k] ? (params[k] as string) : undefined]));
  const merchants = actor.role === "OPERATOR" ? await merchantOptions(getDb()) : [];
  const page = filters.ok ? await listConsolePayments(getDb(), actor, filters.query, filters.merchant) : null;
  const query = new URLSearchParams(Object.entries({ ...current, page: String(page?.page ?? 1) }).filter((e): e is [string, string] => !!e[1])).toString();
  return (
    <>
      <PageHeader
        title="Payments"
        description="Filters work like GET /v1/payments: from and to are Dubai days, the end day included. The list refreshes itself while a payment can still change."
      />
      <Card className="mb-4">
        <form method="get" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Filter payments">
          <label className="col-span-2 block text-xs font-medium text-slate-600">
            Reference contains
            <input name="search" defaultValue={current.search} className={select} placeholder="order-1001" />
          </label>
          <Select
            name="status"
            label="Status"
            value={current.status}
            options={["PENDING_APPROVAL", "PENDING", "SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"].map((s) => [s, s.replace("_", " ")])}
          />
          <Select
            name="direction"
            label="Direction"
            value={current.direction}
            options={[
              ["DEPOSIT", "Deposit"],
              ["WITHDRAWAL", "Withdrawal"],
            ]}
          />
          <Select
            name="method"
            label="Method"
            value={current.method}
            options={[
              ["BANK_TRANSFER", "Bank transfer"],
              ["GATEWAY", "Gateway"],
            ]}
          />
          <Select name="currency" label="Currency" value={current.currency} options={CURRENCIES.map((c) => [c, c])} />
          <label className="block text-xs font-medium text-slate-600">
            From (day recorded)
            <input type="date" name="from" defaultValue={current.from} className={select} />
          </label>
          <label className="block text-xs font-medium text-slate-600">
            To (day recorded)
            <input type="date" name="to" defaultValue={current.to} className={select} />
          </label>
          {actor.role === "OPERATOR" ? (
            <div className="col-span-2">
              <Select name="merchant" label="Merchant" value={current.merchant} options={merchants.map((m) => [m.id, m.name])} />
            </div>
          ) : null}
          <FilterButtons clearHref="/console/payments" className="col-span-2 sm:col-span-1 lg:col-span-2" />
        </form>
      </Card>
      {!filters.ok || !page ? (
        <Notice tone="error" title="These filters are not valid">
          {filters.ok ? null : filters.error}
        </Notice>
      ) : (
        <Card>
          <PaymentsTable
            key={query}
            initial={page}
            query={query}
            showMerchant={actor.role === "OPERATOR"}
            filtered={FILTERS.some((k) => k !== "limit" && !!current[k])}
          />
          <Pager page={page.page} pages={page.pages} total={page.total} basePath="/console/payments" params={current} />
        </Card>
      )}
    </>
  );
}
