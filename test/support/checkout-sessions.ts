import { randomUUID } from "node:crypto";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { assertCustomerPageContract } from "./contract";
import { baseUrl, db, newMerchant, savePricingVersion } from "./fixtures";
import { SEEDED_USD_DEPOSIT_TERMS } from "@/lib/domain/pricing/seeded-rates";
import type { NewMerchant } from "@/lib/domain/merchants/create-merchant";
import type { Scope } from "@/lib/domain/keys/api-keys";

/** A customer with every member a checkout session requires. */
export function sessionCustomer(over: Record<string, unknown> = {}): Record<string, any> {
  return { id: `cust-${randomUUID().slice(0, 8)}`, firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", phone: "+971501234567", ...over };
}

/** A valid CreateCheckoutSession body with a unique reference. */
export function sessionBody(over: Record<string, unknown> = {}): Record<string, any> {
  return { reference: `cs-${randomUUID()}`, customer: sessionCustomer(), ...over };
}

/** Today's USD->AED rate (the seed writes it at seed time; a run across Dubai midnight needs today's). */
export async function usdAedRateToday(rate = "3.6725"): Promise<void> {
  const day = dubaiDay();
  await db.fxRate.upsert({ where: { base_quote_day: { base: "USD", quote: "AED", day } }, create: { base: "USD", quote: "AED", day, rate }, update: {} });
}

/**
 * A merchant with customer amount-entry enabled and the seeded USD gateway-deposit profile charged in AED
 * (markup 150 bps, buffer 50 bps: effective rate 3.7462254375 with base 3.6725).
 */
export async function amountEntryMerchant(opts: Partial<NewMerchant> & { scopes?: Scope[] } = {}) {
  const m = await newMerchant({ amountEntryEnabled: true, ...opts });
  await usdAedRateToday();
  await savePricingVersion(db, { merchantId: m.merchant.id, ...SEEDED_USD_DEPOSIT_TERMS, reason: "test: USD charged in AED" });
  return m;
}

/** Creates a session as `m` and returns the 201 body. */
export async function openSession(m: Awaited<ReturnType<typeof newMerchant>>, over: Record<string, unknown> = {}) {
  const res = await m.api("/v1/checkout-sessions", { body: sessionBody(over) });
  if (res.status !== 201) throw new Error(`session not created: ${res.status} ${res.text}`);
  return res.body;
}

/** The path of a customerCheckout.url on the test service (the url's host is PUBLIC_BASE_URL's). */
export const pagePath = (url: string) => new URL(url).pathname;

/**
 * Posts a customer action of the hosted page (`/checkout/{token}/quote` or `/confirm`); the answer is checked against
 * the OpenAPI document ("Customer pages"): a documented status, its body schema and headers.
 */
export async function customerAction(url: string, action: "quote" | "confirm", body: unknown, headers: Record<string, string> = {}) {
  const path = `${pagePath(url)}/${action}`;
  const res = await fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const answer = { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  assertCustomerPageContract({ method: "POST", path, ...answer });
  return answer;
}

/** GET of the hosted page: status, headers and HTML. */
export async function openPage(url: string) {
  const res = await fetch(`${baseUrl()}${pagePath(url)}`);
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** Payments, store checkouts, events and deliveries that belong to a merchant. */
export async function sideEffects(merchantId: string) {
  const [payments, storeCheckouts, events, deliveries, ledgerEntries] = await Promise.all([
    db.payment.count({ where: { merchantId } }),
    db.storeCheckout.count({ where: { payment: { merchantId } } }),
    db.event.count({ where: { merchantId } }),
    db.delivery.count({ where: { merchantId } }),
    db.ledgerEntry.count({ where: { payment: { merchantId } } }),
  ]);
  return { payments, storeCheckouts, events, deliveries, ledgerEntries };
}

export const NO_SIDE_EFFECTS = { payments: 0, storeCheckouts: 0, events: 0, deliveries: 0, ledgerEntries: 0 };
