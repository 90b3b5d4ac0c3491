// The customer pages' words and formats in the page's language, for their server components (docs/guides/
// amount-entry-checkout.md "Languages"; docs/decisions/0210-customer-pages-in-arabic-and-english.md): next-intl's
// messages (messages/*.json, chosen per request by app/i18n/request.ts), resolved here, on the server,
// and handed to the pages' client components as plain text, so no message catalogue is sent to the browser.
import { getLocale, getTranslations } from "next-intl/server";
import { groupedAmount, money, percent, type AmountWords } from "@/components/checkout/amount";
import type { AmountFormWords } from "@/components/checkout/AmountForm";
import type { ActionWords } from "@/components/checkout/post-action";
import type { ProblemWords } from "@/components/checkout/problems";
import { formattingLocale, isLocale, DEFAULT_LOCALE, type Locale } from "@/lib/platform/locale";

/**
 * The words and formats shared by both customer pages: `t` (messages under `customer`), the page's language and its
 * formatting language (BCP 47), the refusals' words, and amounts, figures and percentages formatted in it.
 */
export async function customerWords() {
  const named = await getLocale();
  const locale: Locale = isLocale(named) ? named : DEFAULT_LOCALE;
  const format = formattingLocale(locale);
  const t = await getTranslations("customer");
  const problems = t.raw("problems") as ProblemWords;
  const action: ActionWords = { problems, serviceMessages: locale === "en" };
  return {
    t,
    locale,
    format,
    problems,
    action,
    /** "AED 10.15" in the page's language (Intl.NumberFormat, the currency's code). */
    money: (amount: string, currency: string) => money(amount, currency, format),
    /** A decimal figure with its decimals as written ("3.6725"), grouped in the page's language. */
    figure: (text: string) => groupedAmount(text, format),
    /** A fraction as a percentage ("0.0201" -> "2.01%"). */
    percent: (fraction: string) => percent(fraction, format),
    /** The sentence around the link's expiry time, for components/checkout/ExpiryWatch.tsx. */
    expiry: { before: t("expiry.before"), after: t("expiry.after"), locale: format },
    /** The amount form's words with the checkout's bounds in them, for components/checkout/AmountForm.tsx. */
    amountForm(min: string, max: string): AmountFormWords {
      const bounds = { min: groupedAmount(min, format), max: groupedAmount(max, format) };
      const refusals: AmountWords = {
        empty: t("amount.refusals.empty"),
        digits: t("amount.refusals.digits"),
        ambiguous: t("amount.refusals.ambiguous"),
        currency: t("amount.refusals.currency"),
        range: t("amount.refusals.range", bounds),
      };
      return {
        label: t("amount.label"),
        currency: t("amount.currency"),
        hint: t("amount.hint", bounds),
        calculating: t("amount.calculating"),
        understood: t("amount.understood", { amount: "{amount}" }),
        refusals,
        action,
        locale: format,
      };
    },
  };
}
