import type { Db } from "@/lib/db";

/**
 * Ends every console session of a user (sign-out): moves `console_users.session_epoch` on, so a session cookie
 * issued before, in this browser or a copy of it anywhere else, is refused by `currentActor` from the next request.
 * @param userId console_users.id (an unknown id changes nothing)
 */
export async function endSessions(db: Db, userId: string): Promise<void> {
  await db.consoleUser.updateMany({ where: { id: userId }, data: { sessionEpoch: { increment: 1 } } });
}
