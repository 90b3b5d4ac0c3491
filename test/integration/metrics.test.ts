import { afterEach, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { TEST_DATABASE_URL } from "../support/env";
import { call, depositBody, newMerchant } from "../support/fixtures";
import { startService, stopService } from "../support/global-setup";
import { waitUntil } from "../../scripts/harness/wait";

// docs/operating.md "Metrics": with METRICS_TOKEN set, GET /metrics answers the Prometheus text of every worker in one
// scrape (two workers here: counts of requests answered by either add up) to the token, 401 without it; unset, no
// /metrics at all.

const TOKEN = "metrics-token-for-the-tests-0123";
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

/** The value of the series `name{labels}` in Prometheus text, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /metrics", () => {
  it("two workers in one scrape: requests by operation and status, latency, replays, pool, backlog, jobs, event loop and process; 401 without the token", async () => {
    const svc = await startService({
      DATABASE_URL: TEST_DATABASE_URL,
      METRICS_TOKEN: TOKEN,
      SANDPIPER_WORKERS: "2",
      TRUSTED_PROXIES: "127.0.0.1,::1",
      COUNT_COMPACT_INTERVAL_MS: "200",
    });
    cleanup.push(() => stopService(svc.child));
    const m = await newMerchant();
    const key = `metrics-${randomUUID()}`;
    const body = depositBody();
    const created = await call("/v1/payments", { base: svc.url, key: m.key, ip: m.ip, body, idempotencyKey: key });
    expect(created.status).toBe(201);
    expect((await call("/v1/payments", { base: svc.url, key: m.key, ip: m.ip, body, idempotencyKey: key })).headers.get("idempotency-replayed")).toBe("true");
    // Fresh connections, so that both workers answer some of the reads.
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${svc.url}/v1/payments/${created.body.id}`, {
        headers: { authorization: `Bearer ${m.key}`, "x-forwarded-for": m.ip, connection: "close" },
      });
      expect(res.status).toBe(200);
    }
    // A job run in the workers, whose counts the scrape below shows.
    await waitUntil(
      async () => {
        const text = await (await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
        return (sample(text, 'sandpiper_job_runs_total{job="compact-payment-counts"}') ?? 0) > 0;
      },
      { what: "a run of the count compaction job in the metrics" },
    );

    expect((await fetch(`${svc.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${svc.url}/metrics`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error).toMatchObject({ code: "INVALID_API_KEY", requestId: expect.any(String) });

    const res = await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(sample(text, 'sandpiper_http_requests_total{operation="getPayment",status="200"}'), "both workers' reads, summed").toBe(8);
    expect(sample(text, 'sandpiper_http_requests_total{operation="createPayment",status="201"}')).toBe(2);
    expect(sample(text, 'sandpiper_idempotent_replays_total{operation="createPayment"}')).toBe(1);
    expect(sample(text, 'sandpiper_http_request_duration_seconds_count{operation="getPayment"}')).toBe(8);
    expect(text).toMatch(/^sandpiper_http_request_duration_seconds_bucket\{le="0\.1",operation="getPayment"\} \d+$/m);
    expect(sample(text, "sandpiper_callback_backlog")).toBeGreaterThanOrEqual(0);
    for (const pool of ["api", "jobs"]) {
      for (const state of ["in_use", "idle", "waiting"])
        expect(sample(text, `sandpiper_db_pool_connections{pool="${pool}",state="${state}"}`)).toBeGreaterThanOrEqual(0);
    }
    expect(sample(text, 'sandpiper_job_runs_total{job="compact-payment-counts"}')).toBeGreaterThan(0);
    expect(text).toMatch(/^sandpiper_job_lag_seconds\{job="compact-payment-counts"\} [\d.e-]+$/m);
    expect(sample(text, "sandpiper_event_streams_open")).toBe(0);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds [\d.e-]+$/m);
    expect(text).toMatch(/^process_cpu_seconds_total [\d.e-]+$/m);
    expect(text).toMatch(/^# TYPE sandpiper_rate_limit_refusals_total counter$/m);
    expect(text).toMatch(/^# TYPE sandpiper_callback_deliveries_total counter$/m);
    expect(text).not.toContain(TOKEN);
  }, 120_000);

  it("an idle instance's API pool reads 0 in use and 0 waiting on every scrape (the scrape's own backlog query is not counted)", async () => {
    const svc = await startService({ DATABASE_URL: TEST_DATABASE_URL, METRICS_TOKEN: TOKEN });
    cleanup.push(() => stopService(svc.child));
    // One request opens the API's pool; its connection then stays idle in it (or, on a slow machine, is closed after
    // 10 s idle). The scrape's own count query read as 1 waiting in the first case and 1 in use in the second.
    expect((await fetch(`${svc.url}/v1/payments`, { headers: { authorization: "Bearer sk_test_unknown" } })).status).toBe(401);
    for (let i = 0; i < 5; i++) {
      const text = await (await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      expect(sample(text, 'sandpiper_db_pool_connections{pool="api",state="in_use"}'), `scrape ${i}`).toBe(0);
      expect(sample(text, 'sandpiper_db_pool_connections{pool="api",state="waiting"}'), `scrape ${i}`).toBe(0);
    }
  }, 60_000);

  it("is not served when METRICS_TOKEN is unset", async () => {
    const svc = await startService({ DATABASE_URL: TEST_DATABASE_URL });
    cleanup.push(() => stopService(svc.child));
    expect((await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  }, 60_000);
});
