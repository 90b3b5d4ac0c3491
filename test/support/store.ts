import { randomUUID } from "node:crypto";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { assertCustomerPageContract } from "./contract";
import { baseUrl, db, eventually, newMerchant, savePricingVersion, type TestMerchant } from "./fixtures";
import type { NewMerchant } from "@/lib/domain/merchants/create-merchant";
import type { Scope } from "@/lib/domain/keys/api-keys";

/** A store-payment customer with every member the store flow requires (username, firstName, lastName, email). */
export function storeCustomer(over: Record<string, unknown> = {}): Record<string, any> {
  return { username: `shopper-${randomUUID().slice(0, 8)}`, firstName: "Layla", lastName: "Haddad", email: "layla@example.com", ...over };
}

/** A valid CreateStorePayment body (AED, so no FX profile is needed) with a unique reference. */
export function storeBody(over: Record<string, unknown> = {}): Record<string, any> {
  return { reference: `order-${randomUUID()}`, amount: "12.34", currency: "AED", customer: storeCustomer(), ...over };
}

/** Today's EUR->AED rate (4.0000; created once, shared by the store tests). */
export async function eurAedRateToday(): Promise<void> {
  const day = dubaiDay();
  await db.fxRate.upsert({
    where: { base_quote_day: { base: "EUR", quote: "AED", day } },
    create: { base: "EUR", quote: "AED", day, rate: "4.0000" },
    update: {},
  });
}

/**
 * A merchant whose EUR gateway deposits are charged in AED: markup 100 bps, buffer 50 bps, commission
 * 250 bps, reserve 0, settled in EUR; with today's EUR->AED base rate 4.0000 the effective rate is
 * 4 x 1.01 x 1.005 = 4.0602.
 */
export async function eurStoreMerchant(opts: Partial<NewMerchant> & { scopes?: Scope[] } = {}) {
  const m = await newMerchant(opts);
  await eurAedRateToday();
  await savePricingVersion(db, {
    merchantId: m.merchant.id,
    currency: "EUR",
    channel: "GATEWAY",
    direction: "DEPOSIT",
    chargeCurrency: "AED",
    settlementCurrency: "EUR",
    markupBps: 100,
    bufferBps: 50,
    commissionBps: 250,
    reason: "test: EUR store payments charged in AED",
  });
  return m;
}

/** Creates a store payment as `m`; throws unless 201. */
export async function createStorePayment(m: TestMerchant, over: Record<string, unknown> = {}) {
  const res = await m.api("/v1/store-payments", { body: storeBody(over) });
  if (res.status !== 201) throw new Error(`store payment not created: ${res.status} ${res.text}`);
  return res.body;
}

/** Polls GET /v1/payments/{id} (as the merchant would) until checkout.state is `state`. */
export function waitForCheckout(m: TestMerchant, id: string, state: string, timeoutMs = 15_000) {
  return eventually(async () => {
    const res = await m.api(`/v1/payments/${id}`);
    return res.body?.checkout?.state === state ? res.body : null;
  }, timeoutMs);
}

/** The path of a checkout.url on the test service (the url's host is PUBLIC_BASE_URL's). */
export const storePath = (url: string) => new URL(url).pathname;

/**
 * Posts the store page's sandbox test confirmation (`/store/{token}/pay` or `/decline`); the answer is checked against
 * the OpenAPI document ("Customer pages"): a documented status, its body schema and headers.
 */
export async function storeAction(url: string, action: "pay" | "decline") {
  const path = `${storePath(url)}/${action}`;
  const res = await fetch(`${baseUrl()}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const text = await res.text();
  const answer = { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  assertCustomerPageContract({ method: "POST", path, ...answer });
  return answer;
}

/** GET of the store page: status, headers and HTML. */
export async function openStorePage(url: string) {
  const res = await fetch(`${baseUrl()}${storePath(url)}`);
  return { status: res.status, headers: res.headers, html: await res.text() };
}
