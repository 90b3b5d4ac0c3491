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
import { checkAmount } from "@/components/checkout/amount";
import { customerWords } from "@/components/checkout/words";
import { LanguageSwitch } from "@/components/checkout/LanguageSwitch";
import { getTranslations } from "next-intl/server";
import { formatCalendarDay } from "@/lib/platform/time-format";
import { pageProblem, type PageProblem } from "@/components/checkout/problems";
import { ErrorAlert } from "@/components/checkout/ui";

export const dynamic = "force-dynamic";

/** The page's words and formats in the customer's language (components/checkout/words.ts; messages/*.json `customer`, `checkout`). */
async function checkoutWords() {
  const words = await customerWords();
  return { ...words, c: await getTranslations("checkout") };
}
type Words = Awaited<ReturnType<typeof checkoutWords>>;

/** Merchant text, isolated wherever a message places it (docs/decisions/0206-merchant-text-without-direction-controls.md). */
const merchantTag = (chunks: React.ReactNode) => <bdi>{chunks}</bdi>;

/** The page's view of a token, read once per request (the title and the page share it). */
const loadView = cache(async (token: string) => loadCustomerCheckout(getDb(), token, new Date()));

export async function generateMetadata({ params }: { params: Promise<{ token: string }> }): Promise<Metadata> {
  const view = await loadView((await params).token);
  const { t, c } = await checkoutWords();
  return customerPageMetadata(view ? c(`titles.${view.state}`) : t("linkNotFound"), c("page"), t("site"));
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

function FxWarning({ view, quote, w }: { view: CustomerCheckoutView; quote: Quote; w: Words }) {
  return (
    <div role="note" aria-labelledby="fx-warning-title" className="rounded-xl border border-amber-400 bg-amber-50 p-4 text-sm text-amber-950">
      <p id="fx-warning-title" className="font-semibold">
        {w.c("fxWarningTitle")}
      </p>
      <p className="mt-1">
        {w.c("fxWarning", {
          charged: w.money(quote.chargeAmount, quote.chargeCurrency),
          entered: w.money(view.amount!, view.currency!),
          currency: quote.chargeCurrency,
        })}
      </p>
    </div>
  );
}

function ReceivingAccount({ quote, w }: { quote: Quote; w: Words }) {
  const rows: [string, React.ReactNode][] = [
    [w.c("holder"), quote.bankAccount.holder],
    [w.c("bank"), quote.bankAccount.bankName],
    [
      w.c("iban"),
      <bdi key="iban" dir="ltr" className="font-mono break-all">
        {printedIban(quote.bankAccount.iban)}
      </bdi>,
    ],
  ];
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">{w.c("transferTo")}</h3>
      <dl className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex flex-col gap-0.5 px-3 py-2 sm:flex-row sm:justify-between sm:gap-4">
            <dt className="text-slate-600">{label}</dt>
            <dd className="font-medium text-slate-900 sm:text-end">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The rate shown, how it differs from the reference (base) rate in percent, and its Dubai business day; every figure with Intl.NumberFormat. */
function RateLine({ view, quote, w }: { view: CustomerCheckoutView; quote: Quote; w: Words }) {
  const difference = rateDifference(quote.effectiveRate, quote.baseRate);
  const direction = Number(difference) === 0 ? "equal" : difference.startsWith("-") ? "below" : "above";
  return (
    <p className="mt-2 text-sm text-slate-700" data-testid="rate">
      {w.c.rich(`rate.${direction}`, {
        // The equation reads left to right in both languages.
        eq: (chunks) => <bdi dir="ltr">{chunks}</bdi>,
        from: view.currency!,
        rate: w.figure(displayRate(quote.effectiveRate)),
        to: quote.chargeCurrency,
        difference: w.percent(difference),
        reference: w.figure(displayRate(quote.baseRate)),
        day: formatCalendarDay(quote.rateDay, w.format),
      })}
    </p>
  );
}

/** What the customer pays, first: the charged amount and currency as the headline, then what it is for and at which rate. */
function Total({ view, quote, w }: { view: CustomerCheckoutView; quote: Quote; w: Words }) {
  return (
    <div>
      <p className="text-sm font-medium text-slate-700">{w.c("youPay")}</p>
      <p className="text-3xl font-semibold tabular-nums text-slate-900" data-testid="charged-total">
        {w.money(quote.chargeAmount, quote.chargeCurrency)}
      </p>
      <p className="mt-1 text-slate-700" data-testid="entered-amount">
        {w.c("forAmount", { amount: w.money(view.amount!, view.currency!) })}
      </p>
      <RateLine view={view} quote={quote} w={w} />
    </div>
  );
}

/** The words of a refusal of the amount form: the amount's own check when the customer's amount fails it, else the code's words. */
function amountProblem(view: CustomerCheckoutView, problem: PageProblem | null, w: Words): string | null {
  if (!problem || problem.action !== "quote") return null;
  const checked =
    problem.amount === null
      ? null
      : checkAmount(
          problem.amount,
          { min: view.minAmount, max: view.maxAmount, currency: problem.currency },
          w.amountForm(view.minAmount, view.maxAmount).refusals,
        );
  return checked && "message" in checked ? checked.message : problem.message;
}

function ChooseAmount({ view, problem, w }: { view: CustomerCheckoutView; problem: PageProblem | null; w: Words }) {
  return (
    <Card labelledBy="choose-amount">
      <StateHeading id="choose-amount">{w.c("chooseHeading")}</StateHeading>
      {view.currencies.length > 0 ? (
        <AmountForm
          currencies={view.currencies}
          minAmount={view.minAmount}
          maxAmount={view.maxAmount}
          defaultAmount={problem?.amount}
          defaultCurrency={problem?.currency}
          submitLabel={w.c("showTotal")}
          words={w.amountForm(view.minAmount, view.maxAmount)}
          problem={amountProblem(view, problem, w)}
        />
      ) : (
        <p className="text-slate-700">{w.c.rich("noCurrency", { merchant: merchantTag, merchantName: view.merchantName })}</p>
      )}
    </Card>
  );
}

function Quoted({ view, quote, problem, w }: { view: CustomerCheckoutView; quote: Quote; problem: PageProblem | null; w: Words }) {
  const updateProblem = amountProblem(view, problem, w);
  return (
    <>
      <Card labelledBy="your-total">
        <StateHeading id="your-total">{w.c("totalHeading")}</StateHeading>
        <Total view={view} quote={quote} w={w} />
        <FxWarning view={view} quote={quote} w={w} />
        <ReceivingAccount quote={quote} w={w} />
        <ConfirmTotal
          amount={view.amount!}
          currency={view.currency!}
          label={w.c("confirm", { charged: w.money(quote.chargeAmount, quote.chargeCurrency) })}
          words={{ confirming: w.t("confirming"), action: w.action }}
          problem={problem && problem.action !== "quote" ? problem.message : null}
        />
      </Card>
      <details className="group rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200" open={updateProblem !== null}>
        <summary className="cursor-pointer rounded py-3 font-medium text-blue-800 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
          {w.c("change")}
        </summary>
        <div className="mt-4">
          <AmountForm
            currencies={view.currencies}
            minAmount={view.minAmount}
            maxAmount={view.maxAmount}
            defaultAmount={updateProblem !== null ? problem!.amount : view.amount}
            defaultCurrency={updateProblem !== null ? problem!.currency : view.currency}
            submitLabel={w.c("update")}
            words={w.amountForm(view.minAmount, view.maxAmount)}
            secondary
            problem={updateProblem}
          />
        </div>
      </details>
    </>
  );
}

function Confirmed({ view, quote, w }: { view: CustomerCheckoutView; quote: Quote | null; w: Words }) {
  return (
    <Card labelledBy="confirmed">
      <StateHeading id="confirmed">{w.c("confirmedHeading")}</StateHeading>
      {quote ? <Total view={view} quote={quote} w={w} /> : null}
      <div className="rounded-xl border border-slate-300 bg-slate-50 p-4 text-slate-900">
        <p className="font-semibold">{w.c("nothingCharged")}</p>
        <p className="mt-1 text-sm">{w.c("notConfigured")}</p>
      </div>
      <p className="font-medium text-slate-900" data-testid="next-step">
        {w.c.rich("nextStep", { merchant: merchantTag, merchantName: view.merchantName })}
      </p>
      <ReturnLink href={view.links.done} merchantName={view.merchantName} label={w.t("returnTo")} />
    </Card>
  );
}

function Expired({ view, w }: { view: CustomerCheckoutView; w: Words }) {
  return (
    <Card labelledBy="expired">
      <StateHeading id="expired">{w.c("expiredHeading")}</StateHeading>
      <p className="text-slate-700">{w.c.rich("expired", { merchant: merchantTag, merchantName: view.merchantName })}</p>
      <ReturnLink href={view.links.leave} merchantName={view.merchantName} label={w.t("returnTo")} />
    </Card>
  );
}

export default async function CheckoutPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Query }) {
  const view = await loadView((await params).token);
  if (!view) notFound();
  const w = await checkoutWords();
  // A refusal of the page's form sent without its script (components/checkout/problems.ts).
  const problem = pageProblem(await searchParams, w.problems);
  const open = view.state === "AWAITING_AMOUNT" || view.state === "QUOTED";
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-5 px-4 py-6 sm:py-10">
      <header className="space-y-1">
        <div className="flex items-center justify-between gap-3">
          <p className="inline-block rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-950">{w.t("sandboxBadge")}</p>
          <LanguageSwitch />
        </div>
        {/* Merchant text is isolated wherever it is shown (docs/decisions/0206-merchant-text-without-direction-controls.md). */}
        <h1 className="pt-2 text-2xl font-semibold text-slate-900">{w.t.rich("pay", { merchant: merchantTag, merchantName: view.merchantName })}</h1>
        <p className="text-sm text-slate-600">
          {w.t("orderReference")}{" "}
          <bdi className="font-medium text-slate-900 break-all" data-testid="reference">
            {view.reference}
          </bdi>
        </p>
        {open ? <ExpiryWatch expiresAt={view.expiresAt} words={w.expiry} /> : null}
      </header>
      {problem && !open ? <ErrorAlert>{problem.message}</ErrorAlert> : null}
      {view.state === "AWAITING_AMOUNT" && <ChooseAmount view={view} problem={problem} w={w} />}
      {view.state === "QUOTED" && view.quote && <Quoted view={view} quote={view.quote} problem={problem} w={w} />}
      {view.state === "AWAITING_VERIFICATION" && <Confirmed view={view} quote={view.quote} w={w} />}
      {view.state === "EXPIRED" && <Expired view={view} w={w} />}
      {open ? <ReturnLink href={view.links.leave} merchantName={view.merchantName} label={w.t("leave")} /> : null}
      <footer className="mt-auto pt-4 text-center text-xs text-slate-600">{w.c("footer")}</footer>
    </main>
  );
}
