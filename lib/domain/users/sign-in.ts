import { systemNow } from "@/lib/platform/clock";
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
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
 * account's attempts from an address that has already failed for it are paced (one checked every SLOWDOWN_MS), never
 * refused for good. An attempt from an address that has not failed for that name is checked at once, so a guesser
 * never holds up the owner (docs/operating.md "Console sign-in limits").
 */
export const MAX_FAILED_PER_ACCOUNT = 20;
/**
 * Failed sign-ins one source IP may make per 15 minutes, over all user names, before its attempts are paced
 * (password spraying). Past it the address is not refused (behind a proxy it may be everyone's): its attempts are
 * checked one every SLOWDOWN_MS.
 */
export const MAX_FAILED_PER_IP = 30;
/** The pace of paced sign-in attempts, milliseconds: one attempt of a paced address, or of a paced account, per this time. */
export const SLOWDOWN_MS = 2000;
/** The longest a paced attempt waits for its turn, milliseconds; one whose turn would come later is answered "busy" unchecked. */
export const MAX_WAIT_MS = 10_000;
/** Paced attempts one process holds waiting at once (bounded memory); more are answered "busy" unchecked at once. */
export const MAX_WAITING = 64;

/** argon2id hash of a random text: unknown user names are verified against it so they take as long as real ones. */
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$pdnCc9j1sneQ7+73vzJSJA$MuVEz0a2di6B1sjllr5Df1k+UO5ZonPebY0qdVDkdI8";

/**
 * The sign-in budgets, counted where the API's are (lib/platform/rate-limits/store.ts: Redis, PostgreSQL or this process's
 * memory), so every worker and instance shares them. User names are counted whether they exist or not, so the
 * answers never tell which do. `pace` gives paced attempts their turns (one per SLOWDOWN_MS per key), shared the same way.
 */
function limiters(): SignInLimiters {
  return (processState().signInLimiters ??= {
    byNameAndIp: createRateLimiter("signin-name-ip", MAX_FAILED_SIGN_INS, LOCK_MINUTES * 60),
    byName: createRateLimiter("signin-account", MAX_FAILED_PER_ACCOUNT, LOCK_MINUTES * 60),
    byIp: createRateLimiter("signin-ip", MAX_FAILED_PER_IP, 15 * 60),
    pace: createRateLimiter("signin-pace", 1, SLOWDOWN_MS / 1000),
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits for the turn of a paced attempt with `key` (an address, an account): the shared `pace` budget admits one per
 * SLOWDOWN_MS; a refused attempt sleeps until the budget's window ends and asks again. Nothing is queued: memory is
 * one counter, and at most MAX_WAITING attempts of this process wait at once.
 * @returns true when the attempt got its turn; false when its turn would come after MAX_WAIT_MS, or MAX_WAITING
 *   attempts already wait (the caller answers "busy" without checking the password)
 */
async function takeTurn(key: string): Promise<boolean> {
  const state = processState();
  if ((state.signInWaiting ?? 0) >= MAX_WAITING) return false;
  state.signInWaiting = (state.signInWaiting ?? 0) + 1;
  try {
    let waited = 0;
    for (;;) {
      try {
        await limiters().pace.consume(key);
        return true;
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        // A little spread, so that the attempts woken together do not all ask at the same instant.
        const wait = refusal.msBeforeNext + Math.floor(Math.random() * 50);
        if (waited + wait > MAX_WAIT_MS) return false;
        await sleep(wait);
        waited += wait;
      }
    }
  } finally {
    state.signInWaiting = (state.signInWaiting ?? 1) - 1;
  }
}

/** `sessionEpoch`: the user's current session epoch, which the new session is issued under (lib/application/console/session.ts). */
export type SignInResult = { ok: true; actor: ConsoleActor; sessionEpoch: number } | { ok: false; reason: "invalid" | "locked" | "busy" };

/** Failures a budget holds for a key now (0 when none). */
async function used(limiter: RateLimiterAbstract, key: string): Promise<number> {
  return (await limiter.get(key))?.consumedPoints ?? 0;
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
 * user out, and never hold the real user's attempt behind the guesser's). Failures are counted per user name and source
 * address, per user name, and per address, in the rate limits' store (shared by every worker and instance):
 * - MAX_FAILED_SIGN_INS failures of one name from one address lock that name from that address for LOCK_MINUTES (the
 *   right password from it is refused meanwhile; from any other address it signs in); the lock is audited;
 * - past MAX_FAILED_PER_IP failures of one address over every name, that address's attempts are paced; past
 *   MAX_FAILED_PER_ACCOUNT failures of one name over every address, that name's attempts from addresses that have
 *   failed for it are paced: one checked per SLOWDOWN_MS (a turn waited for at most MAX_WAIT_MS, else "busy").
 *   An attempt from an address that has not failed for the name, and is not over its own budget, is checked at once.
 * Unknown and deactivated user names are verified against a dummy hash (same time) and counted the same way, so the
 * answers never reveal whether a user exists. A success clears the name's count from that address.
 * @returns the actor on success, else the reason ("invalid", "locked", or "busy": paced and no turn in time)
 */
export async function verifyCredentials(db: PrismaClient, input: { username: string; password: string; ip: string | null; now?: Date }): Promise<SignInResult> {
  const now = input.now ?? systemNow();
  const username = input.username.trim();
  const nameKey = username.toLowerCase();
  const ip = input.ip ?? "unknown";
  const { byNameAndIp, byName, byIp } = limiters();
  const pairKey = `${nameKey} ${ip}`;
  const [pair, name, address] = await Promise.all([used(byNameAndIp, pairKey), used(byName, nameKey), used(byIp, ip)]);
  if (pair >= MAX_FAILED_SIGN_INS) return { ok: false, reason: "locked" };
  if (address >= MAX_FAILED_PER_IP && !(await takeTurn(`ip ${ip}`))) return { ok: false, reason: "busy" };
  if (pair > 0 && name >= MAX_FAILED_PER_ACCOUNT && !(await takeTurn(`account ${nameKey}`))) return { ok: false, reason: "busy" };
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
