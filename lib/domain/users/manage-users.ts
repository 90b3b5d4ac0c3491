import { systemNow } from "@/lib/platform/clock";
import { z } from "zod";
import { writeAudit, type AuditActor } from "@/lib/domain/audit";
import { assertOperator, auditActor, type ConsoleActor } from "@/lib/domain/auth/actor";
import { checkbox, optionalText, reasonField, text } from "@/lib/contract/schemas/forms/fields";
import { revokeKeysOf } from "@/lib/domain/keys/manage-keys";
import { isUuid } from "@/lib/contract/schemas/api/common";
import type { Db, Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import { createConsoleUser, randomPassword } from "@/lib/domain/users/create-console-user";
import { hashPassword } from "@/lib/domain/users/password-hash";
import { pageOf } from "@/lib/contract/pagination";

/** Minimum console password length. */
export const MIN_PASSWORD_LENGTH = 12;

const role = z.enum(["OPERATOR", "MERCHANT"], { message: "choose a role" });
const merchantOf = optionalText(36).pipe(z.uuid({ message: "choose a merchant" }).optional());
const needsMerchant = (v: { role: string; merchantId?: string }) => v.role === "OPERATOR" || !!v.merchantId;

export const NewUserInput = z
  .object({
    username: text(60, "user name").pipe(z.string().regex(/^[a-zA-Z0-9._@-]{3,60}$/, { message: "3 to 60 letters, digits or . _ @ -" })),
    password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, { message: `at least ${MIN_PASSWORD_LENGTH} characters` })
      .max(200),
    role,
    merchantId: merchantOf,
  })
  .refine(needsMerchant, { path: ["merchantId"], message: "a MERCHANT user belongs to a merchant" });

export const UserAccessInput = z
  .object({ userId: z.uuid(), role, merchantId: merchantOf, active: checkbox, reason: reasonField })
  .refine(needsMerchant, { path: ["merchantId"], message: "a MERCHANT user belongs to a merchant" });

/**
 * Creates a console user (operator only) with an argon2id password hash. Audited (without the password).
 * @throws ApiError 403 FORBIDDEN, 404 NOT_FOUND (unknown merchant), 409 INVALID_STATE (user name taken)
 */
export async function createUser(tx: Tx, actor: ConsoleActor, input: z.output<typeof NewUserInput>, now = systemNow()) {
  assertOperator(actor);
  // The form's check (needsMerchant) gave a MERCHANT user its merchant.
  const merchantId = input.role === "MERCHANT" ? (input.merchantId ?? null) : null;
  if (merchantId && !(await tx.merchant.findUnique({ where: { id: merchantId }, select: { id: true } }))) throw apiError("NOT_FOUND", "merchant not found");
  if (await tx.consoleUser.findUnique({ where: { username: input.username }, select: { id: true } })) {
    throw apiError("INVALID_STATE", `user name ${input.username} is taken`);
  }
  const user = await createConsoleUser(tx, { username: input.username, password: input.password, role: input.role, merchantId, createdAt: now });
  await writeAudit(
    tx,
    auditActor(actor),
    { action: "console_user.create", entity: "console_user", entityId: user.id, merchantId, after: { username: user.username, role: user.role, merchantId } },
    now,
  );
  return user;
}

/**
 * Changes a user's access: role, merchant, active flag (operator only). Deactivation ends every session of the user
 * (the session epoch moves on; docs/operating.md "Console sign-in limits"), so reactivating never revives one. Any real change revokes every API key
 * the user owns (docs/api.md "Authentication" 5: changing the key holder's access revokes the related keys), in the
 * same transaction, and the audit row lists the revoked keys. Re-activating never brings keys back.
 * Operators cannot change their own access (no one locks themself out by accident).
 * @throws ApiError 403 FORBIDDEN, 404 NOT_FOUND, 409 INVALID_STATE (nothing changed, or own account)
 */
export async function changeUserAccess(tx: Tx, actor: ConsoleActor, input: z.output<typeof UserAccessInput>, now = systemNow()) {
  assertOperator(actor);
  if (input.userId === actor.id) throw apiError("INVALID_STATE", "you cannot change your own access; ask another operator");
  const before = await tx.consoleUser.findUnique({ where: { id: input.userId } });
  if (!before) throw apiError("NOT_FOUND", "user not found");
  // The form's check (needsMerchant) gave a MERCHANT user its merchant.
  const merchantId = input.role === "MERCHANT" ? (input.merchantId ?? null) : null;
  if (merchantId && !(await tx.merchant.findUnique({ where: { id: merchantId }, select: { id: true } }))) throw apiError("NOT_FOUND", "merchant not found");
  if (before.role === input.role && before.merchantId === merchantId && before.active === input.active) {
    throw apiError("INVALID_STATE", "nothing changed");
  }
  // Deactivation ends every session of the user (the session epoch moves on, as at sign-out): reactivating later does
  // not bring an old session cookie back.
  const endsSessions = before.active && !input.active;
  const after = await tx.consoleUser.update({
    where: { id: before.id },
    data: { role: input.role, merchantId, active: input.active, updatedAt: now, ...(endsSessions ? { sessionEpoch: { increment: 1 } } : {}) },
  });
  const revoked = await revokeKeysOf(tx, { ownerId: before.id }, now);
  await writeAudit(
    tx,
    auditActor(actor),
    {
      action: "console_user.change_access",
      entity: "console_user",
      entityId: before.id,
      merchantId: before.merchantId ?? merchantId,
      before: { username: before.username, role: before.role, merchantId: before.merchantId, active: before.active },
      after: {
        username: after.username,
        role: after.role,
        merchantId: after.merchantId,
        active: after.active,
        revokedApiKeys: revoked,
        ...(endsSessions ? { sessionsEnded: true } : {}),
      },
      reason: input.reason,
    },
    now,
  );
  return { user: after, revokedKeys: revoked };
}

/** The audit actor of `npm run console:reset-password`: someone with shell access to the service, not a console user. */
export const COMMAND_LINE_ACTOR: AuditActor = { id: null, username: "command line" };

/**
 * Sets a new random password for the console user named `username` (docs/guides/operate-sandpiper.md "Seeded sandbox": `npm run
 * console:reset-password -- <username>`): an argon2id hash of randomPassword(), the row's old sign-in counts cleared
 * (a sign-in lock is per source address, in the rate limits' store, and ends by itself), and every session of the user ended (the session epoch moves on, as at sign-out), in one
 * transaction with an audit row `console_user.reset_password` by COMMAND_LINE_ACTOR (never the password). API keys
 * and access are unchanged.
 * @returns the user (id, username, role, active) and the new password, which only the caller sees (shown once).
 * @throws ApiError 404 NOT_FOUND when no user has that name (names are case-sensitive).
 */
export async function resetPassword(tx: Tx, input: { username: string }, now = systemNow()) {
  const before = await tx.consoleUser.findUnique({ where: { username: input.username } });
  if (!before) throw apiError("NOT_FOUND", `no console user is named "${input.username}"`);
  const password = randomPassword();
  const user = await tx.consoleUser.update({
    where: { id: before.id },
    data: { passwordHash: await hashPassword(password), failedLogins: 0, lockedUntil: null, sessionEpoch: { increment: 1 }, updatedAt: now },
    select: { id: true, username: true, role: true, active: true },
  });
  await writeAudit(
    tx,
    COMMAND_LINE_ACTOR,
    {
      action: "console_user.reset_password",
      entity: "console_user",
      entityId: before.id,
      merchantId: before.merchantId,
      before: { username: before.username, failedLogins: before.failedLogins, lockedUntil: before.lockedUntil },
      after: { username: user.username, failedLogins: 0, lockedUntil: null, sessionsEnded: true },
      reason: "npm run console:reset-password",
    },
    now,
  );
  return { user, password };
}

/**
 * One console user for the operator's user page: id, username, role, merchantId, active and the count of unrevoked
 * API keys (`_count.apiKeys`); null when `id` is not a user id or no such user exists.
 */
export async function getUser(db: Db, id: string) {
  if (!isUuid(id)) return null;
  return db.consoleUser.findUnique({
    where: { id },
    select: { id: true, username: true, role: true, merchantId: true, active: true, _count: { select: { apiKeys: { where: { revokedAt: null } } } } },
  });
}

/** A page of console users (operator pages), with merchant names and counts of unrevoked keys. */
export async function listUsers(db: Db, q: { page: number; limit: number }) {
  const [total, rows] = await Promise.all([
    db.consoleUser.count(),
    db.consoleUser.findMany({
      orderBy: [{ username: "asc" }],
      skip: (q.page - 1) * q.limit,
      take: q.limit,
      select: {
        id: true,
        username: true,
        role: true,
        merchantId: true,
        active: true,
        createdAt: true,
        merchant: { select: { name: true } },
        _count: { select: { apiKeys: { where: { revokedAt: null } } } },
      },
    }),
  ]);
  return pageOf(rows, total, q);
}
