// The signing secret of `sandpiper listen` forwards (docs/callbacks.md "sandpiper listen"). Imports only
// node:crypto: the listener process and the service both use it.
import { createHash, createHmac } from "node:crypto";

/**
 * The listener secret of an API key, from the key's SHA-256 hash (hex, as the service stores it):
 * `whsec_` + base64url(HMAC-SHA256(key = hash, "sandpiper listen secret v1")), 43 characters after the prefix.
 * The same for every start of a listener with the same key, so a receiver configured with it keeps working;
 * the service can compute it too (to tell a merchant which secret a signature was made with), but not the key.
 */
export function listenerSecretFromKeyHash(keyHash: string): string {
  return `whsec_${createHmac("sha256", keyHash).update("sandpiper listen secret v1").digest("base64url")}`;
}

/** The listener secret of an API key (see {@link listenerSecretFromKeyHash}). */
export function listenerSecret(apiKey: string): string {
  return listenerSecretFromKeyHash(createHash("sha256").update(apiKey).digest("hex"));
}
