// Imported first by scripts/start.mjs: with traces on (OTEL_EXPORTER_OTLP_ENDPOINT; empty counts as unset, and the
// value is checked with the rest of the configuration), the pg instrumentation is registered before ./db.mjs loads
// `pg` to migrate and seed, so that the served requests' queries have spans (docs/operating.md "Traces"). Synchronous
// on purpose: the modules imported after this one are evaluated only once it has run.
import { createRequire } from "node:module";
import { registerPgInstrumentation } from "../lib/platform/tracing/pg-instrumentation.mjs";

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  const require = createRequire(import.meta.url);
  registerPgInstrumentation(require("@opentelemetry/instrumentation"), require("@opentelemetry/instrumentation-pg"));
}
