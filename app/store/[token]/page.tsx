// GET /store/{token} - the store checkout page at checkout.url (bearer link): basket, discount wheel,
// AED total, original amount, and the store's sandbox test confirmation.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/lib/platform/db";
import { loadStoreCheckout, type StoreCheckoutView } from "@/lib/simulators/store/store-view";
import { money } from "@/components/checkout/amount";
import { pageProblem } from "@/components/checkout/problems";
import { ErrorAlert } from "@/components/checkout/ui";
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

/** Every other word of the page, in one place (shared pieces keep theirs in components/checkout/*). */
const TEXT = {
  sandboxBadge: "Sandbox · no real money moves",
  pay: "Pay",
  soldThrough: (store: string, legalName: string) => `Sold through ${store} · ${legalName}`,
  orderReference: "Order reference",
  basket: "Your basket",
  products: "Products",
  packagePrefix: "Package · ",
  subtotal: "Subtotal",
  noDiscount: "Exact price match: no discount needed.",
  totalToPay: "Total to pay",
  yourOrder: "Your order",
  orderDiscount: "Order discount",
  totalPaid: "Total paid",
  total: "Total",
  wheel: { spinning: "spinning…", caption: "Your discount is set by the store for this basket; the wheel only reveals it." },
  originalNote: {
    ready: (charge: string) => `, charged by the store in ${charge} as shown above.`,
    paid: (charge: string) => `, paid in ${charge}.`,
    other: ".",
  },
  orderWith: "Your order with",
  paidHeading: "Payment confirmed",
  declinedHeading: "Payment declined",
  paidText: ["The sandbox test payment of ", " was confirmed. No real money moved. "] as const,
  notified: " is notified and updates your order.",
  notNotified: " has not set up automatic notifications, so it sees the payment when it checks your order; contact it if your order does not update.",
  declinedText: ["The sandbox test payment was declined. Nothing was charged. Ask ", " for a new payment if you want to try again."] as const,
  expiredHeading: "This checkout has expired",
  expiredText: [
    "For your security, store checkouts are valid for a limited time. Nothing was charged. Please return to ",
    " and start the payment again.",
  ] as const,
  leave: "Leave without paying and return to",
  footer: (store: string, legalName: string) => `${store} · ${legalName} · sandbox store hosted by Sandpiper`,
};

/** The page's view of a token, read once per request (the title and the page share it). */
const loadView = cache(async (token: string) => loadStoreCheckout(getDb(), token, new Date()));

export async function generateMetadata({ params }: { params: Promise<{ token: string }> }): Promise<Metadata> {
  const view = await loadView((await params).token);
  return customerPageMetadata(view ? TITLES[view.state] : "Link not found", "Store checkout");
}

const aed = (amount: string) => money(amount, "AED");
type Query = Promise<Record<string, string | string[] | undefined>>;

function Card({ children, labelledBy }: { children: React.ReactNode; labelledBy: string }) {
  return (
    <section aria-labelledby={labelledBy} className="space-y-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      {children}
    </section>
  );
}

function Row({
  label,
  value,
  strong = false,
  testId,
  note,
}: {
  label: React.ReactNode;
  value: string;
  strong?: boolean;
  testId?: string;
  note?: React.ReactNode;
}) {
  return (
    <div className={`flex items-baseline justify-between gap-4 ${strong ? "text-lg font-semibold text-slate-900" : "text-slate-700"}`}>
      <dt>{label}</dt>
      <dd className="text-right tabular-nums">
        <span data-testid={testId}>{value}</span>
        {note}
      </dd>
    </div>
  );
}

/** The order's own amount and currency beside the charged total, when the order is in another currency. */
function OrderAmountNote({ view }: { view: StoreCheckoutView }) {
  if (view.originalCurrency === view.chargeCurrency) return null;
  return (
    <span className="block text-sm font-normal text-slate-700" data-testid="order-amount">
      {`${TEXT.yourOrder}: ${money(view.originalAmount, view.originalCurrency)}`}
    </span>
  );
}

function Basket({ view }: { view: StoreCheckoutView }) {
  return (
    <ul className="divide-y divide-slate-200" aria-label={TEXT.products}>
      {view.lines.map((line) => (
        <li key={line.sku} className="flex items-start justify-between gap-4 py-3" data-testid="basket-line">
          <div className="min-w-0">
            <p className="font-medium text-slate-900">{line.name}</p>
            <p className="text-sm text-slate-600">
              {line.kind === "PACKAGE" ? TEXT.packagePrefix : ""}
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
    ? TEXT.originalNote.other
    : view.state === "READY"
      ? TEXT.originalNote.ready(view.chargeCurrency)
      : view.state === "SUCCEEDED"
        ? TEXT.originalNote.paid(view.chargeCurrency)
        : TEXT.originalNote.other;
  return (
    <p className="text-sm text-slate-700" data-testid="original-amount">
      {TEXT.orderWith} <bdi>{view.merchantName}</bdi>:{" "}
      <strong className="whitespace-nowrap tabular-nums text-slate-900">{money(view.originalAmount, view.originalCurrency)}</strong>
      {note}
    </p>
  );
}

function Ready({ view, problem }: { view: StoreCheckoutView; problem: string | null }) {
  const discounted = view.discount !== "0.00";
  return (
    <>
      <Card labelledBy="your-basket">
        <StateHeading id="your-basket">{TEXT.basket}</StateHeading>
        <Basket view={view} />
        <dl className="space-y-2 border-t border-slate-200 pt-3">
          <Row label={TEXT.subtotal} value={aed(view.subtotal)} testId="subtotal" />
        </dl>
        {discounted ? (
          <DiscountWheel discount={view.discount} labels={{ amount: aed(view.discount), ...TEXT.wheel }} />
        ) : (
          <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">{TEXT.noDiscount}</p>
        )}
        <dl className="border-t border-slate-200 pt-3">
          <Row label={TEXT.totalToPay} value={aed(view.total)} strong testId="total" note={<OrderAmountNote view={view} />} />
        </dl>
        <OriginalAmount view={view} />
      </Card>
      <StoreConfirmation payLabel={`${TEXT.pay} ${aed(view.total)}`} problem={problem} />
      <ReturnLink href={view.links.leave} merchantName={view.merchantName} label={TEXT.leave} />
    </>
  );
}

function Outcome({ view }: { view: StoreCheckoutView }) {
  const paid = view.state === "SUCCEEDED";
  return (
    <Card labelledBy="outcome">
      <StateHeading id="outcome">{paid ? TEXT.paidHeading : TEXT.declinedHeading}</StateHeading>
      <p
        className={`rounded-xl border p-4 ${paid ? "border-emerald-300 bg-emerald-50 text-emerald-950" : "border-slate-300 bg-slate-50 text-slate-900"}`}
        data-testid="outcome"
      >
        {paid ? (
          <>
            {TEXT.paidText[0]}
            <span className="whitespace-nowrap font-semibold">{aed(view.total)}</span>
            {TEXT.paidText[1]}
            <bdi>{view.merchantName}</bdi>
            {view.merchantNotified ? TEXT.notified : TEXT.notNotified}
          </>
        ) : (
          <>
            {TEXT.declinedText[0]}
            <bdi>{view.merchantName}</bdi>
            {TEXT.declinedText[1]}
          </>
        )}
      </p>
      <Basket view={view} />
      <dl className="space-y-2 border-t border-slate-200 pt-3">
        <Row label={TEXT.subtotal} value={aed(view.subtotal)} />
        <Row label={TEXT.orderDiscount} value={`− ${aed(view.discount)}`} />
        <Row label={paid ? TEXT.totalPaid : TEXT.total} value={aed(view.total)} strong note={<OrderAmountNote view={view} />} />
      </dl>
      <OriginalAmount view={view} />
      <ReturnLink href={paid ? view.links.done : view.links.leave} merchantName={view.merchantName} />
    </Card>
  );
}

function Expired({ view }: { view: StoreCheckoutView }) {
  return (
    <Card labelledBy="expired">
      <StateHeading id="expired">{TEXT.expiredHeading}</StateHeading>
      <p className="text-slate-700">
        {TEXT.expiredText[0]}
        <bdi>{view.merchantName}</bdi>
        {TEXT.expiredText[1]}
      </p>
      <ReturnLink href={view.links.leave} merchantName={view.merchantName} />
    </Card>
  );
}

export default async function StoreCheckoutPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Query }) {
  const view = await loadView((await params).token);
  if (!view) notFound();
  // A refusal of the page's form sent without its script (components/checkout/problems.ts).
  const problem = pageProblem(await searchParams);
  const ready = view.state === "READY";
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-5 px-4 py-6 sm:py-10">
      <header className="space-y-1">
        <p className="inline-block rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-950">{TEXT.sandboxBadge}</p>
        {/* Merchant text is isolated wherever it is shown (docs/decisions/0206-merchant-text-without-direction-controls.md). */}
        <h1 className="pt-2 text-2xl font-semibold text-slate-900">
          {`${TEXT.pay} `}
          <bdi>{view.merchantName}</bdi>
        </h1>
        <p className="text-sm text-slate-600">{TEXT.soldThrough(view.store, view.legalName)}</p>
        <p className="text-sm text-slate-600">
          {TEXT.orderReference}{" "}
          <bdi className="break-all font-medium text-slate-900" data-testid="reference">
            {view.reference}
          </bdi>
        </p>
        {ready ? <ExpiryWatch expiresAt={view.expiresAt} /> : null}
      </header>
      {problem && !ready ? <ErrorAlert>{problem.message}</ErrorAlert> : null}
      {ready && <Ready view={view} problem={problem?.message ?? null} />}
      {(view.state === "SUCCEEDED" || view.state === "FAILED") && <Outcome view={view} />}
      {view.state === "EXPIRED" && <Expired view={view} />}
      <footer className="mt-auto pt-4 text-center text-xs text-slate-600">{TEXT.footer(view.store, view.legalName)}</footer>
    </main>
  );
}
