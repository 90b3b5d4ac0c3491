// The page of an unknown or malformed checkout link (HTTP 404), in the customer's language.
import { getTranslations } from "next-intl/server";
import { LanguageSwitch } from "@/components/checkout/LanguageSwitch";

export default async function CheckoutLinkNotFound() {
  const t = await getTranslations("customer");
  const c = await getTranslations("checkout.notFound");
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-5 px-4 py-6 sm:py-10">
      <header className="space-y-1">
        <div className="flex items-center justify-between gap-3">
          <p className="inline-block rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-950">{t("sandboxBadge")}</p>
          <LanguageSwitch />
        </div>
      </header>
      <section aria-labelledby="not-found" className="space-y-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <h1 id="not-found" className="text-2xl font-semibold text-slate-900">
          {c("heading")}
        </h1>
        <p className="text-slate-700">{c("text")}</p>
      </section>
    </main>
  );
}
