// The static security headers of every path (docs/guides/operate-sandpiper.md "Security headers"): no framing, no
// content sniffing, no Referer leaving the site (bearer links in paths must never travel in a Referer). Plain
// JavaScript: next.config.mjs applies them to what Next.js answers, lib/application/http/direct-routes.mjs to the hot routes it
// answers itself.
export const STATIC_HEADERS = Object.freeze({
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
});

/**
 * A page's Content-Security-Policy: the directives every page shares (nothing from elsewhere, no plugin, no framing,
 * forms and connections to this origin, inline style attributes allowed) with `scripts` as its script sources; `img`
 * its image sources; `upgrade-insecure-requests` when `https` (the service is published over https). The console and
 * the customer pages give a per-request nonce (lib/application/http/security-headers.ts); the other HTML pages the
 * build's own inline scripts (lib/application/http/front.mjs).
 * @param {string} scripts the script-src sources, e.g. `'self' 'nonce-abc' 'strict-dynamic'`
 * @param {{ https?: boolean, img?: string }} [options]
 * @returns {string} the header's value
 */
export function pagePolicy(scripts, { https = false, img = "'self' data:" } = {}) {
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${img}`,
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}
