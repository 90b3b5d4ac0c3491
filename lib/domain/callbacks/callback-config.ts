// A merchant's callback address and secret. docs/callbacks.md (address policy, secret shown only at
// configuration time, a new secret on every address change) and docs/architecture.md "Callbacks".
import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/platform/db";
import { apiError, fieldError } from "@/lib/contract/errors";
import { isUuid } from "@/lib/contract/schemas/api/common";
import { checkCallbackUrl, type CheckCallbackUrlOptions, type Resolver } from "@/lib/domain/callbacks/url-policy";
import { runtimeEnv } from "@/lib/platform/runtime-env";
import { config } from "@/lib/platform/config";
import { loopbackRefusal } from "@/lib/domain/addresses/loopback-rule.mjs";
import { loopbackAddressesAllowed } from "@/lib/domain/addresses/loopback";

/** Longest callback address accepted, in characters. */
export const MAX_CALLBACK_URL_LENGTH = 2048;
/**
 * Prefix of every callback secret: `whsec_` + 33 random bytes in base64 written with letters and digits only (44
 * characters), so that the same text is also a Standard Webhooks secret (docs/callbacks.md "Standard Webhooks").
 * Secrets made before are `whsec_` + 43 base64url characters and keep working.
 */
export const CALLBACK_SECRET_PREFIX = "whsec_";

/**
 * Why the service must not start with this environment, or null when it may: `CALLBACK_ALLOW_LOOPBACK=1`
 * together with `NODE_ENV=production` is refused (the one rule: lib/domain/addresses/loopback-rule.mjs). Read at run time
 * (see lib/platform/runtime-env.ts).
 */
export function loopbackAllowanceRefusal(): string | null {
  return loopbackRefusal(config().CALLBACK_ALLOW_LOOPBACK, runtimeEnv("NODE_ENV"));
}

/**
 * Options for {@link checkCallbackUrl} in this process: loopback receivers are allowed only with
 * `CALLBACK_ALLOW_LOOPBACK=1` and `NODE_ENV` other than production. Used when an address is saved and
 * again at send time.
 */
export function callbackUrlPolicy(): CheckCallbackUrlOptions {
  return { allowLoopback: loopbackAddressesAllowed() };
}

/**
 * The callback address rule in words, as this process applies it ({@link callbackUrlPolicy}; docs/callbacks.md and
 * docs/guides/receive-and-verify-callbacks.md "Receiving callbacks"): a public https address, and in local mode
 * (CALLBACK_ALLOW_LOOPBACK=1 outside production: `npm run start:local`, the test suites) an address on this machine too.
 * @param allowLoopback whether loopback receivers are allowed (default: this process's policy).
 * @returns one or two sentences for the console.
 */
export function callbackAddressRule(allowLoopback = callbackUrlPolicy().allowLoopback ?? false): string {
  const publicRule = "a public https address on port 443 whose DNS name resolves only to public addresses";
  return allowLoopback
    ? `The address must be ${publicRule}, or, because this service runs in local mode (CALLBACK_ALLOW_LOOPBACK=1), an http or https address on this machine (localhost, 127.0.0.1 or [::1], any port).`
    : `The address must be ${publicRule}.`;
}

/**
 * What the console says of a saved address's scheme, or null for https: an http address is accepted only in local
 * mode ({@link callbackAddressRule}), and refused at every send otherwise.
 */
export function savedAddressNote(url: string | null, allowLoopback = callbackUrlPolicy().allowLoopback ?? false): string | null {
  if (!url || !url.startsWith("http://")) return null;
  return allowLoopback
    ? "http on this machine: allowed because this service runs in local mode."
    : "http: this service is not in local mode, so every send to it is refused; save an https address.";
}

/**
 * A fresh callback secret: `whsec_` + 33 random bytes as 44 base64 characters, drawn again until none is `+`, `/`,
 * `-` or `_` (about four draws; 262 bits of entropy remain), so that base64 and base64url read the same bytes and
 * every Standard Webhooks library takes the secret as printed (docs/callbacks.md "Standard Webhooks").
 * @returns e.g. `whsec_Qm9yZWQ3dGhpc0lzQW5FeGFtcGxlU2VjcmV0MDEyMzQ1Njc4OWFi`.
 */
export function newCallbackSecret(): string {
  for (;;) {
    const text = randomBytes(33).toString("base64");
    if (/^[A-Za-z0-9]{44}$/.test(text)) return CALLBACK_SECRET_PREFIX + text;
  }
}

/**
 * Saves a merchant's callback address and generates a new callback secret (docs/callbacks.md: "The
 * secret is shown only at configuration time; changing the address generates a new secret"). Every save
 * generates a new secret, so saving the same address again replaces the secret at once (a rotation with an
 * overlap is lib/domain/callbacks/secret-rotation.ts) and ends any overlap. Deliveries still pending are signed with the new
 * secret on their next attempt (the signature is made at send time).
 *
 * The address must pass the address policy ({@link checkCallbackUrl}: https, port 443, a DNS name
 * resolving only to public addresses; loopback only under CALLBACK_ALLOW_LOOPBACK=1 outside production).
 * It is checked again, and the checked address pinned, at every send.
 *
 * @param db client or transaction.
 * @param input.merchantId the merchant (uuid).
 * @param input.url the absolute callback address, at most 2048 characters (surrounding spaces trimmed).
 * @param opts.resolve host name resolver (default: the system's DNS); tests stand in for DNS with it.
 * @returns `{ secret }`: the new secret, to be shown to the user this once and never again.
 * @throws ApiError 400 VALIDATION_ERROR "callbackUrl: <policy reason>" when the address is refused;
 *   ApiError 404 NOT_FOUND when the merchant does not exist. Nothing is changed on error.
 */
export async function setCallbackUrl(db: Db, input: { merchantId: string; url: string }, opts: { resolve?: Resolver } = {}): Promise<{ secret: string }> {
  if (!isUuid(input.merchantId)) throw apiError("NOT_FOUND", "merchant not found");
  const { url, secret } = await checkedCallbackAddress(input.url, opts);
  const changed = await db.merchant.updateMany({
    where: { id: input.merchantId },
    data: { callbackUrl: url, callbackSecret: secret, previousCallbackSecret: null, previousCallbackSecretUntil: null },
  });
  if (changed.count !== 1) throw apiError("NOT_FOUND", "merchant not found");
  return { secret };
}

/**
 * A callback address as {@link setCallbackUrl} saves it: `url` trimmed and checked by the address policy, with a new
 * secret. The one check of a console save and of a merchant the sandbox makes (lib/simulators/sandbox-merchants).
 * @returns `{ url, secret }`: the checked address as stored, and its new `whsec_` secret
 * @throws ApiError 400 VALIDATION_ERROR "callbackUrl: <policy reason>" when the address is refused
 */
export async function checkedCallbackAddress(input: unknown, opts: { resolve?: Resolver } = {}): Promise<{ url: string; secret: string }> {
  const url = typeof input === "string" ? input.trim() : "";
  if (url === "") throw fieldError("callbackUrl", "an address is required");
  if (url.length > MAX_CALLBACK_URL_LENGTH) {
    throw fieldError("callbackUrl", `at most ${MAX_CALLBACK_URL_LENGTH} characters`);
  }
  const check = await checkCallbackUrl(url, { ...callbackUrlPolicy(), resolve: opts.resolve });
  if (!check.ok) {
    const local = /^http:|^https?:\/\/(localhost|127\.|\[::1\]|10\.|192\.168\.)/i.test(url) || /non-public|raw IP|DNS name/.test(check.reason);
    const hint = local
      ? `; for a receiver on your own machine, run "sandpiper listen --forward-to <your local address>" (docs/guides/command-line.md "The sandpiper command")`
      : "";
    throw fieldError("callbackUrl", `${check.reason}${hint}`);
  }
  return { url: check.url.toString(), secret: newCallbackSecret() };
}

/**
 * Removes a merchant's callback address and secret. Later events are stored with delivery state
 * NOT_CONFIGURED; deliveries still pending become NOT_CONFIGURED at their next attempt.
 * @returns nothing.
 * @throws ApiError 404 NOT_FOUND when the merchant does not exist.
 */
export async function removeCallbackUrl(db: Db, input: { merchantId: string }): Promise<void> {
  if (!isUuid(input.merchantId)) throw apiError("NOT_FOUND", "merchant not found");
  const changed = await db.merchant.updateMany({
    where: { id: input.merchantId },
    data: { callbackUrl: null, callbackSecret: null, previousCallbackSecret: null, previousCallbackSecretUntil: null },
  });
  if (changed.count !== 1) throw apiError("NOT_FOUND", "merchant not found");
}
