import type { Received } from "./receiver";

// What a test's OTLP/HTTP collector (a plain receiver, test/support/receiver.ts) got: the spans of every export.

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: { key: string; value: OtlpValue }[] };
export type Span = { traceId: string; spanId: string; parentSpanId: string; name: string; attributes: Record<string, string | number | boolean | undefined> };

/** Every span the collector received (requests to `/v1/traces`), with attributes as plain values. */
export function spansOf(received: Received[]): Span[] {
  return received
    .filter((r) => r.path === "/v1/traces")
    .flatMap((r) => {
      const body = JSON.parse(r.body.toString()) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      return body.resourceSpans.flatMap((rs) =>
        rs.scopeSpans.flatMap((ss) =>
          ss.spans.map((s) => ({
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId ?? "",
            name: s.name,
            attributes: Object.fromEntries(
              (s.attributes ?? []).map((a) => [a.key, a.value.stringValue ?? (a.value.intValue !== undefined ? Number(a.value.intValue) : a.value.boolValue)]),
            ),
          })),
        ),
      );
    });
}
