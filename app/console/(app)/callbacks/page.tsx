import Link from "next/link";
import { CallbacksCharts } from "@/components/console/charts/callbacks-charts";
import { DeliveriesTable } from "@/components/console/deliveries-table";
import { ActionForm, Checkbox, Field, Hidden, SubmitButton } from "@/components/console/forms";
import { Card, EmptyState, Notice, PageHeader, Pager } from "@/components/console/ui";
import {
  endOverlapAction,
  requeueAction,
  rotateSecretAction,
  sendTestAction,
  setCallbackAction,
  setChaosModeAction,
  setFastRetriesAction,
} from "@/app/console/actions/callbacks";
import { moveClockAction } from "@/app/console/actions/sandbox-clock";
import { formatOffset } from "@/lib/clock";
import { callbackSettings, DeliveryFilters, deliveryPage } from "@/lib/callbacks/manage-callbacks";
import { callbackAddressRule, savedAddressNote } from "@/lib/callbacks/callback-config";
import { merchantOptions } from "@/lib/merchants/manage-merchants";
import { merchantScope } from "@/lib/auth/actor";
import { requireActor } from "@/lib/console/session";
import { getDb } from "@/lib/db";
import { DELIVERY_STATES } from "@/lib/callbacks/deliveries";
import { retryWaitsSeconds } from "@/lib/callbacks/retry-schedule";
import { formatDateTime, formatRetryWaits } from "@/lib/console/format";
import { systemNow } from "@/lib/clock";
import { callbacksOverview } from "@/lib/reports/callbacks-overview";
import { scenarioRulesFor } from "@/lib/scenarios/manage";
import type { ScenarioRuleResource } from "@/lib/schemas/scenario-rules";
import { FAILURE_CODE_NAMES } from "@/lib/schemas/failure-codes";
import {
  addScenarioRuleAction,
  addStandardScenarioRulesAction,
  deleteScenarioRuleAction,
  switchScenarioRuleAction,
} from "@/app/console/actions/scenario-rules";

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
              <label className="block text-xs font-medium text-slate-600">
                Merchant
                <select name="merchant" defaultValue={filters.merchant ?? ""} className={select}>
                  <option value="">All merchants</option>
                  {merchants.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name}
                    </option>
                  ))}
                </select>
              </label>
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
        {merchant ? (
          <Card
            title={`Callback address${actor.role === "OPERATOR" ? ` of ${merchant.name}` : ""}`}
            description={`${callbackAddressRule()} Saving generates a new signing secret, shown only once.`}
          >
            <p className="mb-3 text-sm text-slate-700">
              Current:{" "}
              {merchant.callbackUrl ? (
                <>
                  <code className="break-all font-mono text-xs" data-testid="callback-url">
                    {merchant.callbackUrl}
                  </code>
                  {savedAddressNote(merchant.callbackUrl) ? (
                    <span className="ml-1 text-slate-600" data-testid="callback-url-note">
                      ({savedAddressNote(merchant.callbackUrl)})
                    </span>
                  ) : null}
                </>
              ) : (
                <span className="text-amber-800">not set</span>
              )}
            </p>
            <ActionForm
              action={setCallbackAction}
              label="Set the callback address"
              className="flex flex-col gap-3 sm:flex-row sm:items-start"
              shownOnceNote="Copy the secret now: it verifies X-Service-Signature and is not shown again."
            >
              <Hidden name="merchantId" value={merchant.id} />
              <Field name="url" label="New address" required placeholder="https://shop.example.com/callbacks" className="flex-1" />
              <div className="sm:pt-6">
                <SubmitButton>Save address</SubmitButton>
              </div>
            </ActionForm>
            {merchant.callbackUrl ? <SecretRotation merchantId={merchant.id} overlapEndsAt={merchant.previousCallbackSecretUntil} /> : null}
            <div className="mt-4 flex flex-wrap gap-3 border-t border-slate-100 pt-4">
              <ActionForm action={sendTestAction} label="Send a test event">
                <Hidden name="merchantId" value={merchant.id} />
                <SubmitButton variant="secondary" disabledReason={merchant.callbackUrl ? null : "set an address first"}>
                  Send test event
                </SubmitButton>
              </ActionForm>
              <ActionForm action={requeueAction} label="Requeue all" confirm="Requeue every FAILED and NOT CONFIGURED delivery of this merchant?">
                <Hidden name="merchantId" value={merchant.id} />
                <SubmitButton variant="secondary" disabledReason={merchant.callbackUrl ? null : "set an address first"}>
                  Requeue all failed and not configured
                </SubmitButton>
              </ActionForm>
            </div>
          </Card>
        ) : null}
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
            <Card
              title="Sandbox clock"
              description="Moves this merchant's sandbox time ahead, as if that time had gone by: pending payments and checkout sessions past their expiry expire now, callback retries waiting for their time come sooner, velocity windows and daily and monthly limits roll over. Only this merchant's objects; callback signatures keep the real time. Also with POST /v1/sandbox/clock/advance."
            >
              <p className="mb-3 text-sm text-slate-700" data-testid="clock-state">
                {merchant.clockOffsetMs === 0n ? (
                  <>
                    The sandbox clock is at the <strong>real time</strong>.
                  </>
                ) : (
                  <>
                    The sandbox clock runs <strong>{formatOffset(merchant.clockOffsetMs)}</strong> ahead of the real time.
                  </>
                )}
              </p>
              <div className="flex flex-wrap items-start gap-6">
                <ActionForm action={moveClockAction} label="Advance the sandbox clock" className="w-full space-y-3 sm:w-80">
                  <Hidden name="merchantId" value={merchant.id} />
                  <Field name="by" label="Advance by" required placeholder="e.g. 2h, 1d, 90m" />
                  <Field name="reason" label="Reason" required placeholder="e.g. expiry test" />
                  <SubmitButton>Advance</SubmitButton>
                </ActionForm>
                {merchant.clockOffsetMs !== 0n ? (
                  <ActionForm action={moveClockAction} label="Reset the sandbox clock" className="w-full space-y-3 sm:w-80">
                    <Hidden name="merchantId" value={merchant.id} />
                    <Field name="reason" label="Reason" required placeholder="e.g. done testing" />
                    <SubmitButton variant="secondary">Back to the real time</SubmitButton>
                  </ActionForm>
                ) : null}
              </div>
            </Card>
          </>
        ) : actor.role === "OPERATOR" ? (
          <Notice tone="info">Choose a merchant above to set its callback address, send a test event or requeue its deliveries.</Notice>
        ) : null}
        <CallbacksCharts initial={charts} url={`/api/console/reports/callbacks${merchantId && actor.role === "OPERATOR" ? `?merchant=${merchantId}` : ""}`} />
        <Card id="deliveries" title="Deliveries" actions={actor.role === "MERCHANT" ? <Filters state={filters.state} /> : null}>
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
            <DeliveriesTable key={query} initial={deliveries} query={query} showMerchant={actor.role === "OPERATOR" && !filters.merchant} />
          )}
          <Pager page={deliveries.page} pages={deliveries.pages} total={deliveries.total} basePath="/console/callbacks" params={listParams} />
        </Card>
      </div>
    </>
  );
}

function Filters({ state }: { state?: string }) {
  return (
    <nav aria-label="Delivery state" className="flex flex-wrap gap-1.5">
      {["", ...DELIVERY_STATES].map((s) => (
        <Link
          key={s || "all"}
          href={s ? `/console/callbacks?state=${s}` : "/console/callbacks"}
          aria-current={(state ?? "") === s ? "page" : undefined}
          className={`rounded-md px-2 py-1 text-xs font-medium ring-1 ring-inset ${(state ?? "") === s ? "bg-indigo-600 text-white ring-indigo-600" : "text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
        >
          {s ? s.replace("_", " ") : "All"}
        </Link>
      ))}
    </nav>
  );
}

/** A merchant's on/off delivery setting switched with a reason (chaos mode, fast retries): its state and the form. */
function SwitchCard(props: {
  title: string;
  description: string;
  testId: string;
  merchantId: string;
  on: boolean;
  action: typeof setChaosModeAction;
  placeholder: string;
  children: React.ReactNode;
}) {
  const name = props.title.toLowerCase();
  return (
    <Card title={props.title} description={props.description}>
      <p className="mb-3 text-sm text-slate-700" data-testid={props.testId}>
        {props.children}
      </p>
      <ActionForm action={props.action} label={`Switch ${name}`} className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <Hidden name="merchantId" value={props.merchantId} />
        {props.on ? null : <Hidden name="enabled" value="on" />}
        <Field name="reason" label="Reason" required placeholder={props.placeholder} className="flex-1" />
        <div className="sm:pt-6">
          <SubmitButton variant={props.on ? "secondary" : "primary"}>{props.on ? `Switch ${name} off` : `Switch ${name} on`}</SubmitButton>
        </div>
      </ActionForm>
    </Card>
  );
}

/** docs/api.md "Scenario rules": the merchant's rules, each with Enable/Disable and Delete, the standard set and a new rule. */
function ScenarioRulesCard({ merchantId, rules }: { merchantId: string; rules: ScenarioRuleResource[] }) {
  const matchText = (r: ScenarioRuleResource) =>
    [
      r.match.amount ? `amount ${r.match.amount}` : null,
      r.match.referencePrefix ? `reference starts with "${r.match.referencePrefix}"` : null,
      r.match.method,
      r.match.direction,
      r.match.currency,
    ]
      .filter(Boolean)
      .join(", ");
  return (
    <Card
      id="scenario-rules"
      title="Scenario rules"
      description="New payments that match an enabled rule are concluded automatically, exactly as a manual completion would (same status, ledger entry, event and callback), or left to expire. The first enabled rule by position wins; rules are off until enabled. Also managed with /v1/sandbox/scenario-rules."
      actions={
        <ActionForm action={addStandardScenarioRulesAction} label="Add the standard set">
          <Hidden name="merchantId" value={merchantId} />
          <SubmitButton variant="secondary">Add the standard set</SubmitButton>
        </ActionForm>
      }
    >
      {rules.length === 0 ? (
        <EmptyState title="No scenario rules">
          Add the standard set (13.13 fails, 14.14 expires, fail- fails, slow- succeeds after 30 s...) or a rule of your own below.
        </EmptyState>
      ) : (
        <ul className="mb-4 divide-y divide-slate-200" data-testid="scenario-rules">
          {rules.map((r) => (
            <li key={r.id} className="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between" data-testid="scenario-rule">
              <div className="text-sm">
                <span className="font-medium">
                  {r.position}. {r.name}
                </span>{" "}
                <span className={r.enabled ? "text-emerald-700" : "text-slate-500"}>({r.enabled ? "on" : "off"})</span>
                <div className="text-slate-600">
                  {matchText(r)} → {r.outcome === "EXPIRE" ? "left to expire" : r.outcome}
                  {r.failureCode ? ` (${r.failureCode})` : ""}
                  {r.delayMs && r.outcome !== "EXPIRE" ? ` after ${r.delayMs / 1000} s` : ""}
                </div>
              </div>
              <div className="flex gap-2">
                <ActionForm action={switchScenarioRuleAction} label={`${r.enabled ? "Disable" : "Enable"} ${r.name}`}>
                  <Hidden name="merchantId" value={merchantId} />
                  <Hidden name="ruleId" value={r.id} />
                  {r.enabled ? null : <Hidden name="enabled" value="on" />}
                  <SubmitButton variant="secondary">{r.enabled ? "Disable" : "Enable"}</SubmitButton>
                </ActionForm>
                <ActionForm action={deleteScenarioRuleAction} label={`Delete ${r.name}`} confirm={`Delete the rule "${r.name}"?`}>
                  <Hidden name="merchantId" value={merchantId} />
                  <Hidden name="ruleId" value={r.id} />
                  <SubmitButton variant="secondary">Delete</SubmitButton>
                </ActionForm>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ActionForm action={addScenarioRuleAction} label="Add a scenario rule" resetOnSuccess className="grid gap-3 sm:grid-cols-3">
        <Hidden name="merchantId" value={merchantId} />
        <Field name="name" label="Name" required placeholder="e.g. 99.99 fails" />
        <Field name="amount" label="Amount (any currency)" placeholder="e.g. 13.13" inputMode="decimal" />
        <Field name="referencePrefix" label="Reference starts with" placeholder="e.g. fail-" />
        <label className="text-sm font-medium text-slate-700">
          Outcome
          <select name="outcome" className={select} defaultValue="FAILED">
            <option value="SUCCEEDED">Succeeds</option>
            <option value="FAILED">Fails</option>
            <option value="EXPIRE">Left to expire</option>
          </select>
        </label>
        <Field name="delaySeconds" label="Delay (seconds, 0 to 3600)" defaultValue="0" inputMode="numeric" />
        <label className="text-sm font-medium text-slate-700">
          Failure code (Fails only)
          <select name="failureCode" className={select} defaultValue="">
            <option value="">None</option>
            {FAILURE_CODE_NAMES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </label>
        <Checkbox name="enabled" label="Enabled" defaultChecked />
        <div>
          <SubmitButton>Add rule</SubmitButton>
        </div>
      </ActionForm>
    </Card>
  );
}

/** Rotating the signing secret with an overlap, and ending a running overlap (docs/callbacks.md "Rotating the secret"). */
function SecretRotation({ merchantId, overlapEndsAt }: { merchantId: string; overlapEndsAt: Date | null }) {
  const running = overlapEndsAt && overlapEndsAt > systemNow() ? overlapEndsAt : null;
  return (
    <div className="mt-4 border-t border-slate-100 pt-4" data-testid="secret-rotation">
      <h3 className="text-sm font-semibold text-slate-800">Rotate the signing secret</h3>
      <p className="mt-1 text-xs text-slate-600">
        A new secret for the same address. During the overlap the old secret still signs X-Service-Signature and webhook-signature carries a signature by each,
        so your receiver verifies every callback with either secret while you deploy the new one.
      </p>
      {running ? (
        <div className="mt-2 flex flex-wrap items-center gap-3 text-sm text-amber-900" data-testid="overlap-state">
          <span>
            Overlap: the previous secret signs until <strong>{formatDateTime(running)} Dubai</strong>.
          </span>
          <ActionForm action={endOverlapAction} label="End the overlap" confirm="Stop signing with the previous secret now?">
            <Hidden name="merchantId" value={merchantId} />
            <SubmitButton variant="secondary">End the overlap now</SubmitButton>
          </ActionForm>
        </div>
      ) : null}
      <ActionForm
        action={rotateSecretAction}
        label="Rotate the signing secret"
        className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-3 sm:items-start"
        confirm="Make a new signing secret for this address?"
        shownOnceNote="Copy the new secret now: it is not shown again. It also verifies webhook-signature with any Standard Webhooks library."
      >
        <Hidden name="merchantId" value={merchantId} />
        <Field
          name="overlap"
          label="Old secret keeps signing for"
          defaultValue="24h"
          options={[
            { value: "0s", label: "no overlap (stops now)" },
            { value: "1h", label: "1 hour" },
            { value: "24h", label: "24 hours" },
            { value: "7d", label: "7 days" },
          ]}
        />
        <Field name="reason" label="Reason" required placeholder="e.g. yearly rotation" />
        <div className="sm:pt-6">
          <SubmitButton>Rotate secret</SubmitButton>
        </div>
      </ActionForm>
    </div>
  );
}
