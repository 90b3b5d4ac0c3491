// The signing secret of `sandpiper listen` forwards (docs/callbacks.md "sandpiper listen"). Imports only
// node:crypto: the listener process and the service both use it.
import { createHash, createHmac } from "node:crypto";

/**
 * The listener secret of an API key, from the key's SHA-256 hash (hex, as the service stores it) and the key's secret
 * generation (docs/callbacks.md "Rotating the secret"; 0 until the listener secret is first rotated):
 * - generation 0 (keys made before new keys started at generation 1, never rotated): `whsec_` +
 *   base64url(HMAC-SHA256(key = hash, "sandpiper listen secret v1")), 43 characters after the prefix (kept as it
 *   always was, so receivers configured with it keep working; Standard Webhooks libraries take it written as
 *   standard base64, lib/contract/callbacks/signing.ts standardWebhooksSecret);
 * - generation n >= 1 (every key made now starts at 1): `whsec_` + the first 44 base64 characters of HMAC-SHA512(key = hash,
 *   "sandpiper listen secret v2/<n>/<i>") for the first i = 0, 1, ... whose 33 bytes encode with letters and digits
 *   only: the same text is then also a Standard Webhooks secret (docs/callbacks.md "Standard Webhooks").
 * The same for every start of a listener with the same key and generation, so a receiver configured with it keeps
 * working; the service can compute it too (to tell a merchant which secret a signature was made with), but not the key.
 * @throws RangeError when generation is not a non-negative integer.
 */
export function listenerSecretFromKeyHash(keyHash: string, generation = 0): string {
  if (!Number.isSafeInteger(generation) || generation < 0) throw new RangeError("generation must be a non-negative integer");
  if (generation === 0) return `whsec_${createHmac("sha256", keyHash).update("sandpiper listen secret v1").digest("base64url")}`;
  for (let i = 0; ; i++) {
    const text = createHmac("sha512", keyHash).update(`sandpiper listen secret v2/${generation}/${i}`).digest().subarray(0, 33).toString("base64");
    if (/^[A-Za-z0-9]{44}$/.test(text)) return `whsec_${text}`;
  }
}

/** The listener secret of an API key at a generation (see {@link listenerSecretFromKeyHash}). */
export function listenerSecret(apiKey: string, generation = 0): string {
  return listenerSecretFromKeyHash(createHash("sha256").update(apiKey).digest("hex"), generation);
}

/**
 * Which listener secret generations sign an API key's forwards at `now` (docs/callbacks.md "Rotating the secret"):
 * the key's generation and, while a rotation's overlap runs, the one before it with the overlap's end (ISO 8601 UTC).
 * Generations, never secrets: the listener derives each secret from its key. The stream sends it; the API answers it.
 */
export type ListenerSigning = { generation: number; previousGeneration: number | null; previousUntil: string | null };

/**
 * {@link ListenerSigning} of an API key row at `now`.
 * @param row the key's `listenerSecretGeneration` and `previousListenerSecretUntil`.
 */
export function listenerSigningOf(row: { listenerSecretGeneration: number; previousListenerSecretUntil: Date | null }, now: Date): ListenerSigning {
  const until = row.previousListenerSecretUntil;
  const running = row.listenerSecretGeneration > 0 && until !== null && until > now;
  return {
    generation: row.listenerSecretGeneration,
    previousGeneration: running ? row.listenerSecretGeneration - 1 : null,
    previousUntil: running ? until.toISOString() : null,
  };
}
