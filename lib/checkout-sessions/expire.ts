import { Prisma, transaction } from "@/lib/db";
import { SESSION_TRANSITIONS } from "@/lib/checkout-sessions/transitions";

/**
 * Job body of the checkout-session expiry sweep (docs/decisions.md: any non-expired state -> EXPIRED at expiresAt;
 * docs/api.md "Limits": the expiry check runs every 30 seconds). Claims due rows with FOR UPDATE SKIP LOCKED, so
 * several processes may run it at once, in batches of `batchSize`. Sessions emit no events (docs/callbacks.md).
 * @returns the number of sessions expired
 */
export async function expireDueSessions(opts: { now?: Date; batchSize?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const batchSize = opts.batchSize ?? 500;
  const { from, to } = SESSION_TRANSITIONS.expire;
  const states = Prisma.join(from.map((state) => Prisma.sql`${state}::"CheckoutSessionState"`));
  let total = 0;
  for (;;) {
    const count = await transaction(
      (tx) => tx.$executeRaw`
        UPDATE checkout_sessions SET state = ${to}::"CheckoutSessionState", updated_at = ${now}
        WHERE id IN (
          SELECT id FROM checkout_sessions
          WHERE state IN (${states}) AND expires_at <= ${now}
          ORDER BY expires_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED
        )`,
    );
    total += count;
    if (count < batchSize) return total;
  }
}
