// The customer pages' language switch (docs/guides/amount-entry-checkout.md "Languages"): a plain link to the page
// itself with `?lang=<other>`, so it works without JavaScript; proxy.ts keeps the choice a year in the
// `sandpiper-locale` cookie and answers 303 to the page without the query. The link is relative: the bearer path stays
// on this origin, and the pages send no Referer.
import { getTranslations } from "next-intl/server";
import { LOCALE_QUERY } from "@/lib/platform/locale";

/** Classes of the switch: a 44 px target, visible focus, AA contrast. */
const SWITCH_LINK =
  "inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-semibold text-blue-800 underline underline-offset-2 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700";

/** The link to the page in the other language, named in that language ("العربية" on an English page, "English" on an Arabic one). */
export async function LanguageSwitch() {
  const t = await getTranslations("customer.language");
  const other = t("otherTag");
  return (
    <nav aria-label={t("label")} className="flex justify-end">
      <a href={`?${LOCALE_QUERY}=${other}`} lang={other} hrefLang={other} className={SWITCH_LINK} data-testid="language-switch">
        {t("other")}
      </a>
    </nav>
  );
}
