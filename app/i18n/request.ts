// next-intl's request configuration (next.config.mjs names this file): the customer pages' language and messages
// (messages/en.json, messages/ar.json), without locale prefixes in the path. proxy.ts chooses the language
// (lib/platform/locale.ts negotiateLocale: the kept choice, else Accept-Language, else English) and passes it in a
// request header; pages outside /checkout and /store have none and would get English (the console does not use
// next-intl). docs/decisions/0210-customer-pages-in-arabic-and-english.md.
import { getRequestConfig } from "next-intl/server";
import { headers } from "next/headers";
import { localeOfRequest } from "@/lib/platform/locale";

export default getRequestConfig(async () => {
  const locale = localeOfRequest(await headers());
  const messages = (await import(`../../messages/${locale}.json`)) as { default: Record<string, unknown> };
  return { locale, messages: messages.default };
});
