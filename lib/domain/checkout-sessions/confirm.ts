import { getDb, withTransaction, type Db } from "@/lib/platform/db";
import { apiError } from "@/lib/contract/errors";
import type { CheckoutSession } from "@/lib/platform/generated/prisma/client";
import { toMinor } from "@/lib/contract/money/currency";
import { dubaiDay } from "@/lib/contract/money/dubai";
import type { CustomerAmount } from "@/lib/contract/schemas/api/checkout-sessions";
import { storedQuote } from "@/lib/domain/checkout-sessions/quote";
import { lockSessionByToken } from "@/lib/domain/checkout-sessions/read";
import { applySessionTransition, assertTransition, isDue } from "@/lib/domain/checkout-sessions/transitions";

/**
 * The customer confirmed the total shown on the page: QUOTED -> AWAITING_VERIFICATION (docs/api.md "Checkout sessions").
 * `choice` repeats the quoted amount and currency, so a stale page (re-quoted in another tab) cannot confirm
 * a total the customer did not see; a quote from an earlier Dubai day must be renewed first. Repeating the
 * confirmation of the same total returns the session unchanged. Customer verification is not configured
 * (docs/api.md "Overview" 5): this creates no payment, no store handoff and no event, and is not
 * payment success. Runs in its own transaction, or the caller's when `db` is one (the test helper
 * `POST /v1/sandbox/checkout-sessions/{id}/confirm`).
 * @throws ApiError 404 NOT_FOUND (token), 409 INVALID_STATE (expired, nothing quoted, total changed, stale rate day)
 */
export async function confirmCheckoutSession(token: string, choice: CustomerAmount, now: Date, db: Db = getDb()): Promise<CheckoutSession> {
  return withTransaction(db, async (tx) => {
    const session = await lockSessionByToken(tx, token);
    const sameTotal = session.amountMinor === toMinor(choice.amount) && session.currency === choice.currency;
    if (session.state === "AWAITING_VERIFICATION" && sameTotal && !isDue(session, now)) return session;
    assertTransition(session, "confirm", now);
    if (!sameTotal) throw apiError("INVALID_STATE", "the total changed since this page was shown; review the new total and confirm again");
    if (storedQuote(session.quote)?.rateDay !== dubaiDay(now)) {
      throw apiError("INVALID_STATE", "the exchange rate of this total was for an earlier day; choose the amount again to see today's total");
    }
    return applySessionTransition(tx, session, "confirm", { now, data: { confirmedAt: now } });
  });
}
