import { systemNow } from "@/lib/platform/clock";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { createRateLimiter } from "@/lib/platform/rate-limits/store";
import { SYSTEM_ACTOR, writeAudit } from "@/lib/domain/audit";
import type { ConsoleUser, PrismaClient } from "@/lib/platform/generated/prisma/client";
import type { ConsoleActor } from "@/lib/domain/auth/actor";
import { actorOf } from "@/lib/domain/users/sessions";
import { verifyPassword } from "@/lib/domain/users/password-hash";
import { LOCK_MINUTES } from "@/lib/domain/users/sign-in-messages";
import { processState, type SignInLimiters } from "@/lib/platform/process-state";

export { LOCK_MINUTES };

/**
 * Failed sign-ins of one account (or unknown user name) from one source address after which that account is locked
 * for LOCK_MINUTES from that address only (docs/operating.md "Console sign-in limits"): the right password from
 * another address still signs in, so nobody can lock an operator out by guessing.
 */
export const MAX_FAILED_SIGN_INS = 5;
/**
 * Failed sign-ins of one account over every address per LOCK_MINUTES (a guesser with many addresses) past which that
 * account's attempts are slowed, never refused: served one at a time, SLOWDOWN_MS apart, and the right password
 * still signs in.
 */
export const MAX_FAILED_PER_ACCOUNT = 20;
/**
 * Failed sign-ins one source IP may make per 15 minutes, over all user names, before its attempts are slowed
 * (password spraying). Past it the address is not refused (behind a proxy it may be everyone's): its attempts
 * are served one at a time, SLOWDOWN_MS apart.
 */
export const MAX_FAILED_PER_IP = 30;
/** Wait of each slowed sign-in attempt, milliseconds (attempts of one address, or of one account, queue one after another). */
export const SLOWDOWN_MS = 2000;

/** argon2id hash of a random text: unknown user names are verified against it so they take as long as real ones. */
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$pdnCc9j1sneQ7+73vzJSJA$MuVEz0a2di6B1sjllr5Df1k+UO5ZonPebY0qdVDkdI8";

/**
 * The sign-in budgets, counted where the API's are (lib/platform/rate-limits/store.ts: Redis, PostgreSQL or this process's
 * memory), so every worker and instance shares them. User names are counted whether they exist or not, so the
 * answers never tell which do.
 */
function limiters(): SignInLimiters {
  return (processState().signInLimiters ??= {
    byNameAndIp: createRateLimiter("signin-name-ip", MAX_FAILED_SIGN_INS, LOCK_MINUTES * 60),
    byName: createRateLimiter("signin-account", MAX_FAILED_PER_ACCOUNT, LOCK_MINUTES * 60),
    byIp: createRateLimiter("signin-ip", MAX_FAILED_PER_IP, 15 * 60),
  });
}

/** Waits SLOWDOWN_MS after every earlier slowed attempt with the same `key` (an address, an account: one at a time each). */
function slowDown(key: string): Promise<void> {
  const queues = (processState().signInQueues ??= new Map());
  const turn = (queues.get(key) ?? Promise.resolve()).then(() => new Promise<void>((r) => setTimeout(r, SLOWDOWN_MS)));
  queues.set(key, turn);
  void turn.then(() => {
    if (queues.get(key) === turn) queues.delete(key);
  });
  return turn;
}

/** `sessionEpoch`: the user's current session epoch, which the new session is issued under (lib/application/console/session.ts). */
export type SignInResult = { ok: true; actor: ConsoleActor; sessionEpoch: number } | { ok: false; reason: "invalid" | "locked" };

async function isBlocked(key: string, limiter: RateLimiterAbstract, max: number): Promise<boolean> {
  const state = await limiter.get(key);
  return !!state && state.consumedPoints >= max;
}

/**
 * Counts one failed sign-in of `nameKey` from `ip` in every budget. The MAX_FAILED_SIGN_INS-th failure from one
 * address locks the name from that address for LOCK_MINUTES (counted atomically in the store, so concurrent failures
 * all count and exactly one locks); a known user's lock is written to the audit log. Returns true when the name is
 * now locked from that address.
 */
async function countFailure(db: PrismaClient, nameKey: string, ip: string, user: ConsoleUser | null, now: Date): Promise<boolean> {
  const { byNameAndIp, byName, byIp } = limiters();
  const pairKey = `${nameKey} ${ip}`;
  const [pair] = await Promise.all([byNameAndIp.penalty(pairKey), byName.penalty(nameKey), byIp.penalty(ip)]);
  if (pair.consumedPoints < MAX_FAILED_SIGN_INS) return false;
  if (pair.consumedPoints > MAX_FAILED_SIGN_INS) return true;
  await byNameAndIp.block(pairKey, LOCK_MINUTES * 60);
  if (user) {
    const lockedUntil = new Date(now.getTime() + LOCK_MINUTES * 60_000);
    await db.$transaction((tx) =>
      writeAudit(
        tx,
        SYSTEM_ACTOR,
        {
          action: "console_user.lock",
          entity: "console_user",
          entityId: user.id,
          merchantId: user.merchantId,
          after: { username: user.username, lockedUntil, sourceIp: ip, scope: "this source address" },
          reason: `${MAX_FAILED_SIGN_INS} failed sign-ins in a row from ${ip}`,
        },
        now,
      ),
    );
  }
  return true;
}

/**
 * Checks a console user name and password (docs/api.md "Authentication" 8; argon2id; docs/operating.md "Console sign-in
 * limits" says the limits, after the OWASP Authentication Cheat Sheet: they slow a guesser without locking the real
 * user out). Failures are counted per user name and source address, per user name, and per address, in the rate
 * limits' store (shared by every worker and instance):
 * - MAX_FAILED_SIGN_INS failures of one name from one address lock that name from that address for LOCK_MINUTES (the
 *   right password from it is refused meanwhile; from any other address it signs in); the lock is audited;
 * - past MAX_FAILED_PER_ACCOUNT failures of one name over every address, or MAX_FAILED_PER_IP of one address over every
 *   name, attempts are slowed (one at a time, SLOWDOWN_MS apart), never refused.
 * Unknown and deactivated user names are verified against a dummy hash (same time) and counted the same way, so the
 * answers never reveal whether a user exists. A success clears the name's count from that address.
 * @returns the actor on success, else the reason ("invalid" or "locked").
 */
export async function verifyCredentials(db: PrismaClient, input: { username: string; password: string; ip: string | null; now?: Date }): Promise<SignInResult> {
  const now = input.now ?? systemNow();
  const username = input.username.trim();
  const nameKey = username.toLowerCase();
  const ip = input.ip ?? "unknown";
  const { byNameAndIp, byName, byIp } = limiters();
  if (await isBlocked(ip, byIp, MAX_FAILED_PER_IP)) await slowDown(`ip ${ip}`);
  if (await isBlocked(nameKey, byName, MAX_FAILED_PER_ACCOUNT)) await slowDown(`account ${nameKey}`);
  if (await isBlocked(`${nameKey} ${ip}`, byNameAndIp, MAX_FAILED_SIGN_INS)) return { ok: false, reason: "locked" };
  const found = username ? await db.consoleUser.findUnique({ where: { username } }) : null;
  const user = found?.active ? found : null;
  const passwordOk = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, input.password).catch(() => false);
  if (!user || !passwordOk) return { ok: false, reason: (await countFailure(db, nameKey, ip, user, now)) ? "locked" : "invalid" };
  await byNameAndIp.delete(`${nameKey} ${ip}`);
  // Counts kept on the row before the limits moved to the store: cleared, never read.
  if (user.failedLogins !== 0 || user.lockedUntil) {
    await db.consoleUser.update({ where: { id: user.id }, data: { failedLogins: 0, lockedUntil: null } });
  }
  const actor = actorOf(user);
  if (!actor) return { ok: false, reason: "invalid" };
  return { ok: true, actor, sessionEpoch: user.sessionEpoch };
}
