// Rotating a merchant's callback secret without changing its address, with an overlap during which both secrets
// sign. docs/callbacks.md "Rotating the secret". One service for the API, the console and the command line.
import { z } from "zod";
import { writeAudit, type AuditActor } from "@/lib/domain/audit";
import { parseDuration } from "@/lib/platform/clock";
import { parseRows, withTransaction, type Db, type Tx } from "@/lib/platform/db";
import { apiError, fieldError } from "@/lib/contract/errors";
import { newCallbackSecret } from "@/lib/domain/callbacks/callback-config";
import { listenerSecretFromKeyHash, listenerSigningOf } from "@/lib/contract/callbacks/listener-secret";

/** Longest overlap a rotation may keep the old secret signing: 7 days, in milliseconds. */
export const MAX_OVERLAP_MS = 7 * 24 * 3600 * 1000;
/** The overlap when none is given: 24 hours. */
export const DEFAULT_OVERLAP = "24h";

/** Where a merchant's callback secret stands (never the secret itself). */
export interface CallbackSecretState {
  /** True when an address, and so a secret, is set. */
  configured: boolean;
  /** While an overlap runs: when the previous secret stops signing (real time, ISO 8601 UTC); else null. */
  overlapEndsAt: string | null;
}

const SecretRow = z.object({
  callbackSecret: z.string().nullable(),
  previousCallbackSecret: z.string().nullable(),
  previousCallbackSecretUntil: z.date().nullable(),
});
type SecretRow = z.infer<typeof SecretRow>;

async function lockSecrets(tx: Tx, merchantId: string): Promise<SecretRow> {
  const [row] = parseRows(
    SecretRow,
    await tx.$queryRaw<Record<string, unknown>[]>`
      SELECT callback_secret, previous_callback_secret, previous_callback_secret_until
      FROM merchants WHERE id = ${merchantId}::uuid FOR NO KEY UPDATE`,
  );
  if (!row) throw apiError("NOT_FOUND", "merchant not found");
  return row;
}

function overlapEnd(row: SecretRow, now: Date): Date | null {
  return row.previousCallbackSecret && row.previousCallbackSecretUntil && row.previousCallbackSecretUntil > now ? row.previousCallbackSecretUntil : null;
}

/**
 * The secrets a delivery attempt signs with at `now` (docs/callbacks.md "Rotating the secret"): the current one, and
 * the previous one while its overlap lasts (null after it).
 * @param row the merchant's `callbackSecret`, `previousCallbackSecret`, `previousCallbackSecretUntil`.
 * @param now real time of the attempt.
 * @returns `{ secret, previousSecret }`; secret null when no address is set.
 */
export function signingSecrets(row: SecretRow, now: Date): { secret: string | null; previousSecret: string | null } {
  return { secret: row.callbackSecret, previousSecret: overlapEnd(row, now) ? row.previousCallbackSecret : null };
}

/**
 * Parses an overlap such as `24h`, `90m`, `7d`, `PT1H` or `0s` (no overlap: the old secret stops at once).
 * @returns milliseconds, 0 to {@link MAX_OVERLAP_MS}.
 * @throws ApiError 400 VALIDATION_ERROR (field `overlap`) when it is not a duration or longer than 7 days.
 */
export function parseOverlap(text: string | undefined | null): number {
  const given = text ?? DEFAULT_OVERLAP;
  const ms = /^0+[smhdw]?$/.test(given.trim()) ? 0 : parseDuration(given);
  if (ms === null) throw fieldError("overlap", "give a duration such as 24h, 90m, 7d or 0s (no overlap), at most 7d");
  if (ms > MAX_OVERLAP_MS) throw fieldError("overlap", "at most 7d: the old secret signs for a week at most");
  return ms;
}

/**
 * Reads where a merchant's callback secret stands.
 * @returns {@link CallbackSecretState}.
 * @throws ApiError 404 NOT_FOUND for an unknown merchant.
 */
export async function callbackSecretState(db: Db | Tx, merchantId: string, now: Date): Promise<CallbackSecretState> {
  const row = await db.merchant.findUnique({
    where: { id: merchantId },
    select: { callbackSecret: true, previousCallbackSecret: true, previousCallbackSecretUntil: true },
  });
  if (!row) throw apiError("NOT_FOUND", "merchant not found");
  return stateOf(row, now);
}

function stateOf(row: SecretRow, now: Date): CallbackSecretState {
  return { configured: row.callbackSecret !== null, overlapEndsAt: overlapEnd(row, now)?.toISOString() ?? null };
}

/**
 * Rotates a merchant's callback secret, keeping its address (docs/callbacks.md "Rotating the secret"). A new secret is
 * made and returned (show it once). For `overlapMs` (0 to 7 days) the secret it replaces keeps signing: the contract's
 * `X-<Name>-Signature` is still made with it, and `webhook-signature` carries a signature by each secret, so a
 * receiver holding either verifies every delivery. A rotation during an overlap replaces the current secret again;
 * the one before it stops signing at once (two secrets at most). Written to the audit log (action
 * `merchant.callback_secret_rotated`, the overlap's end, never a secret), in one transaction with the change.
 * @param input.merchantId the merchant (uuid).
 * @param input.overlapMs milliseconds the old secret keeps signing, from {@link parseOverlap}.
 * @param now real time (signatures and overlaps keep the real time, not the sandbox clock).
 * @returns `{ secret, overlapEndsAt }`: the new secret, and the overlap's end (ISO 8601 UTC) or null.
 * @throws ApiError 409 INVALID_STATE when no callback address (and so no secret) is set; 404 NOT_FOUND.
 */
export async function rotateCallbackSecret(
  db: Db | Tx,
  actor: AuditActor,
  input: { merchantId: string; overlapMs: number; reason?: string | null },
  now: Date,
): Promise<{ secret: string; overlapEndsAt: string | null }> {
  return withTransaction(db, async (tx) => {
    const before = await lockSecrets(tx, input.merchantId);
    if (!before.callbackSecret) throw apiError("INVALID_STATE", "no callback secret to rotate: set a callback address first (console, Callbacks)");
    const secret = newCallbackSecret();
    const until = input.overlapMs > 0 ? new Date(now.getTime() + input.overlapMs) : null;
    await tx.merchant.update({
      where: { id: input.merchantId },
      data: { callbackSecret: secret, previousCallbackSecret: until ? before.callbackSecret : null, previousCallbackSecretUntil: until },
    });
    const overlapEndsAt = until?.toISOString() ?? null;
    await writeAudit(
      tx,
      actor,
      {
        action: "merchant.callback_secret_rotated",
        entity: "merchant",
        entityId: input.merchantId,
        merchantId: input.merchantId,
        before: { overlapEndsAt: overlapEnd(before, now)?.toISOString() ?? null },
        after: { secretRotated: true, overlapEndsAt },
        reason: input.reason ?? null,
      },
      now,
    );
    return { secret, overlapEndsAt };
  });
}

/**
 * Ends a rotation's overlap now: the previous secret stops signing, and the contract's signature header is made with
 * the new secret from the next attempt on (docs/callbacks.md "Rotating the secret"). With no overlap running it
 * changes and audits nothing. Audited as `merchant.callback_secret_overlap_ended`.
 * @returns the state afterwards (overlapEndsAt null).
 * @throws ApiError 404 NOT_FOUND for an unknown merchant.
 */
export async function endCallbackSecretOverlap(
  db: Db | Tx,
  actor: AuditActor,
  input: { merchantId: string; reason?: string | null },
  now: Date,
): Promise<CallbackSecretState> {
  return withTransaction(db, async (tx) => {
    const before = await lockSecrets(tx, input.merchantId);
    const running = overlapEnd(before, now);
    if (running || before.previousCallbackSecret) {
      await tx.merchant.update({ where: { id: input.merchantId }, data: { previousCallbackSecret: null, previousCallbackSecretUntil: null } });
    }
    if (running) {
      await writeAudit(
        tx,
        actor,
        {
          action: "merchant.callback_secret_overlap_ended",
          entity: "merchant",
          entityId: input.merchantId,
          merchantId: input.merchantId,
          before: { overlapEndsAt: running.toISOString() },
          after: { overlapEndsAt: null },
          reason: input.reason ?? null,
        },
        now,
      );
    }
    return { configured: before.callbackSecret !== null, overlapEndsAt: null };
  });
}

/** Where an API key's `sandpiper listen` secret stands: its generation and a rotation's overlap (never a secret). */
export interface ListenerSecretState {
  /** The generation the listener derives its secret from (0 until the first rotation). */
  generation: number;
  /** While an overlap runs: the generation that keeps signing beside it; else null. */
  previousGeneration: number | null;
  /** While an overlap runs: when the previous generation stops signing (real time, ISO 8601 UTC); else null. */
  overlapEndsAt: string | null;
}

const ListenerRow = z.object({ hash: z.string(), listenerSecretGeneration: z.number().int(), previousListenerSecretUntil: z.date().nullable() });

/**
 * An API key's listener secret state at `now` from its row (docs/callbacks.md "Rotating the secret"): the stream's
 * {@link listenerSigningOf}, with the overlap's end named as the API names it.
 * @param row the key's `listenerSecretGeneration` and `previousListenerSecretUntil`.
 * @returns {@link ListenerSecretState}.
 */
export function listenerSecretStateOf(row: { listenerSecretGeneration: number; previousListenerSecretUntil: Date | null }, now: Date): ListenerSecretState {
  const { generation, previousGeneration, previousUntil } = listenerSigningOf(row, now);
  return { generation, previousGeneration, overlapEndsAt: previousUntil };
}

async function lockKey(tx: Tx, apiKeyId: string) {
  const [row] = parseRows(
    ListenerRow,
    await tx.$queryRaw<Record<string, unknown>[]>`
      SELECT hash, listener_secret_generation, previous_listener_secret_until FROM api_keys WHERE id = ${apiKeyId}::uuid FOR NO KEY UPDATE`,
  );
  if (!row) throw apiError("NOT_FOUND", "API key not found");
  return row;
}

/**
 * Reads where an API key's listener secret stands.
 * @throws ApiError 404 NOT_FOUND for an unknown key.
 */
export async function listenerSecretState(db: Db | Tx, apiKeyId: string, now: Date): Promise<ListenerSecretState> {
  const row = await db.apiKey.findUnique({ where: { id: apiKeyId }, select: { listenerSecretGeneration: true, previousListenerSecretUntil: true } });
  if (!row) throw apiError("NOT_FOUND", "API key not found");
  return listenerSecretStateOf(row, now);
}

/**
 * Rotates an API key's `sandpiper listen` secret (docs/callbacks.md "Rotating the secret"): the key's secret
 * generation goes up by one, and listeners running with the key switch within about a second (the stream tells them).
 * For `overlapMs` the previous generation keeps signing as a callback secret does in an overlap. A rotation during an
 * overlap drops the oldest at once. Audited (`api_key.listener_secret_rotated`), never a secret.
 * @returns `{ secret, generation, overlapEndsAt }`: the new listener secret (the listener prints it too).
 * @throws ApiError 404 NOT_FOUND for an unknown key.
 */
export async function rotateListenerSecret(
  db: Db | Tx,
  actor: AuditActor,
  input: { apiKeyId: string; merchantId: string; overlapMs: number; reason?: string | null },
  now: Date,
): Promise<{ secret: string; generation: number; overlapEndsAt: string | null }> {
  return withTransaction(db, async (tx) => {
    const before = await lockKey(tx, input.apiKeyId);
    const generation = before.listenerSecretGeneration + 1;
    const until = input.overlapMs > 0 ? new Date(now.getTime() + input.overlapMs) : null;
    await tx.apiKey.update({ where: { id: input.apiKeyId }, data: { listenerSecretGeneration: generation, previousListenerSecretUntil: until } });
    const overlapEndsAt = until?.toISOString() ?? null;
    await writeAudit(
      tx,
      actor,
      {
        action: "api_key.listener_secret_rotated",
        entity: "api_key",
        entityId: input.apiKeyId,
        merchantId: input.merchantId,
        before: { generation: before.listenerSecretGeneration },
        after: { generation, overlapEndsAt },
        reason: input.reason ?? null,
      },
      now,
    );
    return { secret: listenerSecretFromKeyHash(before.hash, generation), generation, overlapEndsAt };
  });
}

/**
 * Ends a listener secret rotation's overlap now (docs/callbacks.md "Rotating the secret"); with none running it changes
 * and audits nothing. Audited as `api_key.listener_secret_overlap_ended`.
 * @returns the state afterwards.
 * @throws ApiError 404 NOT_FOUND for an unknown key.
 */
export async function endListenerSecretOverlap(
  db: Db | Tx,
  actor: AuditActor,
  input: { apiKeyId: string; merchantId: string; reason?: string | null },
  now: Date,
): Promise<ListenerSecretState> {
  return withTransaction(db, async (tx) => {
    const before = await lockKey(tx, input.apiKeyId);
    const running = listenerSecretStateOf(before, now).overlapEndsAt;
    if (before.previousListenerSecretUntil) await tx.apiKey.update({ where: { id: input.apiKeyId }, data: { previousListenerSecretUntil: null } });
    if (running) {
      await writeAudit(
        tx,
        actor,
        {
          action: "api_key.listener_secret_overlap_ended",
          entity: "api_key",
          entityId: input.apiKeyId,
          merchantId: input.merchantId,
          before: { overlapEndsAt: running },
          after: { overlapEndsAt: null },
          reason: input.reason ?? null,
        },
        now,
      );
    }
    return { generation: before.listenerSecretGeneration, previousGeneration: null, overlapEndsAt: null };
  });
}
