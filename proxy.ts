// Per-request security headers of the console and the customer pages (docs/guides/console-for-operators.md "Console tour", "Security
// headers"): a Content-Security-Policy with a fresh script nonce (Next.js applies it to its own scripts), and
// Strict-Transport-Security when the service is published over https. Static headers are in next.config.mjs.
// The customer pages' language (docs/guides/amount-entry-checkout.md "Languages"): chosen here and passed to the page
// in a request header; the language switch's link (`?lang=ar`) keeps the choice in a cookie and sends the page back
// without the query (303).
import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, servedOverHttps, transportSecurityHeaders } from "@/lib/application/http/security-headers";
import { isLocale, LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_S, LOCALE_HEADER, LOCALE_QUERY, negotiateLocale } from "@/lib/platform/locale";

/** The customer pages (bearer links) and their not-found pages: the paths that speak Arabic and English. */
const CUSTOMER_PAGE = /^\/(?:checkout|store)\//;

/**
 * The answer to a customer page's language switch (`GET /checkout/{token}?lang=ar`): 303 to the page's own address
 * on this origin, without the query, with the choice kept a year in {@link LOCALE_COOKIE}.
 */
function keepLanguage(request: NextRequest, locale: string): NextResponse {
  const page = request.nextUrl.clone();
  page.search = "";
  const response = NextResponse.redirect(page, 303);
  response.headers.set("Cache-Control", "no-store");
  response.cookies.set(LOCALE_COOKIE, locale, {
    path: "/",
    maxAge: LOCALE_COOKIE_MAX_AGE_S,
    sameSite: "lax",
    httpOnly: true,
    secure: servedOverHttps(),
  });
  for (const [name, value] of Object.entries(transportSecurityHeaders())) response.headers.set(name, value);
  return response;
}

export function proxy(request: NextRequest) {
  const customerPage = CUSTOMER_PAGE.test(request.nextUrl.pathname);
  const chosen = request.nextUrl.searchParams.get(LOCALE_QUERY);
  if (customerPage && request.method === "GET" && isLocale(chosen)) return keepLanguage(request, chosen);
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const policy = contentSecurityPolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  requestHeaders.delete(LOCALE_HEADER);
  if (customerPage) {
    const locale = negotiateLocale({ cookie: request.cookies.get(LOCALE_COOKIE)?.value, acceptLanguage: request.headers.get("accept-language") });
    requestHeaders.set(LOCALE_HEADER, locale);
  }
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  for (const [name, value] of Object.entries(transportSecurityHeaders())) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: ["/console/:path*", "/console", "/api/console/:path*", "/checkout/:path*", "/store/:path*"],
};
