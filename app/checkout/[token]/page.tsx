// GET /checkout/{token} - the customer amount-entry page of a checkout session (bearer link)
import { displayRate } from "@/lib/contract/money/rates";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/lib/platform/db";
import { loadCustomerCheckout, type CustomerCheckoutView } from "@/lib/domain/checkout-sessions/customer-view";
import { AmountForm } from "@/components/checkout/AmountForm";
import { ConfirmTotal } from "@/components/checkout/ConfirmTotal";
import { ExpiryWatch } from "@/components/checkout/ExpiryWatch";
import { customerPageMetadata } from "@/components/checkout/page-title";
import { ReturnLink } from "@/components/checkout/ReturnLink";
import { StateHeading } from "@/components/checkout/StateHeading";
import { groupedAmount } from "@/components/checkout/amount";

export const dynamic = "force-dynamic";

/** The tab's title in each state: it names the state, so a customer who comes back to the tab sees where the checkout stands. */
const TITLES: Record<CustomerCheckoutView["state"], string> = {
  AWAITING_AMOUNT: "Enter the amount",
  QUOTED: "Your total",
  AWAITING_VERIFICATION: "Total confirmed",
  EXPIRED: "Link expired",
};

/** The page's view of a token, read once per request (the title and the page share it). */
const loadView = cache(async (token: string) => loadCustomerCheckout(getDb(), token, new Date()));

export async function generateMetadata({ params }: { params: Promise<{ token: string }> }): Promise<Metadata> {
  const view = await loadView((await params).token);
  return customerPageMetadata(view ? TITLES[view.state] : "Link not found", "Checkout");
}

type Quote = NonNullable<CustomerCheckoutView["quote"]>;

/** "AE070331234567890123456" -> "AE07 0331 2345 6789 0123 456" (the way IBANs are printed). */
const printedIban = (iban: string) => iban.replace(/(.{4})(?=.)/g, "$1 ");

function Card({ children, labelledBy }: { children: React.ReactNode; labelledBy: string }) {
  return (
    <section aria-labelledby={labelledBy} className="space-y-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      {children}
    </section>
  );
}

function FxWarning({ view, quote }: { view: CustomerCheckoutView; quote: Quote }) {
  return (
    <div role="note" aria-labelledby="fx-warning-title" className="rounded-xl border border-amber-400 bg-amber-50 p-4 text-sm text-amber-950">
      <p id="fx-warning-title" className="font-semibold">
        The amount charged may differ from what your bank shows
      </p>
      <p className="mt-1">
        You are charged{" "}
        <strong>
          {groupedAmount(quote.chargeAmount)} {quote.chargeCurrency}
        </strong>
        , converted from {groupedAmount(view.amount!)} {view.currency} at today&apos;s rate. If your account is in another currency, your bank converts the{" "}
        {quote.chargeCurrency} amount at its own rate and may add fees, so your statement can show a different amount.
      </p>
    </div>
  );
}

function ReceivingAccount({ quote }: { quote: Quote }) {
  const rows: [string, React.ReactNode][] = [
    ["Account holder", quote.bankAccount.holder],
    ["Bank", quote.bankAccount.bankName],
    [
      "IBAN",
      <span key="iban" className="font-mono break-all">
        {printedIban(quote.bankAccount.iban)}
      </span>,
    ],
  ];
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">The transfer goes to</h3>
      <dl className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex flex-col gap-0.5 px-3 py-2 sm:flex-row sm:justify-between sm:gap-4">
            <dt className="text-slate-600">{label}</dt>
            <dd className="font-medium text-slate-900 sm:text-right">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function Total({ view, quote }: { view: CustomerCheckoutView; quote: Quote }) {
  return (
    <div>
      <p className="text-3xl font-semibold tabular-nums text-slate-900">
        {groupedAmount(view.amount!)} <span className="text-xl">{view.currency}</span>
      </p>
      <p className="mt-1 text-sm text-slate-700">
        Charged as{" "}
        <strong className="tabular-nums">
          {groupedAmount(quote.chargeAmount)} {quote.chargeCurrency}
        </strong>{" "}
        at 1 {view.currency} = {displayRate(quote.effectiveRate)} {quote.chargeCurrency} (rate of {quote.rateDay}, Dubai time; rounded for display).
      </p>
    </div>
  );
}

function ChooseAmount({ view }: { view: CustomerCheckoutView }) {
  return (
    <Card labelledBy="choose-amount">
      <StateHeading id="choose-amount">How much do you want to pay?</StateHeading>
      {view.currencies.length > 0 ? (
        <AmountForm currencies={view.currencies} minAmount={view.minAmount} maxAmount={view.maxAmount} submitLabel="Show total" />
      ) : (
        <p className="text-slate-700">
          No currency is available for this checkout right now. Please try again later or contact <bdi>{view.merchantName}</bdi>.
        </p>
      )}
    </Card>
  );
}

function Quoted({ view, quote }: { view: CustomerCheckoutView; quote: Quote }) {
  return (
    <>
      <Card labelledBy="your-total">
        <StateHeading id="your-total">Your total</StateHeading>
        <Total view={view} quote={quote} />
        <FxWarning view={view} quote={quote} />
        <ReceivingAccount quote={quote} />
        <ConfirmTotal amount={view.amount!} currency={view.currency!} label={`Confirm total of ${groupedAmount(view.amount!)} ${view.currency}`} />
      </Card>
      <details className="group rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <summary className="cursor-pointer rounded py-3 font-medium text-blue-800 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
          Change amount or currency
        </summary>
        <div className="mt-4">
          <AmountForm
            currencies={view.currencies}
            minAmount={view.minAmount}
            maxAmount={view.maxAmount}
            defaultAmount={view.amount}
            defaultCurrency={view.currency}
            submitLabel="Update total"
            secondary
          />
        </div>
      </details>
    </>
  );
}

function Confirmed({ view, quote }: { view: CustomerCheckoutView; quote: Quote | null }) {
  return (
    <Card labelledBy="confirmed">
      <StateHeading id="confirmed">Total confirmed</StateHeading>
      {quote ? <Total view={view} quote={quote} /> : null}
      <div className="rounded-xl border border-slate-300 bg-slate-50 p-4 text-slate-900">
        <p className="font-semibold">Nothing was charged</p>
        <p className="mt-1 text-sm">
          Customer verification is not configured in this sandbox, so this checkout stops here. No payment was created and nothing was charged. You can close
          this page.
        </p>
      </div>
      <ReturnLink href={view.links.done} merchantName={view.merchantName} />
    </Card>
  );
}

function Expired({ view }: { view: CustomerCheckoutView }) {
  return (
    <Card labelledBy="expired">
      <StateHeading id="expired">This checkout link has expired</StateHeading>
      <p className="text-slate-700">
        For your security, checkout links are valid for a limited time. Nothing was charged. Please ask <bdi>{view.merchantName}</bdi> for a new link.
      </p>
      <ReturnLink href={view.links.leave} merchantName={view.merchantName} />
    </Card>
  );
}

export default async function CheckoutPage({ params }: { params: Promise<{ token: string }> }) {
  const view = await loadView((await params).token);
  if (!view) notFound();
  const open = view.state === "AWAITING_AMOUNT" || view.state === "QUOTED";
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-5 px-4 py-6 sm:py-10">
      <header className="space-y-1">
        <p className="inline-block rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-950">Sandbox · no real money moves</p>
        {/* Merchant text is isolated wherever it is shown (docs/decisions/0206-merchant-text-without-direction-controls.md). */}
        <h1 className="pt-2 text-2xl font-semibold text-slate-900">
          Pay <bdi>{view.merchantName}</bdi>
        </h1>
        <p className="text-sm text-slate-600">
          Order reference{" "}
          <bdi className="font-medium text-slate-900 break-all" data-testid="reference">
            {view.reference}
          </bdi>
        </p>
        {open ? <ExpiryWatch expiresAt={view.expiresAt} /> : null}
      </header>
      {view.state === "AWAITING_AMOUNT" && <ChooseAmount view={view} />}
      {view.state === "QUOTED" && view.quote && <Quoted view={view} quote={view.quote} />}
      {view.state === "AWAITING_VERIFICATION" && <Confirmed view={view} quote={view.quote} />}
      {view.state === "EXPIRED" && <Expired view={view} />}
      {open ? <ReturnLink href={view.links.leave} merchantName={view.merchantName} label="Leave without paying and return to" /> : null}
      <footer className="mt-auto pt-4 text-center text-xs text-slate-600">Sandpiper sandbox checkout</footer>
    </main>
  );
}
