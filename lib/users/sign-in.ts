import { systemNow } from "@/lib/clock";
import { verify } from "@node-rs/argon2";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { createRateLimiter } from "@/lib/rate-limits/store";
import { SYSTEM_ACTOR, writeAudit } from "@/lib/audit";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { ConsoleActor } from "@/lib/auth/actor";
import { actorOf } from "@/lib/users/sessions";
import { LOCK_MINUTES } from "@/lib/users/sign-in-messages";

export { LOCK_MINUTES };

/** Failed sign-ins in a row after which an account is locked. */
export const MAX_FAILED_SIGN_INS = 5;
/**
 * Failed sign-ins one source IP may make per 15 minutes, over all user names, before its attempts are slowed
 * (password spraying). Past it the address is not refused (behind a proxy it may be everyone's): its attempts
 * are served one at a time, SLOWDOWN_MS apart.
 */
export const MAX_FAILED_PER_IP = 30;
/** Wait of each sign-in attempt from an address past MAX_FAILED_PER_IP, milliseconds (attempts queue one after another). */
export const SLOWDOWN_MS = 2000;

/** argon2id hash of a random text: unknown user names are verified against it so they take as long as real ones. */
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$pdnCc9j1sneQ7+73vzJSJA$MuVEz0a2di6B1sjllr5Df1k+UO5ZonPebY0qdVDkdI8";

const g = globalThis as unknown as { __sandpiperSignInLimiters?: { byName: RateLimiterAbstract; byIp: RateLimiterAbstract } };
/**
 * The sign-in budgets, counted where the API's are (lib/rate-limits/store.ts: Redis, PostgreSQL or this process's
 * memory), so every worker and instance shares them.
 */
function limiters() {
  g.__sandpiperSignInLimiters ??= {
    // Unknown (and deactivated) user names have no row to count on; this keeps them indistinguishable from real ones.
    byName: createRateLimiter("signin-name", MAX_FAILED_SIGN_INS, LOCK_MINUTES * 60),
    byIp: createRateLimiter("signin-ip", MAX_FAILED_PER_IP, 15 * 60),
  };
  return g.__sandpiperSignInLimiters;
}

const slowed = globalThis as unknown as { __sandpiperSignInQueues?: Map<string, Promise<void>> };

/** Waits SLOWDOWN_MS after every earlier slowed attempt from the same address (one at a time per address). */
function slowDown(ip: string): Promise<void> {
  const queues = (slowed.__sandpiperSignInQueues ??= new Map());
  const turn = (queues.get(ip) ?? Promise.resolve()).then(() => new Promise<void>((r) => setTimeout(r, SLOWDOWN_MS)));
  queues.set(ip, turn);
  void turn.then(() => {
    if (queues.get(ip) === turn) queues.delete(ip);
  });
  return turn;
}

/** `sessionEpoch`: the user's current session epoch, which the new session is issued under (lib/console/session.ts). */
export type SignInResult = { ok: true; actor: ConsoleActor; sessionEpoch: number } | { ok: false; reason: "invalid" | "locked" };

async function isBlocked(key: string, limiter: RateLimiterAbstract, max: number): Promise<boolean> {
  const state = await limiter.get(key);
  return !!state && state.consumedPoints >= max;
}

/**
 * Counts one failed sign-in of a known, active user (row locked, so concurrent failures all count) and locks the
 * account for LOCK_MINUTES at the MAX_FAILED_SIGN_INS-th failure in a row, writing the lock to the audit log.
 * A lock that has run out starts a fresh count. Returns true when this failure locked the account.
 */
async function countUserFailure(db: PrismaClient, userId: string, ip: string, now: Date): Promise<boolean> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM console_users WHERE id = ${userId}::uuid FOR UPDATE`;
    const user = await tx.consoleUser.findUniqueOrThrow({ where: { id: userId } });
    if (user.lockedUntil && user.lockedUntil > now) return true;
    const failed = (user.lockedUntil ? 0 : user.failedLogins) + 1;
    const lock = failed >= MAX_FAILED_SIGN_INS;
    await tx.consoleUser.update({
      where: { id: userId },
      data: { failedLogins: lock ? 0 : failed, lockedUntil: lock ? new Date(now.getTime() + LOCK_MINUTES * 60_000) : null },
    });
    if (lock) {
      await writeAudit(
        tx,
        SYSTEM_ACTOR,
        {
          action: "console_user.lock",
          entity: "console_user",
          entityId: user.id,
          merchantId: user.merchantId,
          after: { username: user.username, lockedUntil: new Date(now.getTime() + LOCK_MINUTES * 60_000), sourceIp: ip },
          reason: `${MAX_FAILED_SIGN_INS} failed sign-ins in a row`,
        },
        now,
      );
    }
    return lock;
  });
}

/**
 * Checks a console user name and password (docs/api.md "Authentication" 8; argon2id, lock-out after
 * repeated failures). A known user is locked for LOCK_MINUTES after MAX_FAILED_SIGN_INS failures in a row
 * (console_users.failed_logins / locked_until); a correct password is refused while locked; a success clears the
 * count. Unknown and deactivated user names are verified against a dummy hash (same time) and throttled the same
 * way in the rate limits' store (shared by every worker and instance), so the answers never reveal whether a user exists. A source IP past MAX_FAILED_PER_IP failures in
 * 15 minutes over all names (password spraying) is slowed, never refused: each attempt waits its turn, SLOWDOWN_MS
 * apart, and a right password for an account that is not locked still signs in. Lock-outs are audited.
 * @returns the actor on success, else the reason ("invalid" or "locked").
 */
export async function verifyCredentials(db: PrismaClient, input: { username: string; password: string; ip: string | null; now?: Date }): Promise<SignInResult> {
  const now = input.now ?? systemNow();
  const username = input.username.trim();
  const nameKey = username.toLowerCase();
  const ip = input.ip ?? "unknown";
  const { byName, byIp } = limiters();
  if (await isBlocked(ip, byIp, MAX_FAILED_PER_IP)) await slowDown(ip);
  const found = username ? await db.consoleUser.findUnique({ where: { username } }) : null;
  const user = found?.active ? found : null;
  if (!user && (await isBlocked(nameKey, byName, MAX_FAILED_SIGN_INS))) return { ok: false, reason: "locked" };
  if (user?.lockedUntil && user.lockedUntil > now) return { ok: false, reason: "locked" };
  const passwordOk = await verify(user?.passwordHash ?? DUMMY_HASH, input.password).catch(() => false);
  if (!user || !passwordOk) {
    await byIp.penalty(ip);
    if (!user) {
      await byName.penalty(nameKey);
      return { ok: false, reason: (await isBlocked(nameKey, byName, MAX_FAILED_SIGN_INS)) ? "locked" : "invalid" };
    }
    return { ok: false, reason: (await countUserFailure(db, user.id, ip, now)) ? "locked" : "invalid" };
  }
  if (user.failedLogins !== 0 || user.lockedUntil) {
    await db.consoleUser.update({ where: { id: user.id }, data: { failedLogins: 0, lockedUntil: null } });
  }
  const actor = actorOf(user);
  if (!actor) return { ok: false, reason: "invalid" };
  return { ok: true, actor, sessionEpoch: user.sessionEpoch };
}
