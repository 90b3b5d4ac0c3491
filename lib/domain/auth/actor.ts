import { apiError } from "@/lib/contract/errors";
import type { AuditActor } from "@/lib/domain/audit";

/**
 * A signed-in console user as the server knows it now (re-read from console_users on every request,
 * so a deactivation or a role change takes effect at once). docs/architecture.md "Console roles": OPERATOR works on
 * every merchant; MERCHANT only on its own merchant.
 */
export type ConsoleActor = {
  id: string;
  username: string;
  role: "OPERATOR" | "MERCHANT";
  /** Set for MERCHANT users; null for operators. */
  merchantId: string | null;
};

/** The merchant an actor's queries are limited to: its own for MERCHANT users, null (all) for operators. */
export function merchantScope(actor: ConsoleActor): string | null {
  return actor.role === "MERCHANT" ? actor.merchantId : null;
}

/**
 * The merchant id a query may read: a MERCHANT user always gets its own merchant (whatever it asked for);
 * an operator gets what it asked for (undefined = all merchants).
 */
export function scopedMerchantId(actor: ConsoleActor, requested?: string | null): string | undefined {
  if (actor.role === "MERCHANT") return actor.merchantId ?? "00000000-0000-0000-0000-000000000000";
  return requested || undefined;
}

/**
 * Refuses anyone but an operator.
 * @throws ApiError 403 FORBIDDEN
 */
export function assertOperator(actor: ConsoleActor): void {
  if (actor.role !== "OPERATOR") throw apiError("FORBIDDEN", "only operators can do this");
}

/**
 * Refuses a MERCHANT user acting on another merchant's record. The refusal is NOT_FOUND, so a URL to another
 * merchant's record reveals nothing (docs/api.md "Authentication" 2 applied to the console).
 * @throws ApiError 404 NOT_FOUND
 */
export function assertMerchantAccess(actor: ConsoleActor, merchantId: string, what = "record"): void {
  if (actor.role === "MERCHANT" && actor.merchantId !== merchantId) throw apiError("NOT_FOUND", `${what} not found`);
}

/** The audit actor of a console user. */
export function auditActor(actor: ConsoleActor): AuditActor {
  return { id: actor.id, username: actor.username };
}
