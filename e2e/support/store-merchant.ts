// node --import tsx e2e/support/store-merchant.ts <callbackUrl> (DATABASE_URL = the e2e database,
// CALLBACK_ALLOW_LOOPBACK=1 for a loopback receiver)
// Provisions, with the project's own code, an active merchant for the store flow: allow-listed 127.0.0.1
// and ::1, EUR gateway deposits charged in AED (markup 100 bps, buffer 50 bps, commission 250 bps), today's
// EUR->AED rate 4.0000 (effective 4.0602), a full-scope API key, and its callback address (setCallbackUrl).
// Prints {merchantId, key, callbackSecret} as JSON.
import { getDb } from "@/lib/platform/db";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { provisionE2eMerchant, runScript } from "./provision";

runScript(async () => {
  const callbackUrl = process.argv[2];
  if (!callbackUrl) throw new Error("usage: store-merchant.ts <callbackUrl>");
  const { merchantId, key } = await provisionE2eMerchant({
    name: "Oryx Home Goods",
    enabledCurrencies: ["EUR", "AED", "USD"],
    currency: "EUR",
    rateToAed: "4.0000",
    markupBps: 100,
    bufferBps: 50,
    commissionBps: 250,
    reason: "e2e: EUR store payments charged in AED",
  });
  const { secret } = await setCallbackUrl(getDb(), { merchantId, url: callbackUrl });
  console.log(JSON.stringify({ merchantId, key, callbackSecret: secret }));
});
