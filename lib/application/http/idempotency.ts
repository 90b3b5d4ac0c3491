import { createHash } from "node:crypto";
import { z } from "zod";
import { getDb, parseRow, query, transaction, type Db, type Tx } from "@/lib/platform/db";
import { Prisma, type PrismaClient } from "@/lib/platform/generated/prisma/client";
import { apiError } from "@/lib/contract/errors";
import { uniqueViolation } from "@/lib/application/http/respond";
import { parseStored } from "@/lib/contract/schemas/stored/parse";

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
  return createHash("sha256")
    .update(canonicalJson(body ?? null))
    .digest("hex");
}

export type IdempotencyScope = { merchantId: string; key: string; method: string; path: string; hash: string };
export type StoredResponse = { status: number; body: unknown; resourceId: string | null };

/** The stored record's members, as both reads select them. */
const RECORD = Prisma.sql`jsonb_build_object('method', r.method, 'path', r.path, 'bodyHash', r.body_hash, 'status', r.response_status,
  'body', r.response_body, 'resourceId', r.resource_id)`;

/**
 * A column of a request's authentication statement (lib/domain/keys/api-keys.ts authenticateRequest): the record of
 * `key` for the key's merchant `m`, as JSON, or null; read it with {@link storedFromColumn}.
 */
export function idempotencyRecordColumn(key: string): Prisma.Sql {
  return Prisma.sql`(SELECT ${RECORD} FROM idempotency_records r WHERE r.merchant_id = m.id AND r.key = ${key}) AS "idempotencyRecord"`;
}

/** An idempotency record as {@link RECORD} reads it; `body` is the first answer (JSON text, or JSON of older records). */
const RecordRow = z.object({
  method: z.string(),
  path: z.string(),
  bodyHash: z.string(),
  status: z.int(),
  body: z.unknown(),
  resourceId: z.string().nullable(),
});

/**
 * The stored answer of a record read for `scope`, or null when there is none.
 * @throws ApiError 409 IDEMPOTENCY_CONFLICT when the key was used for another method, path or body.
 * @throws StoredDataError (lib/contract/schemas/stored/parse.ts) when the record does not match its schema
 */
export function storedFromColumn(scope: IdempotencyScope, record: unknown): StoredResponse | null {
  if (record === null || record === undefined) return null;
  const r = parseStored(RecordRow, record, "idempotency_records");
  if (r.method !== scope.method || r.path !== scope.path || r.bodyHash !== scope.hash) {
    throw apiError("IDEMPOTENCY_CONFLICT", "this Idempotency-Key was already used with a different request; use a new key for a new request");
  }
  // The answer is kept as its JSON text (a jsonb string), so a replay lists members in the first answer's order;
  // records written as jsonb objects (member order not kept) are still read.
  const body = typeof r.body === "string" ? JSON.parse(r.body) : r.body;
  return { status: r.status, body, resourceId: r.resourceId };
}

/**
 * The row of {@link findRecord}'s read: the column must be there; the record itself (JSON) is checked once, by
 * {@link storedFromColumn}, so the row's own check looks no deeper than the column's presence.
 */
const RecordColumnRow = z.object({ record: z.unknown() });

/**
 * The stored answer of `scope`'s record, or null when there is none ({@link storedFromColumn}).
 * @throws ApiError 409 IDEMPOTENCY_CONFLICT; StoredDataError for a record that does not match its schema; ZodError
 *   for a row without its `record` column (a schema drift)
 */
async function findRecord(db: Db, scope: IdempotencyScope): Promise<StoredResponse | null> {
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT ${RECORD} AS record FROM idempotency_records r WHERE r.merchant_id = ${scope.merchantId}::uuid AND r.key = ${scope.key}`;
  return row ? storedFromColumn(scope, parseRow(RecordColumnRow, row).record) : null;
}

/** The INSERT of a first answer's record: its JSON text kept as a jsonb string, so a replay keeps member order. */
function recordInsert(scope: IdempotencyScope, response: StoredResponse): Prisma.Sql {
  const stored = JSON.stringify(response.body, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
  return Prisma.sql`
    INSERT INTO idempotency_records (id, merchant_id, key, method, path, body_hash, response_status, response_body, resource_id)
    VALUES (gen_random_uuid(), ${scope.merchantId}::uuid, ${scope.key}, ${scope.method}, ${scope.path}, ${scope.hash},
            ${response.status}, to_jsonb(${stored}::text), ${response.resourceId}::uuid)`;
}

/**
 * Runs `execute` at most once per (merchant, key) (docs/api.md "Idempotency"; docs/architecture.md "Consistency").
 * A completed record is replayed without a transaction (`known: "absent"` when the caller has just read that there
 * is none); otherwise one transaction takes a transaction-level advisory lock on the key, re-checks, runs `execute`
 * and stores its response, so concurrent identical requests create exactly one record: the others wait on the lock
 * and replay. Only successful responses are stored; an error rolls everything back and the same key may be retried.
 * @throws ApiError 409 IDEMPOTENCY_CONFLICT when the key was used for another method, path or body.
 */
export async function runIdempotent(
  db: PrismaClient,
  scope: IdempotencyScope,
  execute: (tx: Tx) => Promise<StoredResponse>,
  txOptions: { maxWait: number; timeout: number; known?: "absent" },
): Promise<{ replayed: boolean; response: StoredResponse }> {
  const { known, ...options } = txOptions;
  const existing = known === "absent" ? null : await findRecord(db, scope);
  if (existing) return { replayed: true, response: existing };
  try {
    return await transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${scope.merchantId}:${scope.key}`}, 0))`;
        const raced = await findRecord(tx, scope);
        if (raced) return { replayed: true, response: raced };
        const response = await execute(tx);
        await tx.$executeRaw(recordInsert(scope, response));
        return { replayed: false, response };
      },
      { db, ...options },
    );
  } catch (error) {
    // The single-statement endpoints take no advisory lock: a request of theirs with this key may have won.
    if (uniqueViolation(error) === null) throw error;
    const raced = await findRecord(db, scope);
    if (raced) return { replayed: true, response: raced };
    throw error;
  }
}

/**
 * The single-statement form of {@link runIdempotent} (docs/architecture.md "Hot paths"), for a caller that has read
 * (in its authentication statement) that the key has no record: one statement inserts the record of `response` and
 * runs `effects` (more `name AS (...)` items of the same WITH, e.g. the payment and its counters), then selects
 * `checks` (which may call refuse_statement to undo it all, and must read `idempotency` first so that the record is
 * inserted before anything else). A concurrent request with the same key meets the record's unique index: it waits
 * for that request to end and then replays its record, if one was committed (or is told IDEMPOTENCY_CONFLICT).
 * @returns `replayed: true` with the stored answer when a concurrent identical request won
 * @throws ApiError 409 IDEMPOTENCY_CONFLICT (the winner's request differs); the driver's error otherwise (a unique
 *   violation of the effects, refuse_statement's SQLSTATE SPREF), nothing written
 */
export async function commitIdempotent(
  scope: IdempotencyScope,
  response: StoredResponse,
  effects: Prisma.Sql,
  checks: Prisma.Sql,
): Promise<{ replayed: boolean; response: StoredResponse }> {
  try {
    await query(Prisma.sql`WITH idempotency AS (${recordInsert(scope, response)} RETURNING id), ${effects} SELECT ${checks}`);
    return { replayed: false, response };
  } catch (error) {
    if (uniqueViolation(error) === null) throw error;
    const raced = await findRecord(getDb(), scope);
    if (raced) return { replayed: true, response: raced };
    throw error;
  }
}
