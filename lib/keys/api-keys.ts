import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { parseRow, type Db } from "@/lib/db";
import type { Merchant } from "@/lib/generated/prisma/client";
import { apiError } from "@/lib/errors";

/** docs/api.md "Authentication" 3: the scopes an API key can carry. */
export const SCOPES = ["payments:read", "payments:create", "sandbox:simulate"] as const;
export type Scope = (typeof SCOPES)[number];

export const API_KEY_PREFIX = "sk_sandbox_";
/** docs/api.md "Authentication" 5: a key is valid 90 days. */
export const API_KEY_VALIDITY_DAYS = 90;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** base62 text of random bytes (big-endian integer). */
function base62(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString("hex")}`);
  let out = "";
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(43, "0");
}

/** SHA-256 hex of a key: the only form in which a key is stored. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/**
 * Issues a new API key (docs/decisions.md: `sk_sandbox_` + 32 random bytes in base62). Returns the secret once;
 * only its hash and a display prefix are stored. Creating a key never revokes older keys.
 */
export async function issueApiKey(
  db: Db,
  input: { merchantId: string; ownerId: string; scopes: readonly Scope[]; name?: string; now?: Date },
): Promise<{ id: string; key: string; prefix: string; expiresAt: Date }> {
  const key = API_KEY_PREFIX + base62(randomBytes(32));
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + API_KEY_VALIDITY_DAYS * 24 * 3600 * 1000);
  const prefix = key.slice(0, API_KEY_PREFIX.length + 6);
  const row = await db.apiKey.create({
    data: {
      merchantId: input.merchantId,
      ownerId: input.ownerId,
      scopes: [...input.scopes],
      name: input.name ?? "",
      prefix,
      hash: hashApiKey(key),
      expiresAt,
      createdAt: now,
    },
  });
  return { id: row.id, key, prefix, expiresAt };
}

/**
 * The merchant of an authenticated key: the `merchants` columns a request needs, read in the key's statement as
 * JSON and checked by `parseRow` (lib/db.ts), so a renamed or retyped column fails loudly instead of arriving as
 * undefined.
 */
const KeyMerchant = z.object({
  id: z.string(),
  name: z.string(),
  enabledCurrencies: z.array(z.string()),
  bankTransferDepositMinutes: z.number().int(),
  gatewayDepositMinutes: z.number().int(),
  withdrawalApprovalMinutes: z.number().int(),
  storeCheckoutMinutes: z.number().int(),
  checkoutSessionMinutes: z.number().int(),
  requiredCustomerFields: z.array(z.string()),
  storeRequiresCountry: z.boolean(),
  amountEntryEnabled: z.boolean(),
  defaultCommissionBps: z.number().int(),
  callbackUrl: z.string().nullable(),
  chaosMode: z.boolean(),
}) satisfies z.ZodType<Partial<Merchant>>;

export type AuthenticatedKey = { id: string; scopes: string[]; ownerId: string; merchant: z.output<typeof KeyMerchant> };

const LAST_USED_RESOLUTION_MS = 60_000;

/** The authentication statement's row, checked at the boundary; `merchant` is the merchants row as JSON (column names). */
const KeyRow = z.object({
  id: z.string(),
  scopes: z.array(z.string()),
  ownerId: z.string(),
  expiresAt: z.date(),
  revokedAt: z.date().nullable(),
  lastUsedAt: z.date().nullable(),
  ownerActive: z.boolean(),
  merchantStatus: z.string(),
  merchant: z.record(z.string(), z.unknown()),
});

/**
 * Authenticates `Authorization: Bearer <API_KEY>` (docs/api.md "Authentication" 1-5).
 * @throws ApiError 401 INVALID_API_KEY for a missing, malformed, unknown, expired or revoked key, a
 *   deactivated key owner, or an inactive merchant.
 */
export async function authenticateApiKey(db: Db, authorization: string | null, now = new Date()): Promise<AuthenticatedKey> {
  // The scheme name is case-insensitive in HTTP ("bearer" is "Bearer"), followed by one or more spaces.
  const match = authorization?.match(/^Bearer +([A-Za-z0-9_]{1,200})$/i);
  if (!match || !match[1].startsWith(API_KEY_PREFIX)) {
    throw apiError("INVALID_API_KEY", "missing or malformed API key; send Authorization: Bearer <API_KEY>", {
      "WWW-Authenticate": "Bearer",
    });
  }
  // One round trip (key, owner and merchant): this runs before every /v1 request.
  const [found] = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT k.id, k.scopes, k.owner_id AS "ownerId", k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt",
           k.last_used_at AS "lastUsedAt", u.active AS "ownerActive", m.status::text AS "merchantStatus",
           to_jsonb(m) AS merchant
    FROM api_keys k JOIN console_users u ON u.id = k.owner_id JOIN merchants m ON m.id = k.merchant_id
    WHERE k.hash = ${hashApiKey(match[1])}`;
  const row = found ? KeyRow.parse(found) : undefined;
  if (!row || row.revokedAt || row.expiresAt <= now || !row.ownerActive || row.merchantStatus !== "ACTIVE") {
    throw apiError("INVALID_API_KEY", "the API key is invalid, expired or revoked, or the merchant is inactive", {
      "WWW-Authenticate": "Bearer",
    });
  }
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { id: row.id, scopes: row.scopes, ownerId: row.ownerId, merchant: parseRow(KeyMerchant, row.merchant) };
}
