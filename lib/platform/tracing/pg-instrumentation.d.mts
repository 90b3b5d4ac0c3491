/** Types of lib/platform/tracing/pg-instrumentation.mjs (the pg instrumentation, shared with scripts/trace-pg-first.mjs). */
export function registerPgInstrumentation(
  instrumentation: typeof import("@opentelemetry/instrumentation"),
  pg: typeof import("@opentelemetry/instrumentation-pg"),
): void;
