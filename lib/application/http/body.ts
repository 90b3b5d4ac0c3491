import { apiError } from "@/lib/contract/errors";
import { processState } from "@/lib/platform/process-state";

/** docs/api.md "Limits": request body at most 32 KiB. */
export const MAX_BODY_BYTES = 32 * 1024;

/**
 * Reads the raw body, counting bytes as they arrive (also without Content-Length).
 * @throws ApiError 413 PAYLOAD_TOO_LARGE past `maxBytes`; 400 VALIDATION_ERROR when the client's body breaks off or
 *   is not valid HTTP (docs/operating.md "The HTTP front": counted under 400, never as a database outage).
 */
export async function readRawBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  // Read already by server.mjs's hot routes (docs/architecture.md "Hot paths"), which hand it over without a stream.
  const read = processState().requestBodies?.get(request);
  if (read) {
    if (read.length > maxBytes) throw tooLarge(maxBytes);
    return read;
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      // The client broke its own body (an aborted upload, malformed chunked encoding): its fault, not the service's.
      throw unreadable();
    }
    const { done, value } = next;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The answer to a body the client broke: it never reached its end. */
export function unreadable() {
  return apiError("VALIDATION_ERROR", "request body: it broke off before its end (an aborted upload or malformed chunked encoding); send the request again");
}

function tooLarge(maxBytes: number) {
  return apiError("PAYLOAD_TOO_LARGE", `request body is larger than ${maxBytes / 1024} KiB`);
}

/** True when the Content-Type is application/json (parameters such as charset allowed). */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const [type, ...params] = value.split(";").map((s) => s.trim().toLowerCase());
  if (type !== "application/json") return false;
  const charset = params.find((p) => p.startsWith("charset="));
  return !charset || charset === "charset=utf-8" || charset === 'charset="utf-8"';
}
