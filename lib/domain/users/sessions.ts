import type { ConsoleActor } from "@/lib/domain/auth/actor";
import type { Db } from "@/lib/platform/db";

type UserRow = { id: string; username: string; role: "OPERATOR" | "MERCHANT"; merchantId: string | null; active: boolean };

/**
 * The console actor a user row stands for, or null when it may not act: deactivated, or a MERCHANT user without a
 * merchant (docs/architecture.md "Console roles"). Used at sign-in and on every request, so both apply one rule.
 */
export function actorOf(user: UserRow): ConsoleActor | null {
  if (!user.active) return null;
  if (user.role === "MERCHANT" && !user.merchantId) return null;
  return { id: user.id, username: user.username, role: user.role, merchantId: user.merchantId };
}

/**
 * The actor of a console session: the user re-read from the database (so deactivation, role and merchant changes
 * apply at once), or null when the user is gone, may not act (actorOf), or the session was issued before the
 * user's last sign-out (`sessionEpoch` differs).
 * @param userId console_users.id from the session; sessionEpoch the epoch the session was issued under
 */
export async function sessionActor(db: Db, userId: string, sessionEpoch: number): Promise<ConsoleActor | null> {
  const user = await db.consoleUser.findUnique({ where: { id: userId } });
  if (!user || sessionEpoch !== user.sessionEpoch) return null;
  return actorOf(user);
}

/**
 * Ends every console session of a user (sign-out): moves `console_users.session_epoch` on, so a session cookie
 * issued before, in this browser or a copy of it anywhere else, is refused by `currentActor` from the next request.
 * @param userId console_users.id (an unknown id changes nothing)
 */
export async function endSessions(db: Db, userId: string): Promise<void> {
  await db.consoleUser.updateMany({ where: { id: userId }, data: { sessionEpoch: { increment: 1 } } });
}
