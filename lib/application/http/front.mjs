// What server.mjs, the HTTP front, decides about a request before Next.js sees it (docs/operating.md "The HTTP front";
// docs/decisions/0203-page-posts-are-bounded-before-they-are-decoded.md): headers every answer carries, a target that
// cannot be decoded, the forwarded host of an untrusted peer, and the bounds of page POSTs (Server Actions), which
// Next.js would otherwise decode, up to 1 MB, before any sign-in check. Plain JavaScript: server.mjs imports it.
import ipaddr from "ipaddr.js";
import { STATIC_HEADERS, pagePolicy } from "./static-headers.mjs";

/**
 * The most a console page POST (a Server Action's body) may carry, in bytes. The largest console forms are the catalog
 * and FX-rate CSV imports, at most 20,000 characters each (lib/simulators/test-store/catalog-changes.ts,
 * lib/domain/pricing/fx-rates.ts): 60,000 bytes of UTF-8 at worst, plus the multipart encoding. The seeded catalog's
 * 250 items are 11,119 characters, 11,703 bytes as the form sends them (docs/benchmarks.md "Page POSTs").
 * next.config.mjs gives Next.js the same limit for a body without a Content-Length.
 */
export const CONSOLE_POST_MAX = 64 * 1024;
/** The most any other page POST may carry, in bytes: no page outside the console has a form that posts to it (the customer pages post JSON to their own routes, 1 KiB). */
export const OTHER_PAGE_POST_MAX = 1024;

/** Features no page of the service uses, switched off for every page and anything it embeds. */
export const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=(), interest-cohort=()";

/**
 * The Content-Security-Policy of an HTML page that proxy.ts does not give a nonce policy to: the pages rendered at
 * build time (`/`, `/docs`) and the 404 page. Their inline scripts are the build's own, so scripts are allowed from
 * this origin and inline; nothing else loads from elsewhere, no plugin, no framing, forms post here only.
 */
export const STATIC_PAGE_CSP = pagePolicy("'self' 'unsafe-inline'");

/** How long a shared cache may keep an HTML page rendered at build time (seconds; Next.js would say a year). */
const HTML_CACHE_CONTROL = "public, max-age=0, must-revalidate";

/**
 * Makes every answer written on `res` carry the security headers (docs/guides/operate-sandpiper.md "Security headers"):
 * X-Frame-Options, X-Content-Type-Options, Referrer-Policy and Permissions-Policy always; Strict-Transport-Security
 * (one year, subdomains) when `https` (the service is published over https); on an HTML answer without its own
 * Content-Security-Policy, {@link STATIC_PAGE_CSP}; and an HTML answer that Next.js marks for a year in shared caches
 * (`s-maxage=31536000`, a page rendered at build time) is marked to be revalidated instead. A header the answer sets
 * itself is kept, except that cache mark.
 */
export function secureAnswers(res, https) {
  const writeHead = res.writeHead;
  res.writeHead = function (status, ...rest) {
    // Headers passed to writeHead itself (an object or a raw array) are set first, so that one check sees them all.
    const given = typeof rest[0] === "string" ? rest[1] : rest[0];
    if (Array.isArray(given)) return writeHead.call(this, status, ...rest); // raw header pairs: written as given
    if (given) for (const [name, value] of Object.entries(given)) if (value !== undefined) this.setHeader(name, value);
    const args = typeof rest[0] === "string" ? [rest[0]] : [];
    for (const [name, value] of Object.entries(STATIC_HEADERS)) if (!this.hasHeader(name)) this.setHeader(name, value);
    if (!this.hasHeader("Permissions-Policy")) this.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    if (https && !this.hasHeader("Strict-Transport-Security")) this.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    if (String(this.getHeader("Content-Type") ?? "").startsWith("text/html")) {
      if (!this.hasHeader("Content-Security-Policy")) this.setHeader("Content-Security-Policy", STATIC_PAGE_CSP);
      if (/s-maxage=\d{6,}/.test(String(this.getHeader("Cache-Control") ?? ""))) this.setHeader("Cache-Control", HTML_CACHE_CONTROL);
    }
    return writeHead.call(this, status, ...args);
  };
}

/**
 * True when the request target's path cannot be percent-decoded (`/v1/payments/%`, `/checkout/%ZZ`): Next.js would
 * answer a plain 500 for it.
 */
export function malformedPath(url) {
  const q = (url ?? "/").indexOf("?");
  const pathname = q < 0 ? (url ?? "/") : url.slice(0, q);
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/** TRUSTED_PROXIES (comma-separated exact addresses) as a set of normalised addresses (an IPv4-mapped IPv6 one as its IPv4). */
export function trustedProxies(setting) {
  return new Set(
    String(setting ?? "")
      .split(",")
      .map((s) => normalised(s.trim()))
      .filter((s) => s !== null),
  );
}

function normalised(text) {
  if (!text || !ipaddr.isValid(text)) return null;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === "ipv6" && parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  return parsed.toString();
}

/**
 * Drops `X-Forwarded-Host` (and `X-Forwarded-Proto`) from a request whose peer is not in `trusted`
 * ({@link trustedProxies}): only a trusted proxy says which host the client asked for, as only it says the client's
 * address (docs/architecture.md "Request pipeline"). The form-origin checks (here and in Next.js) then compare the
 * Origin with `Host`. Returns true when a header was dropped.
 */
export function dropUntrustedForwardedHost(req, trusted) {
  if (req.headers["x-forwarded-host"] === undefined && req.headers["x-forwarded-proto"] === undefined) return false;
  if (trusted.has(normalised(req.socket.remoteAddress ?? "") ?? "")) return false;
  delete req.headers["x-forwarded-host"];
  delete req.headers["x-forwarded-proto"];
  return true;
}

/**
 * The customer pages' actions (`/checkout/{token}/quote`, `/confirm`, `/store/{token}/pay`, `/decline`): route handlers
 * whose only credential is the token in their path (docs/decisions/0028-customer-actions-are-route-handlers-outside-v1.md).
 */
const CUSTOMER_ACTIONS = /^\/(?:checkout\/[^/]+\/(?:quote|confirm)|store\/[^/]+\/(?:pay|decline))$/;

/** Paths that are not pages: the API, Next.js' routes, health, metrics, and the customer pages' actions. */
const NOT_PAGES = /^\/(?:(?:v1|api|_next)(?:\/|$)|(?:healthz|readyz|metrics)(?:$|\/))/;

/** The request target's path, without its query. */
function pathOf(req) {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}

/**
 * True for a POST to a customer page's action. It carries no cookie or key, so its `Origin` is not checked: the pages
 * send `Referrer-Policy: no-referrer`, under which a browser's form post says `Origin: null`, and a foreign site that
 * knows the token could post it itself (docs/decisions/0209-customer-forms-post-to-their-action-routes.md).
 */
export function isCustomerAction(req) {
  return req.method === "POST" && CUSTOMER_ACTIONS.test(pathOf(req));
}

/**
 * What a POST to a page is (a Server Action, or a form post Next.js would decode as one): "console" under /console,
 * "other" for any other page, null for a request that is not a page POST.
 */
export function pagePost(req) {
  if (req.method !== "POST") return null;
  const pathname = pathOf(req);
  if (NOT_PAGES.test(pathname) || CUSTOMER_ACTIONS.test(pathname)) return null;
  return pathname === "/console" || pathname.startsWith("/console/") ? "console" : "other";
}

/**
 * The refusal of a page POST's size before anything decodes it, or null: 413 PAYLOAD_TOO_LARGE when its declared
 * length is over {@link CONSOLE_POST_MAX} (console) or {@link OTHER_PAGE_POST_MAX} (any other page), or when a page
 * outside the console gets a body without a declared length (a console one is bounded by Next.js as it reads).
 * @returns `{ status, code, message, headers }` or null
 */
export function pagePostSizeRefusal(req, kind) {
  const max = kind === "console" ? CONSOLE_POST_MAX : OTHER_PAGE_POST_MAX;
  const declared = req.headers["content-length"];
  const unbounded = declared === undefined && req.headers["transfer-encoding"] !== undefined;
  if (declared !== undefined ? Number(declared) <= max : !(unbounded && kind !== "console")) return null;
  const where = kind === "console" ? "a console form" : "a form on this page";
  return {
    status: 413,
    code: "PAYLOAD_TOO_LARGE",
    message: `${where} sends at most ${max / 1024} KiB, with its Content-Length; this body is larger or undeclared`,
    headers: {},
  };
}

/** Cookie names of a console session (next-auth: `__Secure-` when served over https). */
const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

/** The session token of the request's Cookie header, or null. */
export function sessionToken(req) {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (SESSION_COOKIES.includes(part.slice(0, eq).trim())) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/**
 * True when the request carries a console session that next-auth issued and that has not expired: the session cookie
 * decrypts with `secret` (NEXTAUTH_SECRET) through `decode` (next-auth/jwt's). Whether the user may still act (active,
 * session epoch) is checked by the action itself (lib/application/console/action.ts).
 */
export async function hasConsoleSession(req, secret, decode) {
  const token = sessionToken(req);
  if (!token || !secret) return false;
  try {
    const payload = await decode({ token, secret });
    return typeof payload?.sub === "string";
  } catch {
    return false;
  }
}

/**
 * The answer to a console page POST without a session, before its body is decoded: a console form's JavaScript
 * (a `Next-Action` header) gets 401 SESSION_REQUIRED with `x-action-redirect`, which sends the browser to the sign-in
 * page; a form posted without JavaScript is redirected there (303).
 * @returns `{ status, code, message, headers }`
 */
export function sessionRefusal(req) {
  const message = "your console session has ended or was never opened; sign in again at /console/sign-in";
  if (req.headers["next-action"] !== undefined)
    return { status: 401, code: "SESSION_REQUIRED", message, headers: { "x-action-redirect": "/console/sign-in;replace" } };
  return { status: 303, code: "SESSION_REQUIRED", message, headers: { Location: "/console/sign-in" } };
}
