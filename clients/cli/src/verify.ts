// Receiver-side verification of a Sandpiper callback (webhook).
// Self-contained on purpose: merchants may copy this file. It imports only node:crypto.
// docs/callbacks.md, receiver rule 1.
import { createHmac, timingSafeEqual } from "node:crypto";

/** Why a callback was rejected. */
export type VerifyFailureReason = "MISSING_HEADER" | "BAD_TIMESTAMP" | "TIMESTAMP_OUT_OF_TOLERANCE" | "BAD_SIGNATURE" | "EVENT_ID_MISMATCH" | "MALFORMED_BODY";

/** A parsed, authenticated event envelope (docs/callbacks.md); at least `id` is checked. */
export type VerifiedEvent = { id: string } & Record<string, unknown>;

export type VerifyResult = { ok: true; eventId: string; timestamp: number; event: VerifiedEvent } | { ok: false; reason: VerifyFailureReason };

export interface VerifyOptions {
  /** Allowed distance between the timestamp header and `now`, in seconds, either direction. Default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock: a Date or epoch milliseconds. Default `Date.now()`. */
  now?: Date | number;
  /** Operator name in the header names `X-<Name>-...`: the service's SERVICE_NAME. Default "Service". */
  serviceName?: string;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

const TIMESTAMP_PATTERN = /^[0-9]{10}$/;
const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;
const SERVICE_NAME_PATTERN = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;

function headerValue(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") {
    return (headers as Headers).get(name) ?? undefined;
  }
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    // Several values are joined as the Fetch API would; the joined text then fails the format checks.
    return Array.isArray(value) ? value.join(", ") : value;
  }
  return undefined;
}

function bodyBytes(rawBody: string | Buffer | Uint8Array): Buffer {
  if (typeof rawBody === "string") return Buffer.from(rawBody, "utf8");
  if (Buffer.isBuffer(rawBody)) return rawBody;
  return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
}

function parseEnvelope(bytes: Buffer): VerifiedEvent | null {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
    const id = (parsed as Record<string, unknown>).id;
    return typeof id === "string" ? (parsed as VerifiedEvent) : null;
  } catch {
    return null;
  }
}

/**
 * Verifies one received callback before anything in it is trusted.
 *
 * docs/callbacks.md, receiver rule 1, checked in this order:
 * 1. the three headers `X-<Name>-Event-Id`, `X-<Name>-Timestamp`, `X-<Name>-Signature` are
 *    present and non-empty (names matched case-insensitively) - else MISSING_HEADER;
 * 2. the timestamp is exactly 10 ASCII digits (Unix seconds) - else BAD_TIMESTAMP;
 * 3. the signature is 64 lowercase hex characters - else BAD_SIGNATURE;
 * 4. the timestamp is at most toleranceSeconds (default 300) from `now`, either direction
 *    (whole seconds; 300 passes, 301 fails) - else TIMESTAMP_OUT_OF_TOLERANCE;
 * 5. HMAC-SHA256(secret, timestamp + "." + raw body bytes) equals the signature, compared in
 *    constant time - else BAD_SIGNATURE. The raw bytes are used: never re-serialise JSON;
 * 6. the body is UTF-8 JSON object with a string `id` - else MALFORMED_BODY;
 * 7. the event id header equals the body `id` - else EVENT_ID_MISMATCH.
 *
 * Receiver rules 2 to 4 (compare with your own record, store the event id uniquely, answer
 * 2xx) remain the caller's job.
 *
 * @param rawBody the request body exactly as received (read it before any JSON parsing).
 * @param headers a Fetch `Headers` object or a Node-style header record.
 * @param secret the callback secret shown when the callback address was configured.
 * @returns `{ ok: true, eventId, timestamp (Unix seconds), event }` or `{ ok: false, reason }`.
 * @throws TypeError for an empty secret or an invalid serviceName; RangeError for a negative or non-finite tolerance or an invalid `now`.
 */
export function verifyCallback(rawBody: string | Buffer | Uint8Array, headers: HeaderBag, secret: string, opts: VerifyOptions = {}): VerifyResult {
  if (typeof secret !== "string" || secret.length === 0) throw new TypeError("secret must be a non-empty string");
  const toleranceSeconds = opts.toleranceSeconds ?? 300;
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new RangeError("toleranceSeconds must be a non-negative number");
  }
  const nowMs = opts.now === undefined ? Date.now() : opts.now instanceof Date ? opts.now.getTime() : opts.now;
  if (!Number.isFinite(nowMs)) throw new RangeError("now must be a valid Date or epoch milliseconds");

  // The receiver says the name: this file reads no environment (it runs in the merchant's process, not the service's).
  const name = opts.serviceName ?? "Service";
  if (!SERVICE_NAME_PATTERN.test(name)) throw new TypeError("serviceName must be letters and digits, optionally joined by single hyphens");
  const eventId = headerValue(headers, `X-${name}-Event-Id`);
  const timestamp = headerValue(headers, `X-${name}-Timestamp`);
  const signature = headerValue(headers, `X-${name}-Signature`);
  if (!eventId || !timestamp || !signature) return { ok: false, reason: "MISSING_HEADER" };

  if (!TIMESTAMP_PATTERN.test(timestamp)) return { ok: false, reason: "BAD_TIMESTAMP" };
  if (!SIGNATURE_PATTERN.test(signature)) return { ok: false, reason: "BAD_SIGNATURE" };

  const timestampSeconds = Number(timestamp);
  if (Math.abs(Math.floor(nowMs / 1000) - timestampSeconds) > toleranceSeconds) {
    return { ok: false, reason: "TIMESTAMP_OUT_OF_TOLERANCE" };
  }

  const bytes = bodyBytes(rawBody);
  const expected = createHmac("sha256", secret).update(`${timestamp}.`, "utf8").update(bytes).digest();
  const given = Buffer.from(signature, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: "BAD_SIGNATURE" };
  }

  const event = parseEnvelope(bytes);
  if (event === null) return { ok: false, reason: "MALFORMED_BODY" };
  if (event.id !== eventId) return { ok: false, reason: "EVENT_ID_MISMATCH" };
  return { ok: true, eventId, timestamp: timestampSeconds, event };
}
