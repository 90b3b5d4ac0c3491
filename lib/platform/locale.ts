// The languages of the customer pages and how a request's language is chosen (docs/guides/store-checkout.md and
// docs/guides/amount-entry-checkout.md "Languages"; docs/decisions/0210-customer-pages-in-arabic-and-english.md): the
// customer's kept choice (a cookie set by the pages' language switch), else the best match of the browser's
// `Accept-Language`, else English. The console is English only. Pure; knows nothing of payments.
import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";

/** The customer pages' languages, the default first. */
export const LOCALES = ["en", "ar"] as const;
/** One of {@link LOCALES}: the language of a customer page's words. */
export type Locale = (typeof LOCALES)[number];
/** The language when neither the cookie nor `Accept-Language` names one of ours. */
export const DEFAULT_LOCALE: Locale = "en";

/** The cookie that keeps the customer's choice: `sandpiper-locale=ar`, SameSite=Lax, path /, a year. */
export const LOCALE_COOKIE = "sandpiper-locale";
/** How long the choice is kept, in seconds (a year). */
export const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;
/** The query parameter of the language switch's link (`?lang=ar`): proxy.ts keeps the choice and sends the page back without it. */
export const LOCALE_QUERY = "lang";
/**
 * The request header by which proxy.ts tells the customer pages their language (set only for /checkout and /store;
 * a client's own header of that name is dropped there). Any other page reads none and is English.
 */
export const LOCALE_HEADER = "x-sandpiper-locale";

/** True when `value` is one of {@link LOCALES}. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** The languages an `Accept-Language` value asks for, best first, as valid BCP 47 tags ("*" and malformed tags dropped). */
function requestedLanguages(acceptLanguage: string): string[] {
  return new Negotiator({ headers: { "accept-language": acceptLanguage } }).languages().filter((tag) => {
    if (tag === "*") return false;
    try {
      return Intl.getCanonicalLocales(tag).length === 1;
    } catch {
      return false;
    }
  });
}

/**
 * The language of a customer page's request: the cookie's when it names one of {@link LOCALES} (the customer's
 * choice wins), else the best match of `Accept-Language` ("ar-AE,en;q=0.5" -> "ar", "fr" -> "en", "en-GB" -> "en"),
 * else {@link DEFAULT_LOCALE}. Never throws: a malformed header counts as none.
 * @param request.cookie the {@link LOCALE_COOKIE} cookie's value, if any
 * @param request.acceptLanguage the `Accept-Language` header, if any
 */
export function negotiateLocale(request: { cookie?: string | null; acceptLanguage?: string | null }): Locale {
  if (isLocale(request.cookie)) return request.cookie;
  const requested = requestedLanguages(request.acceptLanguage ?? "");
  if (requested.length === 0) return DEFAULT_LOCALE;
  const matched = match(requested, LOCALES, DEFAULT_LOCALE, { algorithm: "best fit" });
  return isLocale(matched) ? matched : DEFAULT_LOCALE;
}

/** The page's language as the `<html>` element's `lang` and `dir` give it: Arabic right to left, English left to right. */
export function htmlLanguage(locale: Locale): { lang: Locale; dir: "rtl" | "ltr" } {
  return { lang: locale, dir: locale === "ar" ? "rtl" : "ltr" };
}

/**
 * The BCP 47 tag amounts, rates and times are formatted with (Intl.NumberFormat, Intl.DateTimeFormat): "en-GB" for
 * English (day before month, as the pages always wrote it), "ar-AE" for Arabic, whose numbering system is Latin
 * digits in the Unicode CLDR data the runtime uses (docs/decisions/0210-customer-pages-in-arabic-and-english.md).
 */
export function formattingLocale(locale: Locale): "en-GB" | "ar-AE" {
  return locale === "ar" ? "ar-AE" : "en-GB";
}

/**
 * The language a page's request headers name ({@link LOCALE_HEADER}, set by proxy.ts for the customer pages only):
 * English for any other page, and for a value that is not one of {@link LOCALES}.
 */
export function localeOfRequest(headers: { get(name: string): string | null }): Locale {
  const named = headers.get(LOCALE_HEADER);
  return isLocale(named) ? named : DEFAULT_LOCALE;
}
