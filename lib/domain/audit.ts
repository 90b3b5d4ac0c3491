import { z } from "zod";
import { systemNow } from "@/lib/platform/clock";
import type { Db, Tx } from "@/lib/platform/db";
import type { Prisma } from "@/lib/platform/generated/prisma/client";
import { pageOf } from "@/lib/contract/pagination";
import { parseStored } from "@/lib/contract/schemas/stored/parse";

/** Who made a change: a signed-in console user, or the service itself (id null). */
export type AuditActor = { id: string | null; username: string };

/** The service's own actor (sign-in lock-outs and other changes nobody clicked). */
export const SYSTEM_ACTOR: AuditActor = { id: null, username: "system" };

/**
 * The audit actor of a change made with an API key: the key's owner, named by the key's public prefix as the console's
 * API keys page shows it (`api key sk_sandbox_AbC123…`), never by its id or secret.
 */
export function apiKeyAuditActor(apiKey: { prefix: string; ownerId: string }): AuditActor {
  return { id: apiKey.ownerId, username: `api key ${apiKey.prefix}…` };
}

export type AuditEntry = {
  /** Dotted verb of the change, e.g. "merchant.activate", "api_key.revoke". */
  action: string;
  /** Table-level name of what changed, e.g. "merchant", "api_key", "pricing_profile_version". */
  entity: string;
  entityId?: string | null;
  /** The merchant the change belongs to (null for service-wide settings). */
  merchantId?: string | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
};

/** Members that never enter the audit log, whatever record they appear in (secrets and their hashes). */
const SECRET_MEMBERS = new Set(["callbackSecret", "previousCallbackSecret", "secret", "passwordHash", "password", "hash", "key", "token"]);

/**
 * A JSON-safe copy of a record for the audit log: bigint becomes decimal text, Date becomes ISO text,
 * secret members (callback secrets, password and key hashes, tokens) are replaced by "[redacted]".
 * Returns null for undefined/null.
 */
export function auditValue(value: unknown): Prisma.InputJsonValue | null {
  if (value === undefined || value === null) return null;
  const text = JSON.stringify(value, (k, v) => {
    if (SECRET_MEMBERS.has(k) && v !== null && v !== undefined) return "[redacted]";
    if (typeof v === "bigint") return v.toString();
    return v;
  });
  return JSON.parse(text) as Prisma.InputJsonValue;
}

/**
 * Appends one row to the audit log ("every mutating action is written to an append-only audit
 * log: who, when, what, before/after, reason"). Call it with the transaction that makes the change, so
 * the row exists exactly when the change does. The table refuses UPDATE and DELETE (prisma/migrations/20261124055000_database_guards/migration.sql).
 */
export async function writeAudit(tx: Tx, actor: AuditActor, entry: AuditEntry, now: Date = systemNow()): Promise<void> {
  const before = auditValue(entry.before);
  const after = auditValue(entry.after);
  await tx.auditLog.create({
    data: {
      actorId: actor.id,
      actorName: actor.username,
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId ?? null,
      merchantId: entry.merchantId ?? null,
      ...(before === null ? {} : { before }),
      ...(after === null ? {} : { after }),
      reason: entry.reason ?? null,
      createdAt: now,
    },
  });
}

export type AuditQuery = { page: number; limit: number; action?: string; actor?: string; merchantId?: string; entityId?: string };

/**
 * What `audit_log.before` and `.after` hold: a record's members as {@link auditValue} made them JSON-safe (writeAudit
 * stores an object or nothing; a missing side is NULL).
 */
export const AuditSnapshot = z.record(z.string(), z.unknown()).nullable();
export type AuditSnapshot = z.output<typeof AuditSnapshot>;

/** An actor name written before API-key actors were named by prefix: "api key <the key's id>". */
const KEY_ID_ACTOR = /^api key ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * A page of the audit log, newest first in the order the rows were written (recorded_at, the real clock: created_at is
 * a sandbox time for a change made under a moved clock; older rows without it last), with optional filters (action
 * prefix, actor name, merchant, entity id); `before` and `after` parsed as {@link AuditSnapshot}.
 * Rows written by an API key before keys were named by their public prefix ("api key <id>") are shown as the newer
 * ones are, "api key sk_sandbox_AbC123…" (the prefix of the keys page); the stored rows stay as they are.
 * @throws StoredDataError naming `audit_log.before` or `audit_log.after` when a row holds another shape (written by hand)
 */
export async function listAudit(db: Db, q: AuditQuery) {
  const where: Prisma.AuditLogWhereInput = {
    ...(q.action ? { action: { startsWith: q.action } } : {}),
    ...(q.actor ? { actorName: q.actor } : {}),
    ...(q.merchantId ? { merchantId: q.merchantId } : {}),
    ...(q.entityId ? { entityId: q.entityId } : {}),
  };
  const [total, rows] = await Promise.all([
    db.auditLog.count({ where }),
    db.auditLog.findMany({
      where,
      orderBy: [{ recordedAt: { sort: "desc", nulls: "last" } }, { createdAt: "desc" }, { id: "desc" }],
      skip: (q.page - 1) * q.limit,
      take: q.limit,
    }),
  ]);
  const keyIds = [...new Set(rows.flatMap((r) => KEY_ID_ACTOR.exec(r.actorName)?.[1] ?? []))];
  const prefixes = new Map(
    keyIds.length ? (await db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, prefix: true } })).map((k) => [k.id, k.prefix]) : [],
  );
  const items = rows.map((row) => {
    const prefix = prefixes.get(KEY_ID_ACTOR.exec(row.actorName)?.[1] ?? "");
    return {
      ...row,
      actorName: prefix ? `api key ${prefix}…` : row.actorName,
      before: parseStored(AuditSnapshot, row.before, "audit_log.before"),
      after: parseStored(AuditSnapshot, row.after, "audit_log.after"),
    };
  });
  return pageOf(items, total, q);
}
