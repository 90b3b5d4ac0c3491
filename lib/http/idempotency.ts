import { createHash } from "node:crypto";
import { transaction, type Db, type Tx } from "@/lib/db";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { apiError } from "@/lib/errors";

/** docs/api.md "Limits": Idempotency-Key 8 to 128 characters of [-a-zA-Z0-9_.:]. */
export const IDEMPOTENCY_KEY_PATTERN = /^[-a-zA-Z0-9_.:]{8,128}$/;

/**
 * Validates the Idempotency-Key header.
 * @throws ApiError 400 VALIDATION_ERROR when missing or malformed.
 */
export function requireIdempotencyKey(value: string | null): string {
  if (value === null || value === "") throw apiError("VALIDATION_ERROR", "the Idempotency-Key header is required on this endpoint");
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw apiError("VALIDATION_ERROR", "Idempotency-Key must be 8 to 128 characters of letters, digits, '-', '_', '.' and ':'");
  }
  return value;
}

/** Canonical JSON: object keys sorted recursively, no insignificant whitespace. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 hex of the canonical JSON of a parsed body. */
export function bodyHash(body: unknown): string {
  return createHash("sha256").update(canonicalJson(body ?? null)).digest("hex");
}

export type IdempotencyScope = { merchantId: string; key: string; method: string; path: string; hash: string };
export type StoredResponse = { status: number; body: unknown; resourceId: string | null };

async function findRecord(db: Db, scope: IdempotencyScope): Promise<StoredResponse | null> {
  // Raw SQL: this lookup runs on every idempotent request (twice for a first request), so it skips the ORM's
  // per-query compilation.
  const [record] = await db.$queryRaw<{ method: string; path: string; bodyHash: string; status: number; body: unknown; resourceId: string | null }[]>`
    SELECT method, path, body_hash AS "bodyHash", response_status AS status, response_body AS body, resource_id AS "resourceId"
    FROM idempotency_records WHERE merchant_id = ${scope.merchantId}::uuid AND key = ${scope.key}`;
  if (!record) return null;
  if (record.method !== scope.method || record.path !== scope.path || record.bodyHash !== scope.hash) {
    throw apiError("IDEMPOTENCY_CONFLICT", "this Idempotency-Key was already used with a different request; use a new key for a new request");
  }
  // The answer is kept as its JSON text (a jsonb string), so a replay lists members in the first answer's order;
  // records written as jsonb objects (member order not kept) are still read.
  const body = typeof record.body === "string" ? JSON.parse(record.body) : record.body;
  return { status: record.status, body, resourceId: record.resourceId };
}

/**
 * Runs `execute` at most once per (merchant, key) (docs/api.md "Idempotency"; docs/architecture.md "Consistency").
 * A completed record is replayed without a transaction; otherwise one transaction takes a transaction-level
 * advisory lock on the key, re-checks, runs `execute` and stores its response, so concurrent identical
 * requests create exactly one record: the others wait on the lock and replay. Only successful responses
 * are stored; an error rolls everything back and the same key may be retried.
 * @throws ApiError 409 IDEMPOTENCY_CONFLICT when the key was used for another method, path or body.
 */
export async function runIdempotent(
  db: PrismaClient,
  scope: IdempotencyScope,
  execute: (tx: Tx) => Promise<StoredResponse>,
  txOptions: { maxWait: number; timeout: number },
): Promise<{ replayed: boolean; response: StoredResponse }> {
  const existing = await findRecord(db, scope);
  if (existing) return { replayed: true, response: existing };
  return transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${scope.merchantId}:${scope.key}`}, 0))`;
    const raced = await findRecord(tx, scope);
    if (raced) return { replayed: true, response: raced };
    const response = await execute(tx);
    const stored = JSON.stringify(response.body, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
    await tx.$executeRaw`
      INSERT INTO idempotency_records (id, merchant_id, key, method, path, body_hash, response_status, response_body, resource_id)
      VALUES (gen_random_uuid(), ${scope.merchantId}::uuid, ${scope.key}, ${scope.method}, ${scope.path}, ${scope.hash},
              ${response.status}, to_jsonb(${stored}::text), ${response.resourceId}::uuid)`;
    return { replayed: false, response };
  }, { db, ...txOptions });
}
