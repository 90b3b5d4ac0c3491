import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "../support/env";
import { baseUrl, newMerchant } from "../support/fixtures";
import { getWithSession, sessionOf } from "../support/console-http";
import { startService, stopService } from "../support/global-setup";
import { waitUntil } from "../../scripts/harness/wait";

// Security headers of every route family (docs/guides/operate-sandpiper.md "Security headers"): nosniff, Referrer-Policy and
// Permissions-Policy everywhere; a Content-Security-Policy with a fresh script nonce (no 'unsafe-inline' scripts) on the
// console and the customer pages, whose scripts carry that nonce, and a CSP on every other HTML page; no year-long
// shared cache on HTML; no-store on payment lists; HSTS on every answer only when the service is published over https.

const cspOf = (res: Response) => res.headers.get("content-security-policy") ?? "";
const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];

describe("security headers", () => {
  it("every route family answers nosniff and Referrer-Policy; console and customer pages carry a nonce CSP; lists are no-store", async () => {
    const m = await newMerchant();
    const cookie = await sessionOf(m.owner, "owner-password-1");
    const auth = { authorization: `Bearer ${m.key}` };
    const families: [string, Promise<Response>][] = [
      ["/v1 success", fetch(`${baseUrl()}/v1/payments?limit=1`, { headers: auth })],
      ["/v1 error", fetch(`${baseUrl()}/v1/payments/not-a-payment`, { headers: auth })],
      ["/v1 unknown path", fetch(`${baseUrl()}/v1/nothing-here`)],
      ["/v1/openapi.json", fetch(`${baseUrl()}/v1/openapi.json`)],
      ["/docs", fetch(`${baseUrl()}/docs`)],
      ["/", fetch(`${baseUrl()}/`)],
      ["console page", getWithSession("/console/payments", cookie)],
      ["console sign-in", fetch(`${baseUrl()}/console/sign-in`)],
      ["/api/console", getWithSession("/api/console/payments", cookie)],
      ["checkout page", fetch(`${baseUrl()}/checkout/${randomBytes(24).toString("base64url")}`)],
      ["store page", fetch(`${baseUrl()}/store/${randomBytes(24).toString("base64url")}`)],
      ["404 page", fetch(`${baseUrl()}/no-such-page`)],
      ["/healthz", fetch(`${baseUrl()}/healthz`)],
      ["refused method", fetch(`${baseUrl()}/v1/payments`, { method: "PROPFIND" })],
    ];
    for (const [family, pending] of families) {
      const res = await pending;
      expect(res.headers.get("x-content-type-options"), family).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), family).toBe("no-referrer");
      expect(res.headers.get("permissions-policy"), family).toMatch(/camera=\(\)/);
      expect(res.headers.get("strict-transport-security"), `${family}: plain http on localhost`).toBeNull();
      const html = (res.headers.get("content-type") ?? "").startsWith("text/html") ? await res.text() : "";
      if ((res.headers.get("content-type") ?? "").startsWith("text/html")) {
        expect(cspOf(res), `${family}: every HTML page has a CSP`).toContain("frame-ancestors 'none'");
        expect(res.headers.get("cache-control") ?? "", `${family}: no year-long shared cache on HTML`).not.toMatch(/s-maxage=31536000/);
      }
      if (/console|checkout|store/.test(family)) {
        const csp = cspOf(res);
        expect(csp, family).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
        expect(
          csp.split(";").find((d) => d.trim().startsWith("script-src")),
          family,
        ).not.toContain("unsafe-inline");
        expect(csp, family).toContain("frame-ancestors 'none'");
        if (html) {
          const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((s) => s[0]);
          expect(scripts.length, family).toBeGreaterThan(0);
          for (const tag of scripts) expect(tag, family).toContain(`nonce="${nonceOf(csp)}"`);
        }
      }
    }
    const first = nonceOf(cspOf(await fetch(`${baseUrl()}/console/sign-in`)));
    const second = nonceOf(cspOf(await fetch(`${baseUrl()}/console/sign-in`)));
    expect(first).not.toBe(second);
    expect((await fetch(`${baseUrl()}/v1/payments?limit=1`, { headers: auth })).headers.get("cache-control")).toBe("no-store");
  });

  it("Strict-Transport-Security when the service is published over https; a warning when X-Forwarded-For comes from an untrusted proxy", async () => {
    const service = await startService(
      { DATABASE_URL: TEST_DATABASE_URL, PUBLIC_BASE_URL: "https://sandbox.example.com", JOBS_DISABLED: "1", TRUSTED_PROXIES: "" },
      { capture: true },
    );
    try {
      // A direct request (no X-Forwarded-For from the client) is no proxy, though Next.js fills that header itself.
      await fetch(`${service.url}/v1/payments`);
      // waits on purpose: a warning is written while the request is answered, which it was before this wait
      await new Promise((r) => setTimeout(r, 300));
      expect(
        service.output.filter((l) => l.includes("not in TRUSTED_PROXIES")),
        "no warning without a proxy",
      ).toEqual([]);
      // No TRUSTED_PROXIES: a request carrying X-Forwarded-For comes from a proxy the service does not trust.
      for (let i = 0; i < 2; i++) await fetch(`${service.url}/v1/payments`, { headers: { "x-forwarded-for": "198.51.100.7" } });
      // Each warning is written before its request is answered: both are, so a second one would be in the output too.
      const warnings = await waitUntil(
        () => {
          const found = service.output.filter((l) => l.includes("not in TRUSTED_PROXIES"));
          return found.length > 0 && found;
        },
        { what: "the untrusted proxy warning" },
      );
      expect(warnings, "logged once per proxy address").toHaveLength(1);
      expect(warnings[0]).toContain('"peer":"127.0.0.1"');
      const asset = /\/_next\/static\/[^"]+\.js/.exec(await (await fetch(`${service.url}/`)).text())?.[0];
      expect(asset).toBeDefined();
      for (const path of ["/v1/nothing-here", "/console/sign-in", "/", "/docs", "/no-such-page", "/healthz", asset!]) {
        const res = await fetch(`${service.url}${path}`);
        expect(res.headers.get("strict-transport-security"), path).toBe("max-age=31536000; includeSubDomains");
      }
      expect(cspOf(await fetch(`${service.url}/console/sign-in`))).toContain("upgrade-insecure-requests");
    } finally {
      await stopService(service.child);
    }
  }, 90_000);
});
