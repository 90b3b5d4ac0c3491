// Server-sent events (text/event-stream) for /v1 answers written over time: the event stream that listeners
// follow (docs/callbacks.md "sandpiper listen").
import { log } from "@/lib/platform/log";

/** Writes SSE frames to an open stream. `data` is JSON-encoded on one line. */
export type SseWriter = {
  /** One event: `event: <name>`, optional `id: <id>`, `data: <json>`. */
  send(name: string, data: unknown, id?: string): void;
  /** True once the client went away or the stream was closed. */
  readonly closed: boolean;
};

/** Headers of an event stream: never cached, never transformed (compression would hold frames back). */
export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-store, no-transform",
  "X-Accel-Buffering": "no",
} as const;

/**
 * A byte stream that `produce` writes SSE frames to until it returns, throws, or `signal` (the request's) is
 * aborted; the stream is closed then. `produce` receives a signal that aborts when the client goes away.
 * An error thrown by `produce` ends the stream with an `error` event (no internals in its message).
 * @returns the stream, for an ApiResult's `stream`.
 */
export function sseStream(signal: AbortSignal, produce: (out: SseWriter, signal: AbortSignal) => Promise<void>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const gone = new AbortController();
  signal.addEventListener("abort", () => gone.abort(), { once: true });
  let closed = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const writer: SseWriter = {
        send(name, data, id) {
          if (closed) return;
          const frame = `event: ${name}\n${id !== undefined ? `id: ${id}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
          try {
            controller.enqueue(encoder.encode(frame));
          } catch {
            closed = true;
            gone.abort();
          }
        },
        get closed() {
          return closed || gone.signal.aborted;
        },
      };
      produce(writer, gone.signal)
        .catch((error: unknown) => {
          log.error({ err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) }, "event stream failed");
          writer.send("error", { message: "the stream ended unexpectedly; reconnect with your last cursor" });
        })
        .finally(() => {
          if (closed) return;
          closed = true;
          try {
            controller.close();
          } catch {
            // already closed by the client
          }
        });
    },
    cancel() {
      closed = true;
      gone.abort();
    },
  });
}
