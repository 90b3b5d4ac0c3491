import { expect, type APIRequestContext } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";

// The merchants of the customer page specs, provisioned with the project's own code (e2e/support/store-merchant.ts,
// e2e/support/amount-entry-merchant.ts), and the merchant server's wait for a store checkout's link.

const root = path.join(__dirname, "..", "..");
const base = () => process.env.SANDPIPER_URL!;
export type MerchantHeaders = Record<string, string>;

/** A fresh store merchant (EUR charged in AED) whose callbacks go to `callbackUrl`. */
export function storeMerchant(callbackUrl: string): { merchantId: string; headers: MerchantHeaders; callbackSecret: string } {
  const out = execFileSync(process.execPath, ["--import", "tsx", "e2e/support/store-merchant.ts", callbackUrl], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: process.env.E2E_DATABASE_URL, CALLBACK_ALLOW_LOOPBACK: "1", NODE_ENV: "test" },
    encoding: "utf8",
  });
  const { merchantId, key, callbackSecret } = JSON.parse(out.trim().split("\n").pop()!);
  return { merchantId, callbackSecret, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } };
}

/** A fresh amount-entry merchant (USD charged in AED) and its key. */
export function amountEntryMerchant(): { merchantId: string; headers: MerchantHeaders } {
  const out = execFileSync(process.execPath, ["--import", "tsx", "e2e/support/amount-entry-merchant.ts"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: process.env.E2E_DATABASE_URL },
    encoding: "utf8",
  });
  const { merchantId, key } = JSON.parse(out.trim().split("\n").pop()!);
  return { merchantId, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } };
}

/** docs/api.md "Store checkout": poll GET /v1/payments/{id} every 3 s; QUEUED keeps polling, READY with a url redirects. */
export async function pollUntilReady(request: APIRequestContext, headers: MerchantHeaders, id: string) {
  let ready: any = null;
  await expect
    .poll(
      async () => {
        const res = await request.get(`${base()}/v1/payments/${id}`, { headers });
        const payment = await res.json();
        expect(payment.status).toBe("PENDING"); // QUEUED and READY are not success
        if (payment.checkout.state === "READY" && payment.checkout.url) ready = payment;
        return payment.checkout.state;
      },
      { intervals: [3_000], timeout: 30_000 },
    )
    .toBe("READY");
  return ready as { id: string; checkout: { url: string; chargeAmount: string; subtotal: string; discount: string; matchType: string } };
}

/** The merchant server creates a store payment (201, checkout QUEUED, url null). */
export async function createStorePayment(request: APIRequestContext, headers: Record<string, string>, amount: string) {
  const reference = `oryx-${randomUUID().slice(0, 8)}`;
  const res = await request.post(`${base()}/v1/store-payments`, {
    headers: { ...headers, "idempotency-key": `store-${reference}` },
    data: {
      reference,
      amount,
      currency: "EUR",
      description: "Order from Oryx Home Goods",
      customer: { username: "layla.h", firstName: "Layla", lastName: "Haddad", email: "layla@example.com", country: "AE" },
    },
  });
  expect(res.status()).toBe(201);
  const payment = await res.json();
  expect(payment).toMatchObject({
    reference,
    amount,
    currency: "EUR",
    method: "GATEWAY",
    direction: "DEPOSIT",
    status: "PENDING",
    checkout: { state: "QUEUED", url: null, chargeCurrency: "AED" },
  });
  return payment as { id: string; reference: string; checkout: { chargeAmount: string } };
}

/** The merchant server opens an amount-entry checkout session (201, AWAITING_AMOUNT). */
export async function openSession(request: APIRequestContext, headers: Record<string, string>) {
  const reference = `order-${randomUUID().slice(0, 8)}`;
  const res = await request.post(`${base()}/v1/checkout-sessions`, {
    headers: { ...headers, "idempotency-key": `open-${reference}` },
    data: { reference, customer: { id: "cust-42", firstName: "Layla", lastName: "Haddad", email: "layla@example.com", phone: "+971501234567" } },
  });
  expect(res.status()).toBe(201);
  const session = await res.json();
  expect(session).toMatchObject({ reference, state: "AWAITING_AMOUNT", amount: null, currency: null, paymentId: null, storeCheckoutUrl: null });
  return session as { id: string; reference: string; customerCheckout: { url: string; expiresAt: string } };
}
