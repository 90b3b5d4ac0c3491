import { afterEach, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { TEST_DATABASE_URL } from "../support/env";
import { call, db, depositBody, eventually, newMerchant } from "../support/fixtures";
import { startService, stopService } from "../support/global-setup";
import { startReceiver } from "../support/receiver";
import { spansOf } from "../support/otlp";

// docs/operating.md "Traces": with OTEL_EXPORTER_OTLP_ENDPOINT set, a real start sends OpenTelemetry spans over
// OTLP/HTTP (JSON): one per /v1 request with its route, merchant id, request id and status, the database queries as
// its child spans, and each callback delivery attempt. The collector here is a plain HTTP receiver.

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

describe("OpenTelemetry traces over OTLP/HTTP", () => {
  // `npm start` loads pg to migrate before Next.js starts tracing; server.mjs alone (a cluster worker) does not.
  it.each([
    ["server.mjs", false],
    ["npm start", true],
  ])(
    "%s: a request's span (route, merchant, request id, status) with its database queries below it, and a callback attempt's span",
    async (_, npmStart) => {
      const collector = await startReceiver();
      cleanup.push(() => collector.close());
      const receiver = await startReceiver();
      cleanup.push(() => receiver.close());
      const svc = await startService(
        {
          DATABASE_URL: TEST_DATABASE_URL,
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin,
          TRUSTED_PROXIES: "127.0.0.1,::1",
          CALLBACK_ALLOW_LOOPBACK: "1",
          // The suite's shared service polls the same database every 200 ms and may claim the callback first (its
          // attempt span is not sent here): this one polls more often than that, besides its own wake-up.
          DELIVERY_POLL_INTERVAL_MS: "50",
        },
        { npmStart },
      );
      cleanup.push(() => stopService(svc.child));
      const m = await newMerchant();
      await setCallbackUrl(db, { merchantId: m.merchant.id, url: receiver.url });

      const created = await call("/v1/payments", { base: svc.url, key: m.key, ip: m.ip, body: depositBody(), idempotencyKey: randomUUID() });
      expect(created.status).toBe(201);
      const requestId = created.headers.get("x-request-id");
      const completed = await call(`/v1/sandbox/payments/${created.body.id}/complete`, {
        base: svc.url,
        key: m.key,
        ip: m.ip,
        body: { outcome: "SUCCEEDED" },
        idempotencyKey: randomUUID(),
      });
      expect(completed.status).toBe(200);
      await receiver.waitFor(1);

      const spans = await eventually(async () => {
        const all = spansOf(collector.received.filter((r) => r.path === "/v1/traces"));
        const request = all.find((s) => s.attributes["sandpiper.request_id"] === requestId);
        const attemptSpan = all.find((s) => s.name === "callback attempt" && s.attributes["sandpiper.merchant_id"] === m.merchant.id);
        return request && attemptSpan && all.some((s) => s.parentSpanId === request.spanId) ? { all, request, attemptSpan } : null;
        // Spans leave in batches every second; under the whole suite's load the delivery job and the export can lag.
      }, 45_000);
      expect(spans.request).toMatchObject({
        name: "POST createPayment",
        attributes: {
          "sandpiper.operation": "createPayment",
          "sandpiper.merchant_id": m.merchant.id,
          "http.request.method": "POST",
          "url.path": "/v1/payments",
          "http.response.status_code": 201,
        },
      });
      const queries = spans.all.filter((s) => s.parentSpanId === spans.request.spanId);
      expect(queries.length).toBeGreaterThan(0);
      expect(queries.every((q) => q.traceId === spans.request.traceId && q.attributes["db.system.name"] === "postgresql")).toBe(true);
      expect(queries.filter((q) => q.name.startsWith("pg.query")).length, "a span per query, with its statement").toBeGreaterThan(0);
      expect(spans.attemptSpan.attributes).toMatchObject({ "sandpiper.delivery_state": "SUCCEEDED", "http.response.status_code": 200, "sandpiper.attempt": 1 });
    },
    90_000,
  );
});
