// Callback (webhook) signing: header names, HMAC-SHA256 signature, outgoing headers.
// docs/callbacks.md (Headers table) and docs/architecture.md "Callbacks".
import { createHmac } from "node:crypto";
// Relative: the `sandpiper` command (lib/listen, run by tsx from any folder) imports this file; it always passes the name.
import { config, SERVICE_NAME_PATTERN } from "../config";

/** Names of the three callback headers for one operator name. */
export interface CallbackHeaderNames {
  eventId: string;
  timestamp: string;
  signature: string;
}

function defaultServiceName(): string {
  return config().SERVICE_NAME;
}

/**
 * Header names of a callback: `X-<Name>-Event-Id`, `X-<Name>-Timestamp`, `X-<Name>-Signature`.
 *
 * docs/callbacks.md (Headers): the contract writes them with the word Service where the
 * operator's name stands; `<Name>` is `SERVICE_NAME` (unset or empty: "Service").
 *
 * @param serviceName operator name, letters/digits with single inner hyphens, e.g. "Sandpiper".
 * @returns `{ eventId, timestamp, signature }` header names.
 * @throws TypeError when serviceName is not a valid header-name fragment.
 */
export function callbackHeaderNames(serviceName: string = defaultServiceName()): CallbackHeaderNames {
  if (!SERVICE_NAME_PATTERN.test(serviceName)) {
    throw new TypeError("serviceName must be letters and digits, optionally joined by single hyphens");
  }
  return {
    eventId: `X-${serviceName}-Event-Id`,
    timestamp: `X-${serviceName}-Timestamp`,
    signature: `X-${serviceName}-Signature`,
  };
}

function toBytes(rawBody: string | Buffer): Buffer {
  return typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
}

/**
 * Signature of one callback attempt.
 *
 * docs/callbacks.md (X-Service-Signature): lowercase hex (64 chars) of HMAC-SHA256 over the
 * bytes of `timestamp + "." + rawBody`, keyed with the callback secret. The body is used as
 * given (a string is encoded as UTF-8); it is never parsed or re-serialised, so the caller
 * must send exactly these bytes.
 *
 * @param secret the merchant's callback secret (UTF-8 key), non-empty.
 * @param timestampSeconds Unix time in seconds, as sent in the timestamp header
 *   (a number is written in decimal; a string is used verbatim).
 * @param rawBody the exact request body bytes.
 * @returns 64 lowercase hex characters.
 * @throws TypeError when secret is empty; RangeError when a numeric timestamp is not a
 *   non-negative integer.
 */
export function signCallback(secret: string, timestampSeconds: number | string, rawBody: string | Buffer): string {
  if (typeof secret !== "string" || secret.length === 0) {
    throw new TypeError("secret must be a non-empty string");
  }
  if (typeof timestampSeconds === "number" && !(Number.isSafeInteger(timestampSeconds) && timestampSeconds >= 0)) {
    throw new RangeError("timestampSeconds must be a non-negative integer");
  }
  return createHmac("sha256", secret)
    .update(Buffer.from(`${timestampSeconds}.`, "utf8"))
    .update(toBytes(rawBody))
    .digest("hex");
}

/** Input of {@link buildCallbackHeaders}. */
export interface BuildCallbackHeadersInput {
  /** Event id (uuid); equals the `id` in the body and is kept across retries. */
  eventId: string;
  /** The exact bytes that will be sent as the request body. */
  rawBody: string | Buffer;
  /** The merchant's callback secret. */
  secret: string;
  /** Time of this attempt, epoch milliseconds. */
  nowMs: number;
  /** Operator name for the header names; default as in {@link callbackHeaderNames}. */
  serviceName?: string;
}

/**
 * Headers of one callback attempt: `Content-Type: application/json`, the event id header,
 * the timestamp header (10-digit Unix seconds, floor of nowMs / 1000, renewed on every
 * attempt) and the signature header over that timestamp and rawBody.
 *
 * docs/callbacks.md (Headers) and docs/architecture.md "Callbacks".
 *
 * @returns a plain record `{ "Content-Type", "X-<Name>-Event-Id", "X-<Name>-Timestamp", "X-<Name>-Signature" }`.
 * @throws TypeError for an empty eventId or one containing control characters, an empty
 *   secret or an invalid serviceName; RangeError when nowMs does not give a 10-digit timestamp.
 */
export function buildCallbackHeaders(input: BuildCallbackHeadersInput): Record<string, string> {
  const { eventId, rawBody, secret, nowMs, serviceName } = input;
  if (typeof eventId !== "string" || eventId.length === 0 || /[\u0000-\u001f\u007f]/.test(eventId)) {
    throw new TypeError("eventId must be a non-empty string without control characters");
  }
  const seconds = Math.floor(nowMs / 1000);
  if (!Number.isSafeInteger(seconds) || seconds < 1_000_000_000 || seconds > 9_999_999_999) {
    throw new RangeError("nowMs must give a 10-digit Unix timestamp in seconds");
  }
  const names = callbackHeaderNames(serviceName);
  const timestamp = String(seconds);
  return {
    "Content-Type": "application/json",
    [names.eventId]: eventId,
    [names.timestamp]: timestamp,
    [names.signature]: signCallback(secret, timestamp, rawBody),
  };
}
