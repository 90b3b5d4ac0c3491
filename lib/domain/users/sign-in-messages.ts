/** How long a locked console account stays locked, in minutes (shared by the server and the sign-in form). */
export const LOCK_MINUTES = 15;

/**
 * What the sign-in form says for each refusal next-auth reports. "locked" covers a locked account, a throttled
 * source IP and an unknown name that failed too often alike, so the answer never reveals whether a user exists.
 */
export const SIGN_IN_MESSAGES: Record<"invalid" | "locked", string> = {
  invalid: "Wrong user name or password.",
  locked: `Too many failed sign-ins. Wait ${LOCK_MINUTES} minutes and try again.`,
};
