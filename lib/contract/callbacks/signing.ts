// Callback (webhook) signing: header names, HMAC-SHA256 signature, outgoing headers.
// docs/callbacks.md (Headers table) and docs/architecture.md "Callbacks".
import { createHmac } from "node:crypto";
// Relative: the `sandpiper` command (clients/cli/src/listen, run by tsx from any folder) imports this file; it always passes the name.
import { config, SERVICE_NAME_PATTERN } from "../../platform/config";

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

/** Header names of the Standard Webhooks scheme, sent beside the `X-<Name>-*` headers (docs/callbacks.md "Standard Webhooks"). */
export const STANDARD_WEBHOOK_HEADERS = { id: "webhook-id", timestamp: "webhook-timestamp", signature: "webhook-signature" } as const;

const SECRET_PREFIX = "whsec_";

/**
 * The key bytes a Standard Webhooks verifier uses for one of our secrets: the text after `whsec_`, base64-decoded
 * (either alphabet, with or without padding). A secret without the prefix, or one that decodes to nothing, is keyed
 * with its UTF-8 bytes.
 *
 * docs/callbacks.md "Standard Webhooks".
 * @param secret a callback or listener secret, e.g. `whsec_` + 43 or 44 base64 characters.
 * @returns the key bytes (32 or 33 for the secrets Sandpiper makes).
 * @throws TypeError when secret is empty.
 */
export function standardWebhooksKey(secret: string): Buffer {
  if (typeof secret !== "string" || secret.length === 0) throw new TypeError("secret must be a non-empty string");
  const body = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : "";
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(body) ? Buffer.from(body, "base64") : Buffer.alloc(0);
  return key.length > 0 ? key : Buffer.from(secret, "utf8");
}

/**
 * A secret written as every Standard Webhooks library reads it: `whsec_` + standard, padded base64 of
 * {@link standardWebhooksKey}. Secrets made since Standard Webhooks headers were added read the same in both forms
 * (letters and digits only, 44 characters); an older secret with `-`, `_` or 43 characters has a second form.
 *
 * docs/callbacks.md "Standard Webhooks".
 * @returns the secret to give a Standard Webhooks verifier; equal to `secret` when it already is one.
 * @throws TypeError when secret is empty.
 */
export function standardWebhooksSecret(secret: string): string {
  return SECRET_PREFIX + standardWebhooksKey(secret).toString("base64");
}

/**
 * One Standard Webhooks signature: `v1,` + base64 of HMAC-SHA256 over `id + "." + timestamp + "." + body`, keyed
 * with {@link standardWebhooksKey} of the secret.
 *
 * docs/callbacks.md "Standard Webhooks".
 * @param secret a callback or listener secret.
 * @param id the `webhook-id` (the event id).
 * @param timestampSeconds the `webhook-timestamp`, Unix seconds in decimal.
 * @param rawBody the exact request body bytes.
 * @returns `v1,<base64>` (47 characters).
 * @throws TypeError when secret is empty.
 */
export function signStandardWebhook(secret: string, id: string, timestampSeconds: string, rawBody: string | Buffer): string {
  const mac = createHmac("sha256", standardWebhooksKey(secret))
    .update(Buffer.from(`${id}.${timestampSeconds}.`, "utf8"))
    .update(toBytes(rawBody))
    .digest("base64");
  return `v1,${mac}`;
}

/** Input of {@link buildCallbackHeaders}. */
export interface BuildCallbackHeadersInput {
  /** Event id (uuid); equals the `id` in the body and is kept across retries. */
  eventId: string;
  /** The exact bytes that will be sent as the request body. */
  rawBody: string | Buffer;
  /** The merchant's callback secret (the newest, during a rotation's overlap). */
  secret: string;
  /**
   * During a rotation's overlap, the secret being replaced: the contract's signature header keeps being made with it,
   * and `webhook-signature` carries a signature by each. Null or absent outside an overlap.
   */
  previousSecret?: string | null;
  /** Time of this attempt, epoch milliseconds. */
  nowMs: number;
  /** Operator name for the header names; default as in {@link callbackHeaderNames}. */
  serviceName?: string;
}

/**
 * Headers of one callback attempt: `Content-Type: application/json`, the event id header,
 * the timestamp header (10-digit Unix seconds, floor of nowMs / 1000, renewed on every
 * attempt) and the signature header over that timestamp and rawBody (made with `previousSecret` while a rotation's
 * overlap lasts, else with `secret`); beside them the Standard Webhooks headers `webhook-id` (the event id),
 * `webhook-timestamp` (the same timestamp) and `webhook-signature` (`v1,<base64>` by `secret`, then one by
 * `previousSecret` during an overlap, separated by a space).
 *
 * docs/callbacks.md (Headers, "Standard Webhooks", "Rotating the secret") and docs/architecture.md "Callbacks".
 *
 * @returns a plain record `{ "Content-Type", "X-<Name>-Event-Id", "X-<Name>-Timestamp", "X-<Name>-Signature",
 *   "webhook-id", "webhook-timestamp", "webhook-signature" }`.
 * @throws TypeError for an empty eventId or one containing control characters, an empty
 *   secret or an invalid serviceName; RangeError when nowMs does not give a 10-digit timestamp.
 */
export function buildCallbackHeaders(input: BuildCallbackHeadersInput): Record<string, string> {
  const { eventId, rawBody, secret, previousSecret, nowMs, serviceName } = input;
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
    [names.signature]: signCallback(previousSecret || secret, timestamp, rawBody),
    [STANDARD_WEBHOOK_HEADERS.id]: eventId,
    [STANDARD_WEBHOOK_HEADERS.timestamp]: timestamp,
    [STANDARD_WEBHOOK_HEADERS.signature]: [secret, ...(previousSecret ? [previousSecret] : [])]
      .map((s) => signStandardWebhook(s, eventId, timestamp, rawBody))
      .join(" "),
  };
}

/**
 * The timestamp and signature header values that {@link buildCallbackHeaders} put in `headers`, for the attempt's
 * record (docs/architecture.md "Callbacks"). `serviceName`: the one the headers were built with (default as in
 * {@link callbackHeaderNames}).
 * @throws Error when `headers` lacks either (headers not built by buildCallbackHeaders with that serviceName)
 */
export function signedHeaderValues(headers: Record<string, string>, serviceName?: string): { timestamp: string; signature: string } {
  const names = callbackHeaderNames(serviceName);
  const timestamp = headers[names.timestamp];
  const signature = headers[names.signature];
  if (timestamp === undefined || signature === undefined) throw new Error(`callback headers without ${names.timestamp} and ${names.signature}`);
  return { timestamp, signature };
}
