// The pg instrumentation of the traces (docs/operating.md "Traces"), shared by lib/platform/tracing/tracing.ts and
// scripts/trace-pg-first.mjs. It patches `pg` as Node.js loads it; `npm start` loads `pg` to migrate and seed before
// Next.js starts tracing, so it registers the instrumentation before anything else, or no query would have a span.
// Plain JavaScript: scripts/start.mjs runs without TypeScript.

/**
 * Registers the official pg instrumentation once per process: a span per query, only under a parent span (a
 * request's or a job run's). Its spans go to the global tracer provider, whichever is registered later
 * (lib/platform/tracing/tracing.ts), and are dropped until one is. Later calls do nothing.
 * @param instrumentation the module `@opentelemetry/instrumentation`
 * @param pg the module `@opentelemetry/instrumentation-pg`
 */
export function registerPgInstrumentation(instrumentation, pg) {
  // The process's state of lib/platform/process-state.ts (plain JavaScript here: scripts/start.mjs loads this without TypeScript).
  const state = (globalThis.__sandpiper ??= {});
  if (state.pgInstrumentation) return;
  state.pgInstrumentation = true;
  instrumentation.registerInstrumentations({ instrumentations: [new pg.PgInstrumentation({ requireParentSpan: true })] });
}
