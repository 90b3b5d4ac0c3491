/**
 * Next.js instrumentation hook: refuses a configuration that lib/platform/config.ts does not accept (one line per refused
 * variable, exit code 1) and an unsafe environment (CALLBACK_ALLOW_LOOPBACK=1 with NODE_ENV=production: the
 * process exits with a clear message), starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operating.md
 * "Traces"), extends the seeded sandbox's FX rates (lib/domain/pricing/seeded-rates.ts), then starts the embedded job driver
 * when Inngest is not configured, registers the metrics when METRICS_TOKEN is set, and gives server.mjs the log and the
 * page POST budget (lib/application/http/front-services.ts).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { configOrExit } = await import("./lib/platform/config");
    configOrExit();
    const { loopbackAllowanceRefusal } = await import("./lib/domain/callbacks/callback-config");
    const refusal = loopbackAllowanceRefusal();
    if (refusal) {
      console.error(`Sandpiper refuses to start: ${refusal}`);
      process.exit(1);
    }
    // Before anything opens a database connection, so that the pg instrumentation sees every query.
    const { startTracing } = await import("./lib/platform/tracing/tracing");
    await startTracing();
    // docs/guides/operate-sandpiper.md "Seeded sandbox": each start extends the seeded pairs' window of FX rates before the first request (a
    // sandbox started again after months away takes payments at once); the hourly job keeps it ahead afterwards.
    const { extendSeededRates } = await import("./lib/domain/pricing/seeded-rates");
    const { getDb } = await import("./lib/platform/db");
    const { log } = await import("./lib/platform/log");
    await extendSeededRates(getDb()).catch((error: unknown) =>
      log.warn({ err: error instanceof Error ? error.message : String(error) }, "seeded FX rates not extended at start; the hourly job will"),
    );
    const { startJobDriver } = await import("./lib/application/jobs/driver");
    startJobDriver();
    const { startMetrics } = await import("./lib/platform/metrics/metrics");
    startMetrics();
    // server.mjs's log and page POST budget (docs/operating.md "The HTTP front").
    const { registerFrontServices } = await import("./lib/application/http/front-services");
    registerFrontServices();
    // The hot routes answered without Next.js (lib/application/http/direct-routes.mjs) wait for this start-up.
    const { processState } = await import("./lib/platform/process-state");
    processState().startedUp = true;
  }
}
