// The static security headers of every path (docs/guides/operate-sandpiper.md "Security headers"): no framing, no
// content sniffing, no Referer leaving the site (bearer links in paths must never travel in a Referer). Plain
// JavaScript: next.config.mjs applies them to what Next.js answers, lib/application/http/direct-routes.mjs to the hot routes it
// answers itself.
export const STATIC_HEADERS = Object.freeze({
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
});
