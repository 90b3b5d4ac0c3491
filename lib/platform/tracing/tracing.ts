// OpenTelemetry traces (docs/operating.md "Traces"): when OTEL_EXPORTER_OTLP_ENDPOINT is set, instrumentation.ts calls
// startTracing() before anything else loads; each /v1 request is a span (route, merchant id, request id, status) under
// Next.js' own request span, database queries are child spans (the official pg instrumentation), and each embedded
// job run and callback delivery attempt is a span. Every span leaves through the one redaction rule (redactSpan). Unset,
// nothing is loaded and inSpan() only calls its function.
import { context, INVALID_SPAN_CONTEXT, SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import { config } from "@/lib/platform/config";
import { registerPgInstrumentation } from "@/lib/platform/tracing/pg-instrumentation.mjs";
import { redactText, redactValue } from "@/lib/platform/redaction/redact";
import { processState } from "@/lib/platform/process-state";

/** The tracer's name (instrumentation scope) of every span Sandpiper makes itself. */
const SCOPE = "sandpiper";
const state = processState();
/** The span inSpan() hands out when tracing is off: records nothing. */
const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * Starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set: a tracer provider (service.name "sandpiper") exporting over
 * OTLP/HTTP (JSON) to `<endpoint>/v1/traces` in batches, registered as the global one with an AsyncLocalStorage
 * context manager, and the pg instrumentation (lib/platform/tracing/pg-instrumentation.mjs: one per process; `npm start`
 * registers it before it loads `pg`). Once per process; the official packages are loaded only then.
 */
export async function startTracing(): Promise<void> {
  const endpoint = config().OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || state.tracing) return;
  const [{ TracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }, { AsyncLocalStorageContextManager }, instr, pgInstr] =
    await Promise.all([
      import("@opentelemetry/sdk-trace"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
      import("@opentelemetry/context-async-hooks"),
      import("@opentelemetry/instrumentation"),
      import("@opentelemetry/instrumentation-pg"),
    ]);
  const exporter = redactingExporter(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, "")}/v1/traces` }));
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": "sandpiper" }),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 1_000 })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  registerPgInstrumentation(instr, pgInstr); // `npm start` registered it already, before it loaded pg
  state.tracing = provider;
}

/** `attributes` as they may leave the service: {@link redactValue} of each (a secret-named attribute is "[redacted]"). */
function redactAttributes(attributes: Attributes): Attributes {
  return redactValue(attributes) as Attributes;
}

/**
 * `span` as it may leave the service (docs/operating.md "Secrets in logs and traces"): its name, status message,
 * attributes and events (names and attributes: an exception's message and stack) through the one redaction rule. The
 * URL and target attributes of Next.js' request span lose their secret parameters and card numbers, an
 * authorization or cookie header attribute is "[redacted]". The span itself is not changed (a copy that reads through
 * to it).
 */
function redactSpan(span: ReadableSpan): ReadableSpan {
  return Object.create(span, {
    name: { value: redactText(span.name) },
    status: { value: span.status.message === undefined ? span.status : { ...span.status, message: redactText(span.status.message) } },
    attributes: { value: redactAttributes(span.attributes) },
    events: {
      value: span.events.map((event) => ({ ...event, name: redactText(event.name), attributes: event.attributes && redactAttributes(event.attributes) })),
    },
    links: { value: span.links.map((link) => ({ ...link, attributes: link.attributes && redactAttributes(link.attributes) })) },
  }) as ReadableSpan;
}

/** `exporter` that sends every span through {@link redactSpan} first: nothing leaves unredacted, whoever made the span. */
function redactingExporter(exporter: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => exporter.export(spans.map(redactSpan), done),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/** Sends the spans not exported yet and stops tracing (server.mjs, after the drain); resolves at once when off. */
export async function stopTracing(): Promise<void> {
  await state.tracing?.shutdown();
}

/**
 * Runs `fn` in a span named `name` with `attributes` (a child of the active span, if any), ending it when `fn`
 * settles; a throw marks the span as an error and is rethrown. `fn` gets the span to add attributes (status, ids) as
 * they become known. When tracing is off it only calls `fn` (with a span that records nothing).
 */
export async function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  if (!state.tracing) return fn(NO_SPAN);
  return trace.getTracer(SCOPE).startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
