// node --import tsx e2e/support/amount-entry-merchant.ts (DATABASE_URL = the e2e database)
// Provisions, with the project's own code, an active merchant with customer amount-entry enabled (the
// seeded merchant has it off), allow-listed 127.0.0.1 and ::1, USD gateway deposits charged in AED, today's
// USD->AED rate and a full-scope API key. Prints {merchantId, key} as JSON.
import { provisionE2eMerchant, runScript } from "./provision";

runScript(async () => {
  const { merchantId, key } = await provisionE2eMerchant({
    name: "Falcon Outfitters",
    amountEntryEnabled: true,
    enabledCurrencies: ["USD", "AED", "EUR"],
    currency: "USD",
    rateToAed: "3.6725",
    markupBps: 150,
    bufferBps: 50,
    commissionBps: 250,
    reason: "e2e: USD charged in AED",
  });
  console.log(JSON.stringify({ merchantId, key }));
});
