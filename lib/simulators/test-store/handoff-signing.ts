// Signing and verification of store handoffs (docs/api.md "Overview" 4: a signed handoff to the
// store): a JWS (HS256) made and checked by jose, keyed with the store handoff key; freshness from its
// issued-at and expiry claims.
import { randomBytes, randomUUID } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import type { Db } from "@/lib/platform/db";
import { AMOUNT_PATTERN, CURRENCIES, fromMinor } from "@/lib/contract/money/currency";
import type { HandoffPayload, HandoffRefusal, SignedHandoff } from "@/lib/simulators/test-store/connector";
import { config } from "@/lib/platform/config";
import { parseStored } from "@/lib/contract/schemas/stored/parse";
import { processState } from "@/lib/platform/process-state";

/** A handoff older than this (by its signed issuedAt) is stale: 60 seconds. */
export const HANDOFF_MAX_AGE_SECONDS = 60;
/** Clock skew tolerated for an issuedAt in the future: 30 seconds. */
export const HANDOFF_MAX_SKEW_SECONDS = 30;

const KEY_SETTING = "store-handoff-key";
/** The stored handoff key (`settings.value` of KEY_SETTING): base64url text. */
const StoredKey = z.object({ key: z.string().min(1) });
const state = processState();

/**
 * The store handoff key (bytes). STORE_HANDOFF_SECRET when set (at least 32 characters; its UTF-8
 * bytes); otherwise 32 random bytes generated on first use and kept in the database (settings row
 * `store-handoff-key`, like the merchants' callback secrets), so every instance of the service signs and
 * verifies with the same key. Cached for the life of the process. Never logged. A shorter STORE_HANDOFF_SECRET
 * stops the service start (lib/platform/config.ts).
 */
export async function handoffKey(db: Db): Promise<Buffer> {
  const fromEnv = config().STORE_HANDOFF_SECRET;
  if (fromEnv !== undefined) return Buffer.from(fromEnv, "utf8");
  if (state.handoffKey) return state.handoffKey;
  const generated = randomBytes(32).toString("base64url");
  // The first instance to get here stores its key; every other one reads that key.
  await db.$executeRaw`INSERT INTO settings (key, value, updated_at) VALUES (${KEY_SETTING}, ${JSON.stringify({ key: generated })}::jsonb, now()) ON CONFLICT (key) DO NOTHING`;
  const row = await db.setting.findUniqueOrThrow({ where: { key: KEY_SETTING } });
  state.handoffKey = Buffer.from(parseStored(StoredKey, row.value, "settings.value (handoff key)").key, "base64url");
  return state.handoffKey;
}

/** Issuer and audience claims of a handoff token: Sandpiper signs it, only the store accepts it. */
export const HANDOFF_ISSUER = "sandpiper";
export const HANDOFF_AUDIENCE = "sandpiper-store";

/**
 * Signs a handoff as a compact JWS (HS256, `typ: "JWT"`) with jose. The claims are the payload's business
 * members plus the registered claims `iat` (payload.issuedAt, whole seconds), `exp` (payload.expiresAt, whole
 * seconds, rounded down), `iss` "sandpiper", `aud` "sandpiper-store" and a random `jti` (every handoff token is
 * different, also two signed within one second).
 * @returns `{ token }`
 */
export async function signHandoff(payload: HandoffPayload, key: Buffer): Promise<SignedHandoff> {
  const { issuedAt, expiresAt, ...claims } = payload;
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt(Math.floor(Date.parse(issuedAt) / 1000))
    .setExpirationTime(Math.floor(Date.parse(expiresAt) / 1000))
    .setIssuer(HANDOFF_ISSUER)
    .setAudience(HANDOFF_AUDIENCE)
    .setJti(randomUUID())
    .sign(key);
  return { token };
}

const Claims = z.strictObject({
  v: z.literal(1),
  reference: z.string().min(1).max(120),
  paymentId: z.uuid(),
  chargeMinor: z.string().regex(/^[1-9][0-9]{0,11}$/),
  chargeAmount: z.string().regex(AMOUNT_PATTERN),
  chargeCurrency: z.literal("AED"),
  amount: z.string().regex(AMOUNT_PATTERN),
  currency: z.enum(CURRENCIES),
  iat: z.number().int(),
  exp: z.number().int(),
  iss: z.literal(HANDOFF_ISSUER),
  aud: z.literal(HANDOFF_AUDIENCE),
  jti: z.uuid(),
});

export type VerifiedHandoff = { ok: true; payload: HandoffPayload } | { ok: false; reason: HandoffRefusal };

/**
 * The store's check of a handoff token, with jose: HS256 only, the signature over the token's exact bytes,
 * `exp` after `now`, issuer and audience; then the claims' shape (chargeAmount must equal chargeMinor) and
 * freshness: `iat` at most 60 s before `now` and at most 30 s after it.
 * @returns the payload (issuedAt and expiresAt from `iat` and `exp`), or the refusal reason BAD_SIGNATURE
 *   (tampered or signed with another key), MALFORMED (not a compact JWS, another algorithm, wrong issuer or
 *   audience, or claims of the wrong shape) or STALE (expired, too old, or from the future).
 */
export async function verifyHandoff(signed: SignedHandoff, key: Buffer, now: Date): Promise<VerifiedHandoff> {
  if (typeof signed?.token !== "string") return { ok: false, reason: "MALFORMED" };
  let claims: unknown;
  try {
    ({ payload: claims } = await jwtVerify(signed.token, key, { algorithms: ["HS256"], currentDate: now, issuer: HANDOFF_ISSUER, audience: HANDOFF_AUDIENCE }));
  } catch (error) {
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) return { ok: false, reason: "BAD_SIGNATURE" };
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: "STALE" };
    return { ok: false, reason: "MALFORMED" };
  }
  const result = Claims.safeParse(claims);
  if (!result.success || fromMinor(BigInt(result.data.chargeMinor)) !== result.data.chargeAmount) return { ok: false, reason: "MALFORMED" };
  const { iat, exp, iss: _iss, aud: _aud, jti: _jti, ...rest } = result.data;
  const ageMs = now.getTime() - iat * 1000;
  if (ageMs > HANDOFF_MAX_AGE_SECONDS * 1000 || -ageMs > HANDOFF_MAX_SKEW_SECONDS * 1000) return { ok: false, reason: "STALE" };
  return { ok: true, payload: { ...rest, expiresAt: new Date(exp * 1000).toISOString(), issuedAt: new Date(iat * 1000).toISOString() } };
}
