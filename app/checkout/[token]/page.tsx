// GET /checkout/{token} - the customer amount-entry page of a checkout session (bearer link)
import { displayRate, rateDifference } from "@/lib/contract/money/rates";
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
import { checkAmount, money, percent } from "@/components/checkout/amount";
import { formatCalendarDay } from "@/lib/platform/time-format";
import { pageProblem, type PageProblem } from "@/components/checkout/problems";
import { ErrorAlert } from "@/components/checkout/ui";

export const dynamic = "force-dynamic";

/** The tab's title in each state: it names the state, so a customer who comes back to the tab sees where the checkout stands. */
const TITLES: Record<CustomerCheckoutView["state"], string> = {
  AWAITING_AMOUNT: "Enter the amount",
  QUOTED: "Your total",
  AWAITING_VERIFICATION: "Total confirmed",
  EXPIRED: "Link expired",
};

/** Every other word of the page, in one place (shared pieces keep theirs in components/checkout/*). */
const TEXT = {
  sandboxBadge: "Sandbox · no real money moves",
  pay: "Pay",
  orderReference: "Order reference",
  chooseHeading: "How much do you want to pay?",
  showTotal: "Show total",
  noCurrency: ["No currency is available for this checkout right now. Please try again later or contact ", "."] as const,
  totalHeading: "Your total",
  youPay: "You pay",
  forAmount: (amount: string) => `for ${amount}`,
  rate: (from: string, rate: string, to: string) => `1 ${from} = ${rate} ${to}`,
  rateAgainstReference: (difference: string, direction: "above" | "below" | "equal", reference: string) =>
    direction === "equal" ? `, the reference rate` : `, ${difference} ${direction} the reference rate of ${reference}`,
  rateDay: (day: string) => ` (rate of ${day}, Dubai business day; rounded for display).`,
  fxWarningTitle: "The amount charged may differ from what your bank shows",
  fxWarning: (charged: string, entered: string, currency: string) =>
    `You are charged ${charged}, converted from ${entered}. If your account is in another currency, your bank converts the ${currency} amount at its own rate and may add fees, so your statement can show a different amount.`,
  transferTo: "The transfer goes to",
  holder: "Account holder",
  bank: "Bank",
  iban: "IBAN",
  confirm: (charged: string) => `Confirm total of ${charged}`,
  change: "Change amount or currency",
  update: "Update total",
  confirmedHeading: "Total confirmed",
  nothingCharged: "Nothing was charged",
  notConfigured: "Customer verification is not configured in this sandbox, so this checkout stops here. No payment was created and nothing was charged.",
  nextStep: ["Next, go back to ", ": it sees the total you confirmed and tells you how your order continues."] as const,
  expiredHeading: "This checkout link has expired",
  expiredText: ["For your security, checkout links are valid for a limited time. Nothing was charged. Please ask ", " for a new link."] as const,
  leave: "Leave without paying and return to",
  footer: "Sandpiper sandbox checkout",
};

/** The page's view of a token, read once per request (the title and the page share it). */
const loadView = cache(async (token: string) => loadCustomerCheckout(getDb(), token, new Date()));

export async function generateMetadata({ params }: { params: Promise<{ token: string }> }): Promise<Metadata> {
  const view = await loadView((await params).token);
  return customerPageMetadata(view ? TITLES[view.state] : "Link not found", "Checkout");
}

type Quote = NonNullable<CustomerCheckoutView["quote"]>;
type Query = Promise<Record<string, string | string[] | undefined>>;

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
        {TEXT.fxWarningTitle}
      </p>
      <p className="mt-1">{TEXT.fxWarning(money(quote.chargeAmount, quote.chargeCurrency), money(view.amount!, view.currency!), quote.chargeCurrency)}</p>
    </div>
  );
}

function ReceivingAccount({ quote }: { quote: Quote }) {
  const rows: [string, React.ReactNode][] = [
    [TEXT.holder, quote.bankAccount.holder],
    [TEXT.bank, quote.bankAccount.bankName],
    [
      TEXT.iban,
      <span key="iban" className="font-mono break-all">
        {printedIban(quote.bankAccount.iban)}
      </span>,
    ],
  ];
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">{TEXT.transferTo}</h3>
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

/** The rate shown, how it differs from the reference (base) rate in percent, and its Dubai business day. */
function RateLine({ view, quote }: { view: CustomerCheckoutView; quote: Quote }) {
  const difference = rateDifference(quote.effectiveRate, quote.baseRate);
  const direction = Number(difference) === 0 ? "equal" : difference.startsWith("-") ? "below" : "above";
  return (
    <p className="mt-2 text-sm text-slate-700" data-testid="rate">
      {TEXT.rate(view.currency!, displayRate(quote.effectiveRate), quote.chargeCurrency)}
      {TEXT.rateAgainstReference(percent(difference), direction, displayRate(quote.baseRate))}
      {TEXT.rateDay(formatCalendarDay(quote.rateDay))}
    </p>
  );
}

/** What the customer pays, first: the charged amount and currency as the headline, then what it is for and at which rate. */
function Total({ view, quote }: { view: CustomerCheckoutView; quote: Quote }) {
  return (
    <div>
      <p className="text-sm font-medium text-slate-700">{TEXT.youPay}</p>
      <p className="text-3xl font-semibold tabular-nums text-slate-900" data-testid="charged-total">
        {money(quote.chargeAmount, quote.chargeCurrency)}
      </p>
      <p className="mt-1 text-slate-700" data-testid="entered-amount">
        {TEXT.forAmount(money(view.amount!, view.currency!))}
      </p>
      <RateLine view={view} quote={quote} />
    </div>
  );
}

/** The words of a refusal of the amount form: the amount's own check when the customer's amount fails it, else the code's words. */
function amountProblem(view: CustomerCheckoutView, problem: PageProblem | null): string | null {
  if (!problem || problem.action !== "quote") return null;
  const checked = problem.amount === null ? null : checkAmount(problem.amount, view.minAmount, view.maxAmount);
  return checked && "message" in checked ? checked.message : problem.message;
}

function ChooseAmount({ view, problem }: { view: CustomerCheckoutView; problem: PageProblem | null }) {
  return (
    <Card labelledBy="choose-amount">
      <StateHeading id="choose-amount">{TEXT.chooseHeading}</StateHeading>
      {view.currencies.length > 0 ? (
        <AmountForm
          currencies={view.currencies}
          minAmount={view.minAmount}
          maxAmount={view.maxAmount}
          defaultAmount={problem?.amount}
          defaultCurrency={problem?.currency}
          submitLabel={TEXT.showTotal}
          problem={amountProblem(view, problem)}
        />
      ) : (
        <p className="text-slate-700">
          {TEXT.noCurrency[0]}
          <bdi>{view.merchantName}</bdi>
          {TEXT.noCurrency[1]}
        </p>
      )}
    </Card>
  );
}

function Quoted({ view, quote, problem }: { view: CustomerCheckoutView; quote: Quote; problem: PageProblem | null }) {
  const updateProblem = amountProblem(view, problem);
  return (
    <>
      <Card labelledBy="your-total">
        <StateHeading id="your-total">{TEXT.totalHeading}</StateHeading>
        <Total view={view} quote={quote} />
        <FxWarning view={view} quote={quote} />
        <ReceivingAccount quote={quote} />
        <ConfirmTotal
          amount={view.amount!}
          currency={view.currency!}
          label={TEXT.confirm(money(quote.chargeAmount, quote.chargeCurrency))}
          problem={problem && problem.action !== "quote" ? problem.message : null}
        />
      </Card>
      <details className="group rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200" open={updateProblem !== null}>
        <summary className="cursor-pointer rounded py-3 font-medium text-blue-800 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
          {TEXT.change}
        </summary>
        <div className="mt-4">
          <AmountForm
            currencies={view.currencies}
            minAmount={view.minAmount}
            maxAmount={view.maxAmount}
            defaultAmount={updateProblem !== null ? problem!.amount : view.amount}
            defaultCurrency={updateProblem !== null ? problem!.currency : view.currency}
            submitLabel={TEXT.update}
            secondary
            problem={updateProblem}
          />
        </div>
      </details>
    </>
  );
}

function Confirmed({ view, quote }: { view: CustomerCheckoutView; quote: Quote | null }) {
  return (
    <Card labelledBy="confirmed">
      <StateHeading id="confirmed">{TEXT.confirmedHeading}</StateHeading>
      {quote ? <Total view={view} quote={quote} /> : null}
      <div className="rounded-xl border border-slate-300 bg-slate-50 p-4 text-slate-900">
        <p className="font-semibold">{TEXT.nothingCharged}</p>
        <p className="mt-1 text-sm">{TEXT.notConfigured}</p>
      </div>
      <p className="font-medium text-slate-900" data-testid="next-step">
        {TEXT.nextStep[0]}
        <bdi>{view.merchantName}</bdi>
        {TEXT.nextStep[1]}
      </p>
      <ReturnLink href={view.links.done} merchantName={view.merchantName} />
    </Card>
  );
}

function Expired({ view }: { view: CustomerCheckoutView }) {
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

export default async function CheckoutPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Query }) {
  const view = await loadView((await params).token);
  if (!view) notFound();
  // A refusal of the page's form sent without its script (components/checkout/problems.ts).
  const problem = pageProblem(await searchParams);
  const open = view.state === "AWAITING_AMOUNT" || view.state === "QUOTED";
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-5 px-4 py-6 sm:py-10">
      <header className="space-y-1">
        <p className="inline-block rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-950">{TEXT.sandboxBadge}</p>
        {/* Merchant text is isolated wherever it is shown (docs/decisions/0206-merchant-text-without-direction-controls.md). */}
        <h1 className="pt-2 text-2xl font-semibold text-slate-900">
          {`${TEXT.pay} `}
          <bdi>{view.merchantName}</bdi>
        </h1>
        <p className="text-sm text-slate-600">
          {TEXT.orderReference}{" "}
          <bdi className="font-medium text-slate-900 break-all" data-testid="reference">
            {view.reference}
          </bdi>
        </p>
        {open ? <ExpiryWatch expiresAt={view.expiresAt} /> : null}
      </header>
      {problem && !open ? <ErrorAlert>{problem.message}</ErrorAlert> : null}
      {view.state === "AWAITING_AMOUNT" && <ChooseAmount view={view} problem={problem} />}
      {view.state === "QUOTED" && view.quote && <Quoted view={view} quote={view.quote} problem={problem} />}
      {view.state === "AWAITING_VERIFICATION" && <Confirmed view={view} quote={view.quote} />}
      {view.state === "EXPIRED" && <Expired view={view} />}
      {open ? <ReturnLink href={view.links.leave} merchantName={view.merchantName} label={TEXT.leave} /> : null}
      <footer className="mt-auto pt-4 text-center text-xs text-slate-600">{TEXT.footer}</footer>
    </main>
  );
}
