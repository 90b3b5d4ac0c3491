// Checks a received callback (docs/guides/receive-and-verify-callbacks.md "Receiving callbacks"): the same algorithm as the service's own
// verifier, written here because the client depends on nothing of the service. Node only (node:crypto).
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { webhooks } from "./schema.js";

/** Every event type the service sends (the OpenAPI document's `webhooks`). */
export type EventType = keyof webhooks;
/** The callback body of an event type, exactly as delivered: `{id, type, createdAt, data}`. */
export type CallbackEvent<T extends EventType = EventType> = NonNullable<webhooks[T]["post"]["requestBody"]>["content"]["application/json"];

/** Why a callback was refused. */
export type VerifyFailureReason = "MISSING_HEADER" | "BAD_TIMESTAMP" | "TIMESTAMP_OUT_OF_TOLERANCE" | "BAD_SIGNATURE" | "EVENT_ID_MISMATCH" | "MALFORMED_BODY";

export type VerifyResult =
  { ok: true; eventId: string; timestamp: number; event: CallbackEvent; secretIndex: number } | { ok: false; reason: VerifyFailureReason };

export type VerifyOptions = {
  /** Allowed distance between the timestamp header and now, in seconds, either way (default 300). */
  toleranceSeconds?: number;
  /** The receiver's clock (default now). */
  now?: Date | number;
  /** `<Name>` of the `X-<Name>-...` headers: the service's SERVICE_NAME (default "Service"). */
  serviceName?: string;
};

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === wanted && value !== undefined) return Array.isArray(value) ? value.join(", ") : value;
  }
  return undefined;
}

function bytesOf(body: string | Uint8Array): Buffer {
  return typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/**
 * Checks one received callback before anything in it is trusted (docs/guides/receive-and-verify-callbacks.md "Receiving callbacks", rule 1):
 * the three `X-<Name>-Event-Id`, `-Timestamp`, `-Signature` headers; a 10-digit timestamp within `toleranceSeconds`
 * of now; the signature = lowercase hex HMAC-SHA256 of `timestamp + "." + raw body`, keyed with the whole secret
 * (`whsec_` included), compared in constant time; a JSON object body whose `id` equals the event id header.
 *
 * @param body the raw body exactly as received (never JSON re-serialised).
 * @param headers Fetch `Headers` or a Node header record.
 * @param secret the callback secret, or several: e.g. the callback secret and the `sandpiper listen` secret
 *   ({@link listenerSecret}) when the same receiver takes both; `secretIndex` says which one signed it.
 * @returns `{ok: true, eventId, timestamp (Unix seconds), event, secretIndex}` or `{ok: false, reason}`.
 * @throws TypeError for no secret or an empty one; RangeError for a negative tolerance.
 */
export function verifyCallback(body: string | Uint8Array, headers: HeaderBag, secret: string | readonly string[], options: VerifyOptions = {}): VerifyResult {
  const secrets = typeof secret === "string" ? [secret] : [...secret];
  if (secrets.length === 0 || secrets.some((s) => typeof s !== "string" || s.length === 0))
    throw new TypeError("secret must be a non-empty string (or a list of them)");
  const tolerance = options.toleranceSeconds ?? 300;
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new RangeError("toleranceSeconds must be a non-negative number");
  const nowMs = options.now === undefined ? Date.now() : options.now instanceof Date ? options.now.getTime() : options.now;
  const name = options.serviceName ?? "Service";
  const eventId = header(headers, `X-${name}-Event-Id`);
  const timestamp = header(headers, `X-${name}-Timestamp`);
  const signature = header(headers, `X-${name}-Signature`);
  if (!eventId || !timestamp || !signature) return { ok: false, reason: "MISSING_HEADER" };
  if (!/^[0-9]{10}$/.test(timestamp)) return { ok: false, reason: "BAD_TIMESTAMP" };
  if (!/^[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: "BAD_SIGNATURE" };
  if (Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) > tolerance) return { ok: false, reason: "TIMESTAMP_OUT_OF_TOLERANCE" };
  const bytes = bytesOf(body);
  const given = Buffer.from(signature, "hex");
  const secretIndex = secrets.findIndex((s) => timingSafeEqual(given, createHmac("sha256", s).update(`${timestamp}.`, "utf8").update(bytes).digest()));
  if (secretIndex < 0) return { ok: false, reason: "BAD_SIGNATURE" };
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return { ok: false, reason: "MALFORMED_BODY" };
  }
  if (typeof event !== "object" || event === null || Array.isArray(event) || typeof (event as { id?: unknown }).id !== "string")
    return { ok: false, reason: "MALFORMED_BODY" };
  if ((event as { id: string }).id !== eventId) return { ok: false, reason: "EVENT_ID_MISMATCH" };
  return { ok: true, eventId, timestamp: Number(timestamp), event: event as CallbackEvent, secretIndex };
}

/**
 * The secret `sandpiper listen` signs its forwards with for an API key at a generation (docs/callbacks.md "sandpiper
 * listen" and "Rotating the secret"); it is what the listener prints. Generation 0 (every key until its listener
 * secret is first rotated): `whsec_` + base64url(HMAC-SHA256(key = hex SHA-256 of the API key, "sandpiper listen
 * secret v1")). After a rotation, pass the key's current generation (`getListenerSecret()` answers it): `whsec_` +
 * the first 44 base64 characters of HMAC-SHA512(key = the same hash, "sandpiper listen secret v2/<generation>/<i>")
 * for the first i = 0, 1, ... written with letters and digits only.
 * @throws RangeError when generation is not a non-negative integer.
 */
export function listenerSecret(apiKey: string, generation = 0): string {
  if (!Number.isSafeInteger(generation) || generation < 0) throw new RangeError("generation must be a non-negative integer");
  const keyHash = createHash("sha256").update(apiKey).digest("hex");
  if (generation === 0) return `whsec_${createHmac("sha256", keyHash).update("sandpiper listen secret v1").digest("base64url")}`;
  for (let i = 0; ; i++) {
    const text = createHmac("sha512", keyHash).update(`sandpiper listen secret v2/${generation}/${i}`).digest().subarray(0, 33).toString("base64");
    if (/^[A-Za-z0-9]{44}$/.test(text)) return `whsec_${text}`;
  }
}
