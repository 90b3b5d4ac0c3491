import { expect, type APIRequestContext } from "@playwright/test";
import { execFileSync } from "node:child_process";
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
