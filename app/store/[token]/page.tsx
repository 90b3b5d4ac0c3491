// GET /store/{token} - the store checkout page at checkout.url (bearer link): basket, discount wheel,
// AED total, original amount, and the store's sandbox test confirmation.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/lib/platform/db";
import { loadStoreCheckout, type StoreCheckoutView } from "@/lib/simulators/store/store-view";
import { getTranslations } from "next-intl/server";
import { customerWords } from "@/components/checkout/words";
import { LanguageSwitch } from "@/components/checkout/LanguageSwitch";
import { pageProblem } from "@/components/checkout/problems";
import { ErrorAlert } from "@/components/checkout/ui";
import { ExpiryWatch } from "@/components/checkout/ExpiryWatch";
import { customerPageMetadata } from "@/components/checkout/page-title";
import { ReturnLink } from "@/components/checkout/ReturnLink";
import { StateHeading } from "@/components/checkout/StateHeading";
import { DiscountWheel } from "@/components/store/DiscountWheel";
import { StoreConfirmation } from "@/components/store/StoreConfirmation";

export const dynamic = "force-dynamic";

/** The page's words and formats in the customer's language (components/checkout/words.ts; messages/*.json `customer`, `store`). */
async function storeWords() {
  const words = await customerWords();
  return { ...words, s: await getTranslations("store") };
}
type Words = Awaited<ReturnType<typeof storeWords>>;

/** The page's view of a token, read once per request (the title and the page share it). */
const loadView = cache(async (token: string) => loadStoreCheckout(getDb(), token, new Date()));

export async function generateMetadata({ params }: { params: Promise<{ token: string }> }): Promise<Metadata> {
  const view = await loadView((await params).token);
  const { t, s } = await storeWords();
  return customerPageMetadata(view ? s(`titles.${view.state}`) : t("linkNotFound"), s("page"), t("site"));
}
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
      <dd className="text-end tabular-nums">
        <span data-testid={testId}>{value}</span>
        {note}
      </dd>
    </div>
  );
}

/** The order's own amount and currency beside the charged total, when the order is in another currency. */
function OrderAmountNote({ view, w }: { view: StoreCheckoutView; w: Words }) {
  if (view.originalCurrency === view.chargeCurrency) return null;
  return (
    <span className="block text-sm font-normal text-slate-700" data-testid="order-amount">
      {w.s("yourOrder", { amount: w.money(view.originalAmount, view.originalCurrency) })}
    </span>
  );
}

function Basket({ view, w }: { view: StoreCheckoutView; w: Words }) {
  const aed = (amount: string) => w.money(amount, "AED");
  return (
    <ul className="divide-y divide-slate-200" aria-label={w.s("products")}>
      {view.lines.map((line) => (
        <li key={line.sku} className="flex items-start justify-between gap-4 py-3" data-testid="basket-line">
          <div className="min-w-0">
            <p className="font-medium text-slate-900">{line.name}</p>
            <p className="text-sm text-slate-600">
              {line.kind === "PACKAGE" ? w.s("packagePrefix") : ""}
              {line.quantity} × {aed(line.unitPrice)}
            </p>
          </div>
          <p className="shrink-0 font-medium tabular-nums text-slate-900">{aed(line.lineTotal)}</p>
        </li>
      ))}
    </ul>
  );
}

/** Merchant text, isolated wherever a message places it (docs/decisions/0206-merchant-text-without-direction-controls.md). */
const merchantTag = (chunks: React.ReactNode) => <bdi>{chunks}</bdi>;

/** The merchant's original order amount and currency (docs/api.md "Overview" 6: kept, also when it is not AED). */
function OriginalAmount({ view, w }: { view: StoreCheckoutView; w: Words }) {
  const foreign = view.originalCurrency !== view.chargeCurrency;
  const variant = !foreign ? "other" : view.state === "READY" ? "ready" : view.state === "SUCCEEDED" ? "paid" : "other";
  return (
    <p className="text-sm text-slate-700" data-testid="original-amount">
      {w.s.rich(`original.${variant}`, {
        merchant: merchantTag,
        amount: (chunks) => <strong className="whitespace-nowrap tabular-nums text-slate-900">{chunks}</strong>,
        merchantName: view.merchantName,
        originalAmount: w.money(view.originalAmount, view.originalCurrency),
        charge: view.chargeCurrency,
      })}
    </p>
  );
}

function Ready({ view, problem, w }: { view: StoreCheckoutView; problem: string | null; w: Words }) {
  const aed = (amount: string) => w.money(amount, "AED");
  const discounted = view.discount !== "0.00";
  return (
    <>
      <Card labelledBy="your-basket">
        <StateHeading id="your-basket">{w.s("basket")}</StateHeading>
        <Basket view={view} w={w} />
        <dl className="space-y-2 border-t border-slate-200 pt-3">
          <Row label={w.s("subtotal")} value={aed(view.subtotal)} testId="subtotal" />
        </dl>
        {discounted ? (
          <DiscountWheel
            discount={view.discount}
            labels={{
              amount: aed(view.discount),
              spinning: w.s("wheel.spinning"),
              caption: w.s("wheel.caption"),
              discount: w.s("orderDiscount"),
              showing: w.s("wheel.showing", { amount: "{amount}" }),
              turning: w.s("wheel.turning"),
              announce: w.s("wheel.announce", { amount: "{amount}" }),
              locale: w.format,
            }}
          />
        ) : (
          <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">{w.s("noDiscount")}</p>
        )}
        <dl className="border-t border-slate-200 pt-3">
          <Row label={w.s("totalToPay")} value={aed(view.total)} strong testId="total" note={<OrderAmountNote view={view} w={w} />} />
        </dl>
        <OriginalAmount view={view} w={w} />
      </Card>
      <StoreConfirmation
        payLabel={w.s("payAmount", { amount: aed(view.total) })}
        problem={problem}
        words={{
          heading: w.s("confirmation.heading"),
          intro: w.s("confirmation.intro"),
          paying: w.s("confirmation.paying"),
          decline: w.s("confirmation.decline"),
          declining: w.s("confirmation.declining"),
          action: w.action,
        }}
      />
      <ReturnLink href={view.links.leave} merchantName={view.merchantName} label={w.t("leave")} />
    </>
  );
}

function Outcome({ view, w }: { view: StoreCheckoutView; w: Words }) {
  const aed = (amount: string) => w.money(amount, "AED");
  const paid = view.state === "SUCCEEDED";
  return (
    <Card labelledBy="outcome">
      <StateHeading id="outcome">{paid ? w.s("paidHeading") : w.s("declinedHeading")}</StateHeading>
      <p
        className={`rounded-xl border p-4 ${paid ? "border-emerald-300 bg-emerald-50 text-emerald-950" : "border-slate-300 bg-slate-50 text-slate-900"}`}
        data-testid="outcome"
      >
        {w.s.rich(paid ? (view.merchantNotified ? "paidNotified" : "paidNotNotified") : "declined", {
          merchant: merchantTag,
          amount: (chunks) => <span className="whitespace-nowrap font-semibold">{chunks}</span>,
          merchantName: view.merchantName,
          total: aed(view.total),
        })}
      </p>
      <Basket view={view} w={w} />
      <dl className="space-y-2 border-t border-slate-200 pt-3">
        <Row label={w.s("subtotal")} value={aed(view.subtotal)} />
        <Row label={w.s("orderDiscount")} value={w.s("minus", { amount: aed(view.discount) })} />
        <Row label={paid ? w.s("totalPaid") : w.s("total")} value={aed(view.total)} strong note={<OrderAmountNote view={view} w={w} />} />
      </dl>
      <OriginalAmount view={view} w={w} />
      <ReturnLink href={paid ? view.links.done : view.links.leave} merchantName={view.merchantName} label={w.t("returnTo")} />
    </Card>
  );
}

function Expired({ view, w }: { view: StoreCheckoutView; w: Words }) {
  return (
    <Card labelledBy="expired">
      <StateHeading id="expired">{w.s("expiredHeading")}</StateHeading>
      <p className="text-slate-700">{w.s.rich("expired", { merchant: merchantTag, merchantName: view.merchantName })}</p>
      <ReturnLink href={view.links.leave} merchantName={view.merchantName} label={w.t("returnTo")} />
    </Card>
  );
}

export default async function StoreCheckoutPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Query }) {
  const view = await loadView((await params).token);
  if (!view) notFound();
  const w = await storeWords();
  // A refusal of the page's form sent without its script (components/checkout/problems.ts).
  const problem = pageProblem(await searchParams, w.problems);
  const ready = view.state === "READY";
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-5 px-4 py-6 sm:py-10">
      <header className="space-y-1">
        <div className="flex items-center justify-between gap-3">
          <p className="inline-block rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-950">{w.t("sandboxBadge")}</p>
          <LanguageSwitch />
        </div>
        {/* Merchant text is isolated wherever it is shown (docs/decisions/0206-merchant-text-without-direction-controls.md). */}
        <h1 className="pt-2 text-2xl font-semibold text-slate-900">{w.t.rich("pay", { merchant: merchantTag, merchantName: view.merchantName })}</h1>
        <p className="text-sm text-slate-600">{w.s("soldThrough", { store: view.store, legalName: view.legalName })}</p>
        <p className="text-sm text-slate-600">
          {w.t("orderReference")}{" "}
          <bdi className="break-all font-medium text-slate-900" data-testid="reference">
            {view.reference}
          </bdi>
        </p>
        {ready ? <ExpiryWatch expiresAt={view.expiresAt} words={w.expiry} /> : null}
      </header>
      {problem && !ready ? <ErrorAlert>{problem.message}</ErrorAlert> : null}
      {ready && <Ready view={view} problem={problem?.message ?? null} w={w} />}
      {(view.state === "SUCCEEDED" || view.state === "FAILED") && <Outcome view={view} w={w} />}
      {view.state === "EXPIRED" && <Expired view={view} w={w} />}
      <footer className="mt-auto pt-4 text-center text-xs text-slate-600">{w.s("footer", { store: view.store, legalName: view.legalName })}</footer>
    </main>
  );
}
