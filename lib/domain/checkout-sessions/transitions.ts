import type { Tx } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import type { CheckoutSession, CheckoutSessionState, Prisma } from "@/lib/platform/generated/prisma/client";

export type SessionTrigger = "quote" | "confirm" | "expire";

/**
 * The one checkout-session transition table (docs/api.md "Checkout sessions"): AWAITING_AMOUNT -> QUOTED when the customer chooses amount and currency (re-quoting from
 * QUOTED allowed), QUOTED -> AWAITING_VERIFICATION when the customer confirms the total, and any
 * non-expired state -> EXPIRED at expiresAt. No transition creates a payment, a store handoff or an event.
 */
export const SESSION_TRANSITIONS = {
  quote: { from: ["AWAITING_AMOUNT", "QUOTED"], to: "QUOTED" },
  confirm: { from: ["QUOTED"], to: "AWAITING_VERIFICATION" },
  expire: { from: ["AWAITING_AMOUNT", "QUOTED", "AWAITING_VERIFICATION"], to: "EXPIRED" },
} as const satisfies Record<SessionTrigger, { from: readonly CheckoutSessionState[]; to: CheckoutSessionState }>;

type StateOf = Pick<CheckoutSession, "state" | "expiresAt">;

/** True when the session's acceptance period has ended but the sweep has not marked it EXPIRED yet. */
export function isDue(session: StateOf, now: Date): boolean {
  return session.state !== "EXPIRED" && session.expiresAt.getTime() <= now.getTime();
}

/**
 * The state a reader sees: EXPIRED once expiresAt has passed, even before the 30-second sweep has stored
 * it, so no customer ever acts on an expired session and the merchant's GET never shows it as open.
 */
export function effectiveState(session: StateOf, now: Date): CheckoutSessionState {
  return isDue(session, now) ? "EXPIRED" : session.state;
}

/** Why `trigger` is not allowed from the session's (effective) state, in words for the customer. */
function refusal(state: CheckoutSessionState, trigger: SessionTrigger): string {
  if (state === "EXPIRED") return "this checkout link has expired; ask the merchant for a new link";
  if (state === "AWAITING_VERIFICATION") return "the total is already confirmed and can no longer be changed";
  if (trigger === "confirm") return "choose an amount and currency first";
  return `a checkout session in state ${state} cannot ${trigger}`;
}

/**
 * Checks that the session's effective state allows a customer action (quote or confirm).
 * @throws ApiError 409 INVALID_STATE, with a message for the customer
 */
export function assertTransition(session: StateOf, trigger: Exclude<SessionTrigger, "expire">, now: Date): void {
  const state = effectiveState(session, now);
  if (!(SESSION_TRANSITIONS[trigger].from as readonly CheckoutSessionState[]).includes(state)) {
    throw apiError("INVALID_STATE", refusal(state, trigger));
  }
}

/**
 * Moves a session along the table on a customer action (quote or confirm; expiry is the sweep's
 * `expireDueSessions`), judged on the effective state, updating the row only from the state it was read in
 * (so two concurrent requests cannot both move it) and writing `data` in the same statement.
 * @returns the updated row
 * @throws ApiError 409 INVALID_STATE when the (effective) state does not allow `trigger` or the row changed meanwhile
 */
export async function applySessionTransition(
  tx: Tx,
  session: CheckoutSession,
  trigger: Exclude<SessionTrigger, "expire">,
  opts: { now: Date; data?: Prisma.CheckoutSessionUpdateManyMutationInput },
): Promise<CheckoutSession> {
  const rule = SESSION_TRANSITIONS[trigger];
  assertTransition(session, trigger, opts.now);
  const { count } = await tx.checkoutSession.updateMany({
    where: { id: session.id, state: session.state },
    data: { ...opts.data, state: rule.to, updatedAt: opts.now },
  });
  if (count !== 1) throw apiError("INVALID_STATE", "the checkout changed meanwhile; reload the page");
  return tx.checkoutSession.findUniqueOrThrow({ where: { id: session.id } });
}
