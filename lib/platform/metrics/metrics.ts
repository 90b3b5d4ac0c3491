// The service's Prometheus metrics (docs/operating.md "Metrics"), on prom-client's global registry, which server.mjs
// serves at GET /metrics and prom-client's cluster aggregator reads in every worker. Collected only when METRICS_TOKEN
// is set: otherwise every observe function below returns at once and nothing is registered.
import client from "prom-client";
import { config } from "@/lib/platform/config";
import { poolStats, query, Prisma } from "@/lib/platform/db";
import { processState } from "@/lib/platform/process-state";

/** Latency buckets of the request histogram, in seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function build() {
  client.collectDefaultMetrics(); // process CPU, memory, handles, GC and event-loop lag (nodejs_eventloop_lag_*)
  return {
    requests: new client.Counter({
      name: "sandpiper_http_requests_total",
      help: "API requests answered, by operation and status",
      labelNames: ["operation", "status"],
    }),
    latency: new client.Histogram({
      name: "sandpiper_http_request_duration_seconds",
      help: "API request latency in seconds, by operation",
      labelNames: ["operation"],
      buckets: LATENCY_BUCKETS,
    }),
    replays: new client.Counter({
      name: "sandpiper_idempotent_replays_total",
      help: "answers replayed for a repeated Idempotency-Key",
      labelNames: ["operation"],
    }),
    rateLimited: new client.Counter({ name: "sandpiper_rate_limit_refusals_total", help: "requests refused 429 RATE_LIMITED", labelNames: ["operation"] }),
    deliveries: new client.Counter({
      name: "sandpiper_callback_deliveries_total",
      help: "callback delivery attempts, by outcome (the delivery's state after it)",
      labelNames: ["outcome"],
    }),
    // Registered before every gauge that queries the database, so it is read first: a scrape collects every metric at
    // once, and the backlog's own count query, queued on the pool for a tick, would otherwise read as 1 waiting.
    pool: new client.Gauge({
      name: "sandpiper_db_pool_connections",
      help: "database pool connections by pool (api: the requests', jobs: the background jobs') and state: in_use, idle, waiting (queries waiting for one)",
      labelNames: ["pool", "state"],
      collect() {
        for (const pool of ["api", "jobs"] as const) {
          const stats = poolStats(pool); // a scrape never opens a pool
          if (!stats) continue;
          this.set({ pool, state: "in_use" }, stats.inUse);
          this.set({ pool, state: "idle" }, stats.idle);
          this.set({ pool, state: "waiting" }, stats.waiting);
        }
      },
    }),
    backlog: new client.Gauge({
      name: "sandpiper_callback_backlog",
      help: "callback deliveries waiting to be sent or retried (state PENDING), read from the database at scrape time",
      aggregator: "max",
      async collect() {
        const [row] = await query(Prisma.sql`SELECT count(*)::int AS n FROM deliveries WHERE state = 'PENDING'`);
        this.set(Number(row?.n ?? 0));
      },
    }),
    streams: new client.Gauge({ name: "sandpiper_event_streams_open", help: "event streams (sandpiper listen) open now" }),
    jobRuns: new client.Counter({ name: "sandpiper_job_runs_total", help: "embedded job runs, by job", labelNames: ["job"] }),
    jobErrors: new client.Counter({ name: "sandpiper_job_errors_total", help: "embedded job runs that failed, by job", labelNames: ["job"] }),
    jobLag: new client.Gauge({
      name: "sandpiper_job_lag_seconds",
      help: "how late the last run of each embedded job started after it was due, in seconds",
      labelNames: ["job"],
      aggregator: "max",
    }),
    dependencies: new client.Gauge({
      name: "sandpiper_dependency_up",
      help: "1 while a dependency the service rides out the loss of answers (redis: the shared rate limits), 0 while it does not",
      labelNames: ["dependency"],
      aggregator: "min",
    }),
  };
}

declare module "@/lib/platform/process-state" {
  interface OwnedSlotTypes {
    /** The service's metrics as {@link build} registers them. */
    metrics: ReturnType<typeof build>;
  }
}

/** The metrics, registered on first use; null when METRICS_TOKEN is not set (metrics off). */
function metrics(): ReturnType<typeof build> | null {
  if (!config().METRICS_TOKEN) return null;
  return (processState().metrics ??= build());
}

/**
 * Counts one answered /v1 request: `operation` its operationId, `status` the HTTP status, `seconds` its latency;
 * `replayed` for an Idempotency-Key replay, `errorCode` the error's code (RATE_LIMITED counts a refusal).
 */
export function observeRequest(operation: string, status: number, seconds: number, replayed: boolean, errorCode: string | null): void {
  const m = metrics();
  if (!m) return;
  m.requests.inc({ operation, status: String(status) });
  m.latency.observe({ operation }, seconds);
  if (replayed) m.replays.inc({ operation });
  if (errorCode === "RATE_LIMITED") m.rateLimited.inc({ operation });
}

/** Counts one callback delivery attempt by `outcome`: the delivery's state after it (SUCCEEDED, PENDING for a retry, FAILED, ...). */
export function observeDelivery(outcome: string): void {
  metrics()?.deliveries.inc({ outcome });
}

/** An event stream opened (+1) or closed (-1). */
export function countStream(change: 1 | -1): void {
  metrics()?.streams.inc(change);
}

/** One embedded job run of `job`: started `lagMs` milliseconds after it was due; `failed` when it threw. */
export function observeJobRun(job: string, lagMs: number, failed: boolean): void {
  const m = metrics();
  if (!m) return;
  m.jobRuns.inc({ job });
  if (failed) m.jobErrors.inc({ job });
  m.jobLag.set({ job }, Math.max(0, lagMs) / 1000);
}

/**
 * Records whether `dependency` answers (1) or not (0): a dependency whose loss the service rides out (docs/operating.md
 * "Health checks": `/readyz` answers degraded meanwhile). Called on a change only.
 */
export function observeDependency(dependency: "redis", up: boolean): void {
  metrics()?.dependencies.set({ dependency }, up ? 1 : 0);
}

/**
 * Registers the metrics now when METRICS_TOKEN is set (instrumentation.ts, at start), so that a scrape before the first
 * request shows every series; does nothing otherwise.
 */
export function startMetrics(): void {
  metrics();
}
