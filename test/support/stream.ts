import { randomUUID } from "node:crypto";

// A listener session's forward token and forward records, for tests that record forwards without running `sandpiper listen`.

/**
 * Opens the key's event stream at `base` and reads its `ready` message (docs/callbacks.md "sandpiper listen"), then
 * closes the stream.
 * @returns the stream's `forwardToken` (null: the key may not record listener forwards)
 * @throws when the stream does not answer 200 or ends before its `ready` message
 */
export async function streamForwardToken(base: string, key: string, headers: Record<string, string> = {}): Promise<string | null> {
  const stop = new AbortController();
  const res = await fetch(`${base}/v1/events/stream`, {
    headers: { ...headers, authorization: `Bearer ${key}`, accept: "text/event-stream" },
    signal: stop.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}: ${await res.text()}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before its ready message: ${text}`);
      text += value;
      const ready = /event: ready\ndata: (.*)\n/.exec(text);
      if (ready) return (JSON.parse(ready[1]!) as { forwardToken: string | null }).forwardToken;
    }
  } finally {
    stop.abort();
  }
}

/** One forward record of a listener (`POST /v1/events/forwards`'s `forwards` item): event `eventId` delivered with 200 at `startedAt`. */
export function listenerForward(eventId: string, startedAt = new Date().toISOString()) {
  return {
    eventId,
    forwardId: randomUUID(),
    cursor: "1",
    kind: "event",
    attempt: 1,
    startedAt,
    durationMs: 3,
    statusCode: 200,
    error: null,
    forwardTo: "http://localhost:4000/hook",
    timestamp: "1577836800",
    signature: "0".repeat(64),
    responseSnippet: null,
    nextAttemptAt: null,
  };
}
