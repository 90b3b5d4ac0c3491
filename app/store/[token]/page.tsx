// GET /store/{token} - the store checkout page at checkout.url (bearer link): basket, discount wheel,
// AED total, original amount, and the store's sandbox test confirmation.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/lib/platform/db";
import { loadStoreCheckout, type StoreCheckoutView } from "@/lib/simulators/store/store-view";
import { groupedAmount } from "@/components/checkout/amount";
import { ExpiryWatch } from "@/components/checkout/ExpiryWatch";
import { customerPageMetadata } from "@/components/checkout/page-title";
import { ReturnLink } from "@/components/checkout/ReturnLink";
import { StateHeading } from "@/components/checkout/StateHeading";
import { DiscountWheel } from "@/components/store/DiscountWheel";
import { StoreConfirmation } from "@/components/store/StoreConfirmation";

export const dynamic = "force-dynamic";

/** The tab's title in each state: it names the state, so a customer who comes back to the tab sees where the payment stands. */
const TITLES: Record<StoreCheckoutView["state"], string> = {
  QUEUED: "Store checkout",
  REJECTED: "Store checkout",
  READY: "Ready to pay",
  SUCCEEDED: "Payment confirmed",
  FAILED: "Payment declined",
  EXPIRED: "Checkout expired",
};

/** The page's view of a token, read once per request (the title and the page share it). */
const loadView = cache(async (token: string) => loadStoreCheckout(getDb(), token, new Date()));

export async function generateMetadata({ params }: { params: Promise<{ token: string }> }): Promise<Metadata> {
  const view = await loadView((await params).token);
  return customerPageMetadata(view ? TITLES[view.state] : "Link not found", "Store checkout");
}

const aed = (amount: string) => `AED ${groupedAmount(amount)}`;

function Card({ children, labelledBy }: { children: React.ReactNode; labelledBy: string }) {
  return (
    <section aria-labelledby={labelledBy} className="space-y-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      {children}
    </section>
  );
}

function Row({ label, value, strong = false, testId }: { label: React.ReactNode; value: string; strong?: boolean; testId?: string }) {
  return (
    <div className={`flex items-baseline justify-between gap-4 ${strong ? "text-lg font-semibold text-slate-900" : "text-slate-700"}`}>
      <dt>{label}</dt>
      <dd className="tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function Basket({ view }: { view: StoreCheckoutView }) {
  return (
    <ul className="divide-y divide-slate-200" aria-label="Products">
      {view.lines.map((line) => (
        <li key={line.sku} className="flex items-start justify-between gap-4 py-3" data-testid="basket-line">
          <div className="min-w-0">
            <p className="font-medium text-slate-900">{line.name}</p>
            <p className="text-sm text-slate-600">
              {line.kind === "PACKAGE" ? "Package · " : ""}
              {line.quantity} × {aed(line.unitPrice)}
            </p>
          </div>
          <p className="shrink-0 font-medium tabular-nums text-slate-900">{aed(line.lineTotal)}</p>
        </li>
      ))}
    </ul>
  );
}

/** The merchant's original order amount and currency (docs/api.md "Overview" 6: kept, also when it is not AED). */
function OriginalAmount({ view }: { view: StoreCheckoutView }) {
  const foreign = view.originalCurrency !== view.chargeCurrency;
  const note = !foreign
    ? "."
    : view.state === "READY"
      ? `, charged by the store in ${view.chargeCurrency} as shown above.`
      : view.state === "SUCCEEDED"
        ? `, paid in ${view.chargeCurrency}.`
        : ".";
  return (
    <p className="text-sm text-slate-700" data-testid="original-amount">
      Your order with <bdi>{view.merchantName}</bdi>:{" "}
      <strong className="whitespace-nowrap tabular-nums text-slate-900">{`${groupedAmount(view.originalAmount)} ${view.originalCurrency}`}</strong>
      {note}
    </p>
  );
}

function Ready({ view }: { view: StoreCheckoutView }) {
  const discounted = view.discount !== "0.00";
  return (
    <>
      <Card labelledBy="your-basket">
        <StateHeading id="your-basket">Your basket</StateHeading>
        <Basket view={view} />
        <dl className="space-y-2 border-t border-slate-200 pt-3">
          <Row label="Subtotal" value={aed(view.subtotal)} testId="subtotal" />
        </dl>
        {discounted ? (
          <DiscountWheel discount={view.discount} />
        ) : (
          <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">Exact price match: no discount needed.</p>
        )}
        <dl className="border-t border-slate-200 pt-3">
          <Row label="Total to pay" value={aed(view.total)} strong testId="total" />
        </dl>
        <OriginalAmount view={view} />
      </Card>
      <StoreConfirmation total={groupedAmount(view.total)} />
      <ReturnLink href={view.links.leave} merchantName={view.merchantName} label="Leave without paying and return to" />
    </>
  );
}

function Outcome({ view }: { view: StoreCheckoutView }) {
  const paid = view.state === "SUCCEEDED";
  return (
    <Card labelledBy="outcome">
      <StateHeading id="outcome">{paid ? "Payment confirmed" : "Payment declined"}</StateHeading>
      <p
        className={`rounded-xl border p-4 ${paid ? "border-emerald-300 bg-emerald-50 text-emerald-950" : "border-slate-300 bg-slate-50 text-slate-900"}`}
        data-testid="outcome"
      >
        {paid ? (
          <>
            The sandbox test payment of <span className="whitespace-nowrap font-semibold">{aed(view.total)}</span> was confirmed. No real money moved.{" "}
            <bdi>{view.merchantName}</bdi>
            {view.merchantNotified
              ? " is notified and updates your order."
              : " has not set up automatic notifications, so it sees the payment when it checks your order; contact it if your order does not update."}
          </>
        ) : (
          <>
            The sandbox test payment was declined. Nothing was charged. Ask <bdi>{view.merchantName}</bdi> for a new payment if you want to try again.
          </>
        )}
      </p>
      <Basket view={view} />
      <dl className="space-y-2 border-t border-slate-200 pt-3">
        <Row label="Subtotal" value={aed(view.subtotal)} />
        <Row label="Order discount" value={`− ${aed(view.discount)}`} />
        <Row label={paid ? "Total paid" : "Total"} value={aed(view.total)} strong />
      </dl>
      <OriginalAmount view={view} />
      <ReturnLink href={paid ? view.links.done : view.links.leave} merchantName={view.merchantName} />
    </Card>
  );
}

function Expired({ view }: { view: StoreCheckoutView }) {
  return (
    <Card labelledBy="expired">
      <StateHeading id="expired">This checkout has expired</StateHeading>
      <p className="text-slate-700">
        For your security, store checkouts are valid for a limited time. Nothing was charged. Please return to <bdi>{view.merchantName}</bdi> and start the
        payment again.
      </p>
      <ReturnLink href={view.links.leave} merchantName={view.merchantName} />
    </Card>
  );
}

export default async function StoreCheckoutPage({ params }: { params: Promise<{ token: string }> }) {
  const view = await loadView((await params).token);
  if (!view) notFound();
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-5 px-4 py-6 sm:py-10">
      <header className="space-y-1">
        <p className="inline-block rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-950">Sandbox · no real money moves</p>
        <h1 className="pt-2 text-2xl font-semibold text-slate-900">{view.store}</h1>
        <p className="text-sm text-slate-600">{view.legalName}</p>
        <p className="text-sm text-slate-600">
          {/* Merchant text is isolated wherever it is shown (docs/decisions/0206-merchant-text-without-direction-controls.md). */}
          Order reference{" "}
          <bdi className="break-all font-medium text-slate-900" data-testid="reference">
            {view.reference}
          </bdi>
        </p>
        {view.state === "READY" ? <ExpiryWatch expiresAt={view.expiresAt} /> : null}
      </header>
      {view.state === "READY" && <Ready view={view} />}
      {(view.state === "SUCCEEDED" || view.state === "FAILED") && <Outcome view={view} />}
      {view.state === "EXPIRED" && <Expired view={view} />}
      <footer className="mt-auto pt-4 text-center text-xs text-slate-600">
        {view.store} · {view.legalName} · sandbox store hosted by Sandpiper
      </footer>
    </main>
  );
}
