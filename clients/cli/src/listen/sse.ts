// A minimal reader of server-sent events (text/event-stream) for the listener: frames are separated by a blank
// line; `event:`, `data:` and `id:` fields; lines starting with ":" are comments.

/** One server-sent event. `data` is the joined data lines. */
export type SseEvent = { event: string; data: string; id: string | null };

/**
 * Splits a byte stream into events as they arrive. Calls `onBytes` for every chunk (liveness) and `onEvent` for
 * each complete event. Resolves when the stream ends; rejects when reading fails (a dropped connection).
 */
export async function readSse(body: ReadableStream<Uint8Array>, onEvent: (e: SseEvent) => void, onBytes: () => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    onBytes();
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const parsed = parseFrame(frame);
      if (parsed) onEvent(parsed);
    }
  }
}

function parseFrame(frame: string): SseEvent | null {
  let event = "message";
  let id: string | null = null;
  const data: string[] = [];
  for (const line of frame.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id") id = value;
  }
  return data.length > 0 ? { event, data: data.join("\n"), id } : null;
}
