// Security headers that depend on how the service is reached (docs/operating.md "Environment": PUBLIC_BASE_URL,
// NEXTAUTH_URL). The static ones (nosniff, Referrer-Policy, X-Frame-Options) are set for every path in
// next.config.mjs; the Content-Security-Policy with a per-request nonce is set by proxy.ts.
import { config, type Config } from "@/lib/platform/config";
import { pagePolicy } from "@/lib/application/http/static-headers.mjs";

/** The two settings that tell whether the service is published over https. */
type PublicUrls = Pick<Config, "PUBLIC_BASE_URL" | "NEXTAUTH_URL">;

/** True when the service is published over https (PUBLIC_BASE_URL or NEXTAUTH_URL starts with https://). */
export function servedOverHttps(env: PublicUrls = config()): boolean {
  return [env.PUBLIC_BASE_URL, env.NEXTAUTH_URL].some((url) => url?.startsWith("https://"));
}

/** `Strict-Transport-Security` (one year, subdomains) when served over https; nothing otherwise (plain http on localhost). */
export function transportSecurityHeaders(env: PublicUrls = config()): Record<string, string> {
  return servedOverHttps(env) ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {};
}

/**
 * The Content-Security-Policy of the console and the customer pages: scripts only from this origin and only with
 * this request's `nonce` (Next.js puts it on its own scripts; `'strict-dynamic'` lets them load their chunks),
 * no plugins, no framing, forms and connections to this origin only. Inline style attributes stay allowed
 * (React sets element styles such as the store wheel's).
 * @param nonce a fresh random value per request (base64).
 */
export function contentSecurityPolicy(nonce: string, https = servedOverHttps()): string {
  return pagePolicy(`'self' 'nonce-${nonce}' 'strict-dynamic'`, { https, img: "'self' data: blob:" });
}
