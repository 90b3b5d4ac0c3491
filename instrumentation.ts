/**
 * Next.js instrumentation hook: refuses a configuration that lib/config.ts does not accept (one line per refused
 * variable, exit code 1) and an unsafe environment (CALLBACK_ALLOW_LOOPBACK=1 with NODE_ENV=production: the
 * process exits with a clear message), then starts the embedded job driver when
 * Inngest is not configured, and registers the metrics when METRICS_TOKEN is set; tracing starts first when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operating.md "Traces").
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { configOrExit } = await import("./lib/config");
    configOrExit();
    const { loopbackAllowanceRefusal } = await import("./lib/callbacks/callback-config");
    const refusal = loopbackAllowanceRefusal();
    if (refusal) {
      console.error(`Sandpiper refuses to start: ${refusal}`);
      process.exit(1);
    }
    // Before anything opens a database connection, so that the pg instrumentation sees every query.
    const { startTracing } = await import("./lib/tracing/tracing");
    await startTracing();
    const { startJobDriver } = await import("./lib/jobs/driver");
    startJobDriver();
    const { startMetrics } = await import("./lib/metrics/metrics");
    startMetrics();
  }
}
