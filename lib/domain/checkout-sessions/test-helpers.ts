// The amount-entry customer's steps through the merchant API, for a merchant's CI (docs/api.md "Test helpers"):
// the same services as the customer page's actions (app/checkout/[token]/quote and /confirm), reached by the
// session's id instead of its bearer link, in the idempotent request's transaction.
import type { Tx } from "@/lib/platform/db";
import type { CheckoutSession } from "@/lib/platform/generated/prisma/client";
import type { CustomerAmount } from "@/lib/contract/schemas/api/checkout-sessions";
import { confirmCheckoutSession } from "@/lib/domain/checkout-sessions/confirm";
import { customerQuote, type CustomerQuote } from "@/lib/domain/checkout-sessions/customer-view";
import { quoteCheckoutSession, storedQuote } from "@/lib/domain/checkout-sessions/quote";
import { getCheckoutSession } from "@/lib/domain/checkout-sessions/read";
import { serializeCheckoutSession, type CheckoutSessionResource } from "@/lib/domain/checkout-sessions/serialize";

/** The session as `GET /v1/checkout-sessions/{id}` shows it, plus the quote the customer sees on the page. */
export type QuotedCheckoutSession = CheckoutSessionResource & { quote: CustomerQuote | null };

/** Shapes a session row as the test helpers answer it (state as of `now`). */
export function serializeQuotedSession(row: CheckoutSession, now: Date): QuotedCheckoutSession {
  return { ...serializeCheckoutSession(row, now), quote: customerQuote(storedQuote(row.quote)) };
}

type Step = { merchantId: string; sessionId: string; choice: CustomerAmount; now: Date };

/**
 * `POST /v1/sandbox/checkout-sessions/{id}/quote`: what the customer does choosing amount and currency on the page
 * (lib/domain/checkout-sessions/quote.ts quoteCheckoutSession: same validation, pricing and transition).
 * @throws ApiError 404 NOT_FOUND (unknown or another merchant's session), and as quoteCheckoutSession
 */
export async function quoteAsCustomer(tx: Tx, step: Step): Promise<CheckoutSession> {
  const { token } = await getCheckoutSession(tx, step.merchantId, step.sessionId);
  return quoteCheckoutSession(token, step.choice, step.now, tx);
}

/**
 * `POST /v1/sandbox/checkout-sessions/{id}/confirm`: what the customer does pressing "Confirm total" on the page
 * (lib/domain/checkout-sessions/confirm.ts confirmCheckoutSession: the body repeats the quoted total).
 * @throws ApiError 404 NOT_FOUND (unknown or another merchant's session), and as confirmCheckoutSession
 */
export async function confirmAsCustomer(tx: Tx, step: Step): Promise<CheckoutSession> {
  const { token } = await getCheckoutSession(tx, step.merchantId, step.sessionId);
  return confirmCheckoutSession(token, step.choice, step.now, tx);
}
