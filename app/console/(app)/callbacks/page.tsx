import Link from "next/link";
import { CallbacksCharts } from "@/components/console/charts/callbacks-charts";
import { DeliveriesTable } from "@/components/console/deliveries-table";
import { Card, EmptyState, MerchantFilter, Notice, PageHeader, Pager } from "@/components/console/ui";
import { requeueAction, setChaosModeAction, setFastRetriesAction } from "@/app/console/actions/callbacks";
import { callbackSettings, DeliveryFilters, deliveryPage } from "@/lib/domain/callbacks/manage-callbacks";
import { merchantOptions } from "@/lib/domain/merchants/manage-merchants";
import { merchantScope } from "@/lib/domain/auth/actor";
import { requireActor } from "@/lib/application/console/session";
import { getDb } from "@/lib/platform/db";
import { DELIVERY_STATES } from "@/lib/domain/callbacks/deliveries";
import { retryWaitsSeconds } from "@/lib/contract/callbacks/retry-schedule";
import { formatRetryWaits } from "@/lib/application/console/format";
import { callbacksOverview } from "@/lib/domain/reports/callbacks-overview";
import { scenarioRulesFor } from "@/lib/domain/scenarios/manage";
import { CallbackAddressCard, ReturnAddressCard } from "./_cards/callback-address-card";
import { DeliveryStateFilter } from "./_cards/delivery-state-filter";
import { SandboxClockCard } from "./_cards/sandbox-clock-card";
import { ScenarioRulesCard } from "./_cards/scenario-rules-card";
import { SwitchCard } from "./_cards/switch-card";

// The Callbacks page: the operator's merchant and state filter, then the merchant's cards (address and signing
// secret, chaos mode, fast retries, scenario rules, sandbox clock; each in ./_cards), the charts and the deliveries.
export const dynamic = "force-dynamic";

const select = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";

export default async function CallbacksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requireActor();
  const sp = await searchParams;
  const filters = DeliveryFilters.parse(
    Object.fromEntries(
      Object.entries(sp)
        .map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])
        .filter(([, v]) => v),
    ),
  );
  const db = getDb();
  const merchantId = merchantScope(actor) ?? filters.merchant ?? null;
  const [deliveries, merchants, merchant, charts, scenarioRules] = await Promise.all([
    deliveryPage(db, actor, filters),
    actor.role === "OPERATOR" ? merchantOptions(db) : Promise.resolve([]),
    merchantId ? callbackSettings(db, actor, merchantId) : Promise.resolve(null),
    callbacksOverview(db, actor, { merchantId }),
    merchantId ? scenarioRulesFor(db, actor, merchantId) : Promise.resolve(null),
  ]);
  const listParams = { state: filters.state, merchant: filters.merchant, endedOn: filters.endedOn, attempts: filters.attempts, path: filters.path };
  const query = new URLSearchParams(Object.entries({ ...listParams, page: String(filters.page) }).filter((e): e is [string, string] => !!e[1])).toString();
  const narrowed =
    filters.endedOn || filters.attempts || filters.path
      ? [
          filters.endedOn ? `that ended on ${filters.endedOn} (Dubai)` : null,
          filters.attempts === "first" ? "delivered at the first attempt" : filters.attempts === "retried" ? "that needed retries" : null,
          filters.path === "listener"
            ? "whose event a sandpiper listen process delivered"
            : filters.path === "address"
              ? "whose event no listener delivered"
              : null,
        ]
          .filter(Boolean)
          .join(", ")
      : null;
  const unnarrowed = new URLSearchParams(
    Object.entries({ state: filters.state, merchant: filters.merchant }).filter((e): e is [string, string] => !!e[1]),
  ).toString();
  return (
    <>
      <PageHeader
        title="Callbacks"
        description={`Signed callbacks for payment.succeeded, payment.failed and payment.expired: at most 8 attempts per round, 5 s time-out, waits from ${merchant?.fastRetries ? "0.5 s to 60 s (fast retries on)" : "30 s to 1 h"}. Without an address, events are stored as NOT CONFIGURED and can be requeued once one is set.`}
      />
      <div className="space-y-4">
        {actor.role === "OPERATOR" ? (
          <Card>
            <form method="get" className="grid grid-cols-1 gap-3 sm:grid-cols-3" aria-label="Choose merchant and state">
              <MerchantFilter merchants={merchants} selected={filters.merchant} anyLabel="All merchants" />
              <label className="block text-xs font-medium text-slate-600">
                State
                <select name="state" defaultValue={filters.state ?? ""} className={select}>
                  <option value="">Any</option>
                  {DELIVERY_STATES.map((s) => (
                    <option key={s} value={s}>
                      {s.replace("_", " ")}
                    </option>
                  ))}
                </select>
              </label>
              <div className="flex items-end">
                <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-indigo-700">
                  Show
                </button>
              </div>
            </form>
          </Card>
        ) : null}
        {merchant ? <CallbackAddressCard merchant={merchant} showName={actor.role === "OPERATOR"} /> : null}
        {merchant ? <ReturnAddressCard merchant={merchant} showName={actor.role === "OPERATOR"} /> : null}
        {merchant ? (
          <>
            <SwitchCard
              title="Chaos mode"
              description="Tests your receiver against what real delivery does: on top of each delivery and listener forward, some events come twice, some late (so others overtake them), and now and then a request with a bad signature or a 10-minute-old timestamp arrives that your receiver must refuse. Injected requests are listed on each delivery with the answer a correct receiver gives; they never count as attempts."
              testId="chaos-state"
              merchantId={merchant.id}
              on={merchant.chaosMode}
              action={setChaosModeAction}
              placeholder="e.g. duplicate handling test"
            >
              Chaos mode is <strong>{merchant.chaosMode ? "on" : "off"}</strong>.
            </SwitchCard>
            <SwitchCard
              title="Fast retries"
              description="For testing a receiver that fails at first: failed callbacks are retried on the same schedule divided by 60, so the 8 attempts take seconds instead of hours (0.5 s, 2 s, 5 s, 10 s, 20 s, 40 s, 60 s). Applies from the next failed attempt. Also switchable with PUT /v1/sandbox/settings."
              testId="fast-retries-state"
              merchantId={merchant.id}
              on={merchant.fastRetries}
              action={setFastRetriesAction}
              placeholder="e.g. retry handling test"
            >
              Fast retries are <strong>{merchant.fastRetries ? "on" : "off"}</strong>: waits between attempts{" "}
              {formatRetryWaits(retryWaitsSeconds(merchant), merchant.fastRetries)}.
            </SwitchCard>
            {scenarioRules ? <ScenarioRulesCard merchantId={merchant.id} rules={scenarioRules.items} /> : null}
            <SandboxClockCard merchantId={merchant.id} clockOffsetMs={merchant.clockOffsetMs} />
          </>
        ) : actor.role === "OPERATOR" ? (
          <Notice tone="info">Choose a merchant above to set its callback address, send a test event or requeue its deliveries.</Notice>
        ) : null}
        <CallbacksCharts initial={charts} url={`/api/console/reports/callbacks${merchantId && actor.role === "OPERATOR" ? `?merchant=${merchantId}` : ""}`} />
        <Card id="deliveries" title="Deliveries" actions={actor.role === "MERCHANT" ? <DeliveryStateFilter state={filters.state} /> : null}>
          {narrowed ? (
            <p className="mb-3 text-sm text-slate-700" data-testid="deliveries-narrowed">
              Showing {filters.state ? filters.state.replace("_", " ").toLowerCase() : ""} deliveries {narrowed}.{" "}
              <Link className="text-indigo-700 underline" href={`/console/callbacks${unnarrowed ? `?${unnarrowed}` : ""}#deliveries`}>
                Show all
              </Link>
            </p>
          ) : null}
          {deliveries.total === 0 && !filters.state ? (
            <EmptyState title="No deliveries yet">Events appear here when payments succeed, fail or expire.</EmptyState>
          ) : (
            <DeliveriesTable
              key={query}
              initial={deliveries}
              query={query}
              showMerchant={actor.role === "OPERATOR" && !filters.merchant}
              requeue={requeueAction}
            />
          )}
          <Pager page={deliveries.page} pages={deliveries.pages} total={deliveries.total} basePath="/console/callbacks" params={listParams} />
        </Card>
      </div>
    </>
  );
}
