import { systemNow } from "@/lib/platform/clock";
import { z } from "zod";
import { writeAudit } from "@/lib/domain/audit";
import { assertMerchantAccess, auditActor, scopedMerchantId, type ConsoleActor } from "@/lib/domain/auth/actor";
import { checkboxGroup, optionalText } from "@/lib/contract/schemas/forms/fields";
import { issueApiKey, SCOPES } from "@/lib/domain/keys/api-keys";
import { parseRows, type Db, type Tx } from "@/lib/platform/db";
import { MerchantStatus } from "@/lib/platform/generated/prisma/enums";
import { apiError } from "@/lib/contract/errors";
import { isUuid } from "@/lib/contract/schemas/api/common";
import { pageOf } from "@/lib/contract/pagination";

export const NewKeyInput = z.object({
  name: optionalText(80),
  scopes: checkboxGroup(SCOPES).refine((s) => s.length > 0, { message: "choose at least one scope" }),
});

/** A key as the console lists it: never the secret or its hash. */
export type KeyView = {
  id: string;
  merchantId: string;
  merchantName: string;
  owner: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

/** "active", "revoked" or "expired" at `now`. */
export function keyState(key: Pick<KeyView, "revokedAt" | "expiresAt">, now = systemNow()): "active" | "revoked" | "expired" {
  if (key.revokedAt) return "revoked";
  return key.expiresAt <= now ? "expired" : "active";
}

const keySelect = {
  id: true,
  merchantId: true,
  name: true,
  prefix: true,
  scopes: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
  owner: { select: { username: true } },
  merchant: { select: { name: true } },
} as const;

type KeyRow = { owner: { username: string }; merchant: { name: string } } & Omit<KeyView, "owner" | "merchantName">;
const toView = ({ owner, merchant, ...k }: KeyRow): KeyView => ({ ...k, owner: owner.username, merchantName: merchant.name });

/** A page of API keys visible to the actor (MERCHANT: its merchant's; OPERATOR: all or one merchant's), newest first. */
export async function listKeys(db: Db, actor: ConsoleActor, q: { page: number; limit: number; merchantId?: string }) {
  const merchantId = scopedMerchantId(actor, q.merchantId);
  const where = merchantId ? { merchantId } : {};
  const [total, rows] = await Promise.all([
    db.apiKey.count({ where }),
    db.apiKey.findMany({ where, select: keySelect, orderBy: [{ createdAt: "desc" }, { id: "asc" }], skip: (q.page - 1) * q.limit, take: q.limit }),
  ]);
  return pageOf(rows.map(toView), total, q);
}

/**
 * One API key (without secret or hash).
 * @throws ApiError 404 NOT_FOUND for an unknown id, or another merchant's key for a MERCHANT user.
 */
export async function getKey(db: Db, actor: ConsoleActor, id: string): Promise<KeyView> {
  const merchantId = scopedMerchantId(actor);
  const row = isUuid(id) ? await db.apiKey.findFirst({ where: { id, ...(merchantId ? { merchantId } : {}) }, select: keySelect }) : null;
  if (!row) throw apiError("NOT_FOUND", "API key not found");
  return toView(row);
}

/** The row of {@link createKey}'s read of the merchant's `status::text` (a MerchantStatus). */
const MerchantStatusRow = z.object({ status: z.enum(MerchantStatus) });

/**
 * Creates an API key for the actor's own merchant, owned by the actor (docs/api.md "Authentication" 3, 5: scopes,
 * valid 90 days, older keys stay valid). Only MERCHANT users create keys: the key's owner is the identity that
 * creates payments with it. Returns the secret once; only the prefix and a hash are stored. Audited (without
 * the secret). An inactive merchant's users cannot create keys: deactivation revoked its keys, and a key made
 * meanwhile would come back to life at reactivation (docs/guides/console-for-operators.md "Console tour").
 * @throws ApiError 403 FORBIDDEN for operators; 409 INVALID_STATE while the merchant is inactive.
 * @throws ZodError when a row read does not match its schema (a schema drift)
 */
export async function createKey(tx: Tx, actor: ConsoleActor, input: z.output<typeof NewKeyInput>, now = systemNow()) {
  if (actor.role !== "MERCHANT" || !actor.merchantId) {
    throw apiError("FORBIDDEN", "API keys are created by the merchant's own users (the key's owner creates the payments)");
  }
  const [merchant] = parseRows(
    MerchantStatusRow,
    await tx.$queryRaw<Record<string, unknown>[]>`SELECT status::text FROM merchants WHERE id = ${actor.merchantId}::uuid FOR SHARE`,
  );
  if (merchant?.status !== "ACTIVE") {
    throw apiError("INVALID_STATE", "this merchant is inactive, so no API key can be created: an operator activates it first (its earlier keys stay revoked)");
  }
  const issued = await issueApiKey(tx, { merchantId: actor.merchantId, ownerId: actor.id, scopes: input.scopes, name: input.name ?? "", now });
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: "api_key.create",
      entity: "api_key",
      entityId: issued.id,
      merchantId: actor.merchantId,
      after: { name: input.name ?? "", prefix: issued.prefix, scopes: input.scopes, expiresAt: issued.expiresAt },
    },
    now,
  );
  return issued;
}

/**
 * Revokes one key (its next request gets 401 INVALID_API_KEY). MERCHANT users revoke their merchant's keys,
 * operators any key. Audited.
 * @throws ApiError 404 NOT_FOUND, 409 INVALID_STATE (already revoked)
 */
export async function revokeKey(tx: Tx, actor: ConsoleActor, input: { keyId: string; reason?: string }, now = systemNow()) {
  const key = isUuid(input.keyId) ? await tx.apiKey.findUnique({ where: { id: input.keyId } }) : null;
  if (!key) throw apiError("NOT_FOUND", "API key not found");
  assertMerchantAccess(actor, key.merchantId, "API key");
  if (key.revokedAt) throw apiError("INVALID_STATE", "the key is already revoked");
  const changed = await tx.apiKey.updateMany({ where: { id: key.id, revokedAt: null }, data: { revokedAt: now } });
  if (changed.count !== 1) throw apiError("INVALID_STATE", "the key is already revoked");
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: "api_key.revoke",
      entity: "api_key",
      entityId: key.id,
      merchantId: key.merchantId,
      before: { prefix: key.prefix, revokedAt: null },
      after: { prefix: key.prefix, revokedAt: now },
      reason: input.reason ?? null,
    },
    now,
  );
}

/**
 * Revokes every unrevoked key of a user (`ownerId`) or of a merchant (`merchantId`) (docs/api.md "Authentication" 5:
 * deactivating the merchant or changing the key holder's access revokes the related keys). Runs in the caller's
 * transaction; returns the revoked key ids.
 */
export async function revokeKeysOf(tx: Tx, holder: { ownerId: string } | { merchantId: string }, now: Date): Promise<string[]> {
  const keys = await tx.apiKey.findMany({ where: { ...holder, revokedAt: null }, select: { id: true } });
  if (keys.length) await tx.apiKey.updateMany({ where: { id: { in: keys.map((k) => k.id) } }, data: { revokedAt: now } });
  return keys.map((k) => k.id);
}
