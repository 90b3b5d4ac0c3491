import { systemNow } from "@/lib/platform/clock";
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type pg from "pg";
import { getPool, parseRow, query, type Db } from "@/lib/platform/db";
import { Prisma, type Merchant } from "@/lib/platform/generated/prisma/client";
import { apiError } from "@/lib/contract/errors";
import { Customer } from "@/lib/contract/schemas/api/common";

/** docs/api.md "Authentication" 3: the scopes an API key can carry. */
export const SCOPES = ["payments:read", "payments:create", "sandbox:simulate"] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * What each scope allows, in words: the one table behind the console's key form and docs/api.md "Authentication" 3
 * (lib/domain/keys/scopes.test.ts checks that the docs say the same, and that each endpoint of the operations registry
 * is in the words of its scope).
 */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "payments:read":
    "read payments, checkout sessions, events and the request log; follow events (sandpiper listen), redeliver them, and rotate the key's own listener secret",
  "payments:create": "create payments, withdrawals, store payments and checkout sessions",
  "sandbox:simulate":
    "drive the sandbox: conclude or expire test payments, the other test helpers (a customer's and the store's steps, a callback attempt now, fast retries), the sandbox clock, scenario rules, the callback secret and its rotation, and recording sandpiper listen's forwards",
};

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

/** The first characters of a key, as the console shows it (`sk_sandbox_` and 6 more); never more of the secret. */
export function keyDisplayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 6);
}

/**
 * Issues a new API key (docs/api.md "Authentication"; the secret is `sk_sandbox_` + 32 random bytes in base62). Returns the secret once;
 * only its hash and a display prefix are stored. Creating a key never revokes older keys.
 */
export async function issueApiKey(
  db: Db,
  input: { merchantId: string; ownerId: string; scopes: readonly Scope[]; name?: string; now?: Date },
): Promise<{ id: string; key: string; prefix: string; expiresAt: Date }> {
  const { key, values } = newApiKey(input);
  const row = await db.apiKey.create({ data: { merchantId: input.merchantId, ownerId: input.ownerId, ...values } });
  return { id: row.id, key, prefix: values.prefix, expiresAt: values.expiresAt };
}

/**
 * A new key's secret and the columns stored of it (Prisma's field names; docs/api.md "Authentication"): its scopes,
 * name, display prefix, SHA-256 hash, and its expiry {@link API_KEY_VALIDITY_DAYS} days after `now` (real time,
 * default the system clock's). The one recipe of {@link issueApiKey} and of the sandbox's one-statement merchant make.
 */
export function newApiKey(input: { scopes: readonly Scope[]; name?: string; now?: Date }) {
  const key = API_KEY_PREFIX + base62(randomBytes(32));
  const now = input.now ?? systemNow();
  const values = {
    scopes: [...input.scopes],
    name: input.name ?? "",
    prefix: keyDisplayPrefix(key),
    hash: hashApiKey(key),
    expiresAt: new Date(now.getTime() + API_KEY_VALIDITY_DAYS * 24 * 3600 * 1000),
    createdAt: now,
  };
  return { key, values };
}

/**
 * The merchant of an authenticated key: the `merchants` columns a request needs, read in the key's statement as
 * JSON and checked by `parseRow` (lib/platform/db.ts), so a renamed or retyped column fails loudly instead of arriving as
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
  /** The customer members the merchant requires (docs/api.md "Customer"): names of Customer's members. */
  requiredCustomerFields: z.array(Customer.keyof()),
  storeRequiresCountry: z.boolean(),
  amountEntryEnabled: z.boolean(),
  defaultCommissionBps: z.number().int(),
  callbackUrl: z.string().nullable(),
  chaosMode: z.boolean(),
  /** The sandbox clock's offset in ms (docs/api.md "Sandbox clock"); 0 = the real clock. */
  clockOffsetMs: z
    .number()
    .int()
    .nonnegative()
    .transform((n) => BigInt(n)),
}) satisfies z.ZodType<Partial<Merchant>>;

export type AuthenticatedKey = { id: string; prefix: string; scopes: string[]; ownerId: string; merchant: z.output<typeof KeyMerchant> };

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The key's columns of the authentication statement's row, checked at the boundary (the endpoint's extra columns
 * are left out); `keyMerchant` is the merchants row as JSON (column names).
 */
const KeyRow = z.object({
  keyId: z.string(),
  keyScopes: z.array(z.string()),
  keyOwnerId: z.string(),
  keyExpiresAt: z.date(),
  keyRevokedAt: z.date().nullable(),
  keyLastUsedAt: z.date().nullable(),
  keyOwnerActive: z.boolean(),
  keyMerchantStatus: z.string(),
  keyMerchant: z.record(z.string(), z.unknown()),
});

/**
 * Runs an endpoint's `load` (see {@link RequestReads}) again on its own for the key's merchant: for a merchant whose
 * sandbox clock is moved, whose reads depend on the time (docs/api.md "Sandbox clock"). One round trip.
 * @returns the load's columns (an empty row when it returned none).
 */
export async function readLoad(merchantId: string, load: Prisma.Sql, pool: pg.Pool = getPool()): Promise<Record<string, unknown>> {
  const [row] = await query(Prisma.sql`SELECT loaded.* FROM merchants m LEFT JOIN LATERAL (${load}) loaded ON true WHERE m.id = ${merchantId}::uuid`, pool);
  return row ?? {};
}

/** What a request's one authentication statement may read besides the key (docs/architecture.md "Hot paths"). */
export type RequestReads = {
  /** The source IP to look up on the merchant's server allow-list (docs/api.md "Authentication" 6). */
  allowListIp?: string | null;
  /** Extra columns: a SELECT that can refer to the key's merchant as `m` (its columns, e.g. `m.id`); run as a LATERAL join. */
  load?: Prisma.Sql | null;
  /** Extra columns computed from the key's merchant `m`, as `expression AS name` items (e.g. its idempotency record). */
  columns?: Prisma.Sql[];
};

/** An authenticated request: the key, whether the source IP is allowed, and the endpoint's extra columns. */
export type AuthenticatedRequest = { apiKey: AuthenticatedKey; ipAllowed: boolean; row: Record<string, unknown> };

const INVALID = () => apiError("INVALID_API_KEY", "the API key is invalid, expired or revoked, or the merchant is inactive", { "WWW-Authenticate": "Bearer" });

/**
 * Authenticates `Authorization: Bearer <API_KEY>` (docs/api.md "Authentication" 1-6) in one round trip that also
 * reads what the endpoint asks for (`reads`): the allow-list match, extra columns and a LATERAL `load`, all scoped to
 * the key's merchant. The key's last use is written at most once a minute. `pool`: the service's (tests pass another).
 * @returns `row`: every column of the statement (the extra ones under their own names)
 * @throws ApiError 401 INVALID_API_KEY for a missing, malformed, unknown, expired or revoked key, a deactivated key
 *   owner, or an inactive merchant.
 */
export async function authenticateRequest(
  authorization: string | null,
  now: Date,
  reads: RequestReads = {},
  pool: pg.Pool = getPool(),
): Promise<AuthenticatedRequest> {
  // The scheme name is case-insensitive in HTTP ("bearer" is "Bearer"), followed by one or more spaces.
  const presented = authorization?.match(/^Bearer +([A-Za-z0-9_]{1,200})$/i)?.[1];
  if (!presented || !presented.startsWith(API_KEY_PREFIX)) {
    throw apiError("INVALID_API_KEY", "missing or malformed API key; send Authorization: Bearer <API_KEY>", {
      "WWW-Authenticate": "Bearer",
    });
  }
  const ipAllowed =
    reads.allowListIp !== undefined
      ? Prisma.sql`EXISTS (SELECT 1 FROM allowed_ips a WHERE a.merchant_id = m.id AND a.address = ${reads.allowListIp}) AS "ipAllowed"`
      : Prisma.sql`false AS "ipAllowed"`;
  const extra = [ipAllowed, ...(reads.columns ?? [])];
  const [found] = await query(
    Prisma.sql`
    SELECT k.id AS "keyId", k.scopes AS "keyScopes", k.owner_id AS "keyOwnerId", k.expires_at AS "keyExpiresAt",
           k.revoked_at AS "keyRevokedAt", k.last_used_at AS "keyLastUsedAt", u.active AS "keyOwnerActive",
           m.status::text AS "keyMerchantStatus", to_jsonb(m) AS "keyMerchant", ${Prisma.join(extra, ", ")}
           ${reads.load ? Prisma.sql`, loaded.*` : Prisma.empty}
    FROM api_keys k JOIN console_users u ON u.id = k.owner_id JOIN merchants m ON m.id = k.merchant_id
    ${reads.load ? Prisma.sql`LEFT JOIN LATERAL (${reads.load}) loaded ON true` : Prisma.empty}
    WHERE k.hash = ${hashApiKey(presented)}`,
    pool,
  );
  if (!found) throw INVALID();
  const key = KeyRow.parse(found);
  if (key.keyRevokedAt || key.keyExpiresAt <= now || !key.keyOwnerActive || key.keyMerchantStatus !== "ACTIVE") throw INVALID();
  if (!key.keyLastUsedAt || now.getTime() - key.keyLastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await query(Prisma.sql`UPDATE api_keys SET last_used_at = ${now} WHERE id = ${key.keyId}::uuid`, pool);
  }
  return {
    apiKey: {
      id: key.keyId,
      prefix: keyDisplayPrefix(presented),
      scopes: key.keyScopes,
      ownerId: key.keyOwnerId,
      merchant: parseRow(KeyMerchant, key.keyMerchant),
    },
    ipAllowed: found.ipAllowed === true,
    row: found,
  };
}
