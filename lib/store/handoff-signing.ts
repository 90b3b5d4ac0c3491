// Signing and verification of store handoffs (SPEC "What the service does" 4: a signed handoff to the
// store). HMAC-SHA256 over the exact JSON text, keyed with the store handoff key; freshness from the
// signed issuedAt.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/lib/db";
import { AMOUNT_PATTERN, CURRENCIES, fromMinor } from "@/lib/money/currency";
import type { HandoffPayload, HandoffRefusal, SignedHandoff } from "@/lib/store/connector";

/** A handoff older than this (by its signed issuedAt) is stale: 60 seconds. */
export const HANDOFF_MAX_AGE_SECONDS = 60;
/** Clock skew tolerated for an issuedAt in the future: 30 seconds. */
export const HANDOFF_MAX_SKEW_SECONDS = 30;
/** Shortest accepted STORE_HANDOFF_SECRET, in characters. */
export const MIN_HANDOFF_SECRET_LENGTH = 32;

const KEY_SETTING = "store-handoff-key";
const g = globalThis as unknown as { __sandpiperHandoffKey?: Buffer };

/**
 * The store handoff key (bytes). STORE_HANDOFF_SECRET when set (at least 32 characters; its UTF-8
 * bytes); otherwise 32 random bytes generated on first use and kept in the database (settings row
 * `store-handoff-key`, like the merchants' callback secrets), so every instance of the service signs and
 * verifies with the same key. Cached for the life of the process. Never logged.
 * @throws Error when STORE_HANDOFF_SECRET is set but shorter than 32 characters.
 */
export async function handoffKey(db: Db): Promise<Buffer> {
  const fromEnv = process.env.STORE_HANDOFF_SECRET;
  if (fromEnv !== undefined && fromEnv !== "") {
    if (fromEnv.length < MIN_HANDOFF_SECRET_LENGTH) throw new Error(`STORE_HANDOFF_SECRET must be at least ${MIN_HANDOFF_SECRET_LENGTH} characters`);
    return Buffer.from(fromEnv, "utf8");
  }
  if (g.__sandpiperHandoffKey) return g.__sandpiperHandoffKey;
  const generated = randomBytes(32).toString("base64url");
  // The first instance to get here stores its key; every other one reads that key.
  await db.$executeRaw`INSERT INTO settings (key, value, updated_at) VALUES (${KEY_SETTING}, ${JSON.stringify({ key: generated })}::jsonb, now()) ON CONFLICT (key) DO NOTHING`;
  const row = await db.setting.findUniqueOrThrow({ where: { key: KEY_SETTING } });
  g.__sandpiperHandoffKey = Buffer.from((row.value as { key: string }).key, "base64url");
  return g.__sandpiperHandoffKey;
}

/** Lowercase hex HMAC-SHA256 of `body` with `key`. */
function hmac(key: Buffer, body: string): string {
  return createHmac("sha256", key).update(body, "utf8").digest("hex");
}

/**
 * Signs a handoff: the payload is written once as JSON text and that exact text is signed.
 * @returns `{ body, signature }` (signature: 64 lowercase hex characters)
 */
export function signHandoff(payload: HandoffPayload, key: Buffer): SignedHandoff {
  const body = JSON.stringify(payload);
  return { body, signature: hmac(key, body) };
}

const IsoInstant = z.iso.datetime();
const Payload = z.strictObject({
  v: z.literal(1),
  reference: z.string().min(1).max(120),
  paymentId: z.uuid(),
  chargeMinor: z.string().regex(/^[1-9][0-9]{0,11}$/),
  chargeAmount: z.string().regex(AMOUNT_PATTERN),
  chargeCurrency: z.literal("AED"),
  amount: z.string().regex(AMOUNT_PATTERN),
  currency: z.enum(CURRENCIES),
  expiresAt: IsoInstant,
  issuedAt: IsoInstant,
});

export type VerifiedHandoff = { ok: true; payload: HandoffPayload } | { ok: false; reason: HandoffRefusal };

/**
 * The store's check of a handoff: the signature over the exact body text (constant-time comparison),
 * then the payload shape (chargeAmount must equal chargeMinor), then freshness at `now`: issuedAt at most
 * 60 s old and at most 30 s ahead, and expiresAt still in the future.
 * @returns the payload, or the refusal reason BAD_SIGNATURE (tampered or wrongly keyed), MALFORMED or STALE.
 */
export function verifyHandoff(signed: SignedHandoff, key: Buffer, now: Date): VerifiedHandoff {
  if (typeof signed?.body !== "string" || typeof signed.signature !== "string" || !/^[0-9a-f]{64}$/.test(signed.signature)) {
    return { ok: false, reason: "BAD_SIGNATURE" };
  }
  const expected = Buffer.from(hmac(key, signed.body), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signed.signature, "hex"))) return { ok: false, reason: "BAD_SIGNATURE" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(signed.body);
  } catch {
    return { ok: false, reason: "MALFORMED" };
  }
  const result = Payload.safeParse(parsed);
  if (!result.success || fromMinor(BigInt(result.data.chargeMinor)) !== result.data.chargeAmount) return { ok: false, reason: "MALFORMED" };
  const payload = result.data as HandoffPayload;
  const ageMs = now.getTime() - Date.parse(payload.issuedAt);
  if (ageMs > HANDOFF_MAX_AGE_SECONDS * 1000 || -ageMs > HANDOFF_MAX_SKEW_SECONDS * 1000) return { ok: false, reason: "STALE" };
  if (Date.parse(payload.expiresAt) <= now.getTime()) return { ok: false, reason: "STALE" };
  return { ok: true, payload };
}
