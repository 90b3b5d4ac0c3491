import createNextIntlPlugin from "next-intl/plugin";
import { STATIC_HEADERS } from "./lib/application/http/static-headers.mjs";

// The customer pages' words in Arabic and English: next-intl, configured per request by app/i18n/request.ts
// (docs/decisions/0210-customer-pages-in-arabic-and-english.md).
const withNextIntl = createNextIntlPlugin("./app/i18n/request.ts");

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Loaded by Node.js as they are: the OpenTelemetry packages patch `pg` as Node.js loads it, and register globals;
  // they and the Inngest SDK are loaded only when configured (test/integration/lazy-modules.test.ts reads Node.js's
  // module cache for them).
  serverExternalPackages: [
    "inngest",
    "pino",
    // Loaded at run time where installed (the service); the sandbox package leaves it out and hashes in WebAssembly
    // (lib/domain/users/password-hash.ts).
    "@node-rs/argon2",
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pg",
    "prom-client",
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
    "@opentelemetry/context-async-hooks",
    "@opentelemetry/instrumentation",
    "@opentelemetry/instrumentation-pg",
  ],
  typescript: { ignoreBuildErrors: true }, // type-checked by `npm run typecheck` in the test run
  // A console form's body without a Content-Length is bounded as Next.js reads it; server.mjs refuses a declared one
  // past the same size before Next.js sees it (lib/application/http/front.mjs CONSOLE_POST_MAX, docs/operating.md "The HTTP front").
  experimental: { serverActions: { bodySizeLimit: "64kb" } },
  async headers() {
    // Every path (lib/application/http/static-headers.mjs). The Content-Security-Policy with a per-request nonce comes from proxy.ts.
    const everywhere = Object.entries(STATIC_HEADERS).map(([key, value]) => ({ key, value }));
    const bearerPage = [{ key: "Cache-Control", value: "no-store" }];
    return [
      { source: "/:path*", headers: everywhere },
      { source: "/store/:token*", headers: bearerPage },
      { source: "/checkout/:token*", headers: bearerPage },
    ];
  },
};

export default withNextIntl(nextConfig);
