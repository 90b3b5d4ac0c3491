/** How long a locked console account stays locked, in minutes (shared by the server and the sign-in form). */
export const LOCK_MINUTES = 15;

/**
 * What the sign-in form says for each refusal next-auth reports. "locked" covers a locked account, a throttled
 * source IP and an unknown name that failed too often alike, so the answer never reveals whether a user exists; "busy"
 * is a paced attempt that got no turn in time (lib/domain/users/sign-in.ts MAX_WAIT_MS), its password not checked.
 */
export const SIGN_IN_MESSAGES: Record<"invalid" | "locked" | "busy", string> = {
  invalid: "Wrong user name or password.",
  locked: `Too many failed sign-ins. Wait ${LOCK_MINUTES} minutes and try again.`,
  busy: "Too many sign-ins are being tried for this name or from this address right now. Wait a minute and try again.",
};
