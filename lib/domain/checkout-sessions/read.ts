import { IdRow, parseRows, type Db, type Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import type { CheckoutSession } from "@/lib/platform/generated/prisma/client";
import { isUuid } from "@/lib/contract/schemas/api/common";

/** Shape of a session token (lib/domain/checkout-sessions/create.ts newSessionToken). */
export const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * `GET /v1/checkout-sessions/{id}` (docs/api.md): one of the merchant's sessions.
 * @throws ApiError 404 NOT_FOUND for a malformed, unknown or another merchant's id
 */
export async function getCheckoutSession(db: Db, merchantId: string, id: string): Promise<CheckoutSession> {
  const session = isUuid(id) ? await db.checkoutSession.findFirst({ where: { id, merchantId } }) : null;
  if (!session) throw apiError("NOT_FOUND", "checkout session not found");
  return session;
}

/** The session of a customer checkout url's token, or null (malformed or unknown token). */
export async function findSessionByToken(db: Db, token: string): Promise<CheckoutSession | null> {
  if (!SESSION_TOKEN_PATTERN.test(token)) return null;
  return db.checkoutSession.findUnique({ where: { token } });
}

/**
 * Reads and row-locks (SELECT ... FOR UPDATE) the session of a token in the caller's transaction, so a
 * customer action and the expiry sweep never interleave on it.
 * @throws ApiError 404 NOT_FOUND for a malformed or unknown token
 * @throws ZodError when a row read does not match its schema (a schema drift)
 */
export async function lockSessionByToken(tx: Tx, token: string): Promise<CheckoutSession> {
  const [row] = SESSION_TOKEN_PATTERN.test(token)
    ? parseRows(IdRow, await tx.$queryRaw<Record<string, unknown>[]>`SELECT id FROM checkout_sessions WHERE token = ${token} FOR UPDATE`)
    : [];
  if (!row) throw apiError("NOT_FOUND", "checkout link not found");
  return tx.checkoutSession.findUniqueOrThrow({ where: { id: row.id } });
}
