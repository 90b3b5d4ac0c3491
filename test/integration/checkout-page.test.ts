import { describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { baseUrl, db, eventually, newMerchant, savePricingVersion } from "../support/fixtures";
import { amountEntryMerchant, customerAction, NO_SIDE_EFFECTS, openPage, openSession, sideEffects, usdAedRateToday } from "../support/checkout-sessions";
import { expireDueSessions } from "@/lib/domain/checkout-sessions/expire";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { realInstant } from "@/lib/platform/clock";

// The hosted customer page at customerCheckout.url and the two requests it sends (quote, confirm):
// docs/api.md "Overview" 5; docs/api.md "Checkout sessions".

const errorOf = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];
const stateOf = async (id: string) => (await db.checkoutSession.findUniqueOrThrow({ where: { id } })).state;

describe("customer quote and confirm", () => {
  it("quote -> QUOTED with the AED charge at today's effective rate and the receiving account; re-quote; confirm -> AWAITING_VERIFICATION; no payment, store handoff, event or delivery", async () => {
    const m = await amountEntryMerchant();
    const s = await openSession(m);
    const url = s.customerCheckout.url;

    const quoted = await customerAction(url, "quote", { amount: "1123.52", currency: "USD" });
    expect(quoted.status).toBe(200);
    expect(quoted.headers.get("cache-control")).toBe("no-store");
    expect(quoted.body).toEqual({ state: "QUOTED", amount: "1123.52", currency: "USD" });
    const row = await db.checkoutSession.findUniqueOrThrow({ where: { id: s.id } });
    const account = await db.bankAccount.findFirstOrThrow({ where: { active: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    // Worked figures: 1123.52 USD x 3.6725 x 1.015 x 1.005 = 4208.96 AED (half up).
    expect(row.quote).toMatchObject({
      rateDay: dubaiDay(),
      baseRate: "3.6725",
      effectiveRate: "3.7462254375",
      chargeCurrency: "AED",
      chargeAmount: "4208.96",
      bankAccount: { id: account.id, holder: account.holder, bankName: account.bankName, iban: account.iban },
      pricing: { originalCurrency: "USD", chargeCurrency: "AED", gateway: "420896", amountMinor: "112352" },
    });
    expect(row.quotedAt).not.toBeNull();
    let read = await m.api(`/v1/checkout-sessions/${s.id}`);
    expect(read.body).toMatchObject({ state: "QUOTED", amount: "1123.52", currency: "USD", paymentId: null, storeCheckoutUrl: null });

    // The page shows the total, the AED charge, the warning and the account.
    const page = await openPage(url);
    expect(page.status).toBe(200);
    for (const text of [
      "Your total",
      "1,123.52",
      "4,208.96",
      "3.74623",
      "The amount charged may differ from what your bank shows",
      account.holder,
      account.bankName,
      "Confirm total",
    ]) {
      expect(page.html, text).toContain(text);
    }
    // The rate is rounded for reading; the snapshot keeps it exact.
    expect(page.html).not.toContain("3.7462254375");

    // Re-quote from QUOTED in AED (no profile needed: same currency, rate 1).
    const requoted = await customerAction(url, "quote", { amount: "250.5", currency: "AED" });
    expect(requoted.body).toEqual({ state: "QUOTED", amount: "250.50", currency: "AED" });
    expect((await db.checkoutSession.findUniqueOrThrow({ where: { id: s.id } })).quote).toMatchObject({ effectiveRate: "1", chargeAmount: "250.50" });

    // A stale page (still showing the USD total) cannot confirm a total the customer no longer sees.
    const stale = await customerAction(url, "confirm", { amount: "1123.52", currency: "USD" });
    expect(errorOf(stale)).toEqual([409, "INVALID_STATE"]);
    expect(stale.body.error.message).toContain("total changed");
    expect(await stateOf(s.id)).toBe("QUOTED");

    const confirmed = await customerAction(url, "confirm", { amount: "250.50", currency: "AED" });
    expect(confirmed.body).toEqual({ state: "AWAITING_VERIFICATION", amount: "250.50", currency: "AED" });
    expect((await db.checkoutSession.findUniqueOrThrow({ where: { id: s.id } })).confirmedAt).not.toBeNull();
    // Repeating the same confirmation changes nothing; re-quoting after it is refused.
    expect((await customerAction(url, "confirm", { amount: "250.50", currency: "AED" })).body.state).toBe("AWAITING_VERIFICATION");
    const late = await customerAction(url, "quote", { amount: "10.00", currency: "AED" });
    expect(errorOf(late)).toEqual([409, "INVALID_STATE"]);
    expect(late.body.error.message).toContain("already confirmed");

    read = await m.api(`/v1/checkout-sessions/${s.id}`);
    expect(read.body).toMatchObject({
      state: "AWAITING_VERIFICATION",
      amount: "250.50",
      currency: "AED",
      verification: { state: "NOT_CONFIGURED", verified: false, storeHandoffAllowed: false },
      paymentId: null,
      storeCheckoutUrl: null,
      livePayment: false,
    });
    const done = await openPage(url);
    expect(done.html).toContain("Total confirmed");
    expect(done.html).toContain("No payment was created and nothing was charged");
    expect(done.html).toContain("verification is not configured");

    // Per merchant (payments, store checkouts, events, deliveries, ledger entries): other files create store
    // checkouts in parallel, so a global count would not be this session's doing.
    expect(await sideEffects(m.merchant.id)).toEqual(NO_SIDE_EFFECTS);
  });

  it("quote refusals leave the session in AWAITING_AMOUNT: amount pattern, global amount limit, currency not offered, profile bounds, missing rate, unknown members", async () => {
    const m = await amountEntryMerchant({ enabledCurrencies: ["USD", "AED", "EUR", "GBP", "CHF"] });
    // GBP charged in AED but no GBP->AED rate today; CHF's profile charges in CHF; EUR has no profile.
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "GBP",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "AED",
      settlementCurrency: "GBP",
      minAmountMinor: 1000n,
      maxAmountMinor: 5000n,
      reason: "test",
    });
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "CHF",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "CHF",
      settlementCurrency: "CHF",
      reason: "test",
    });
    const s = await openSession(m);
    const url = s.customerCheckout.url;
    const cases: [unknown, number, string, string][] = [
      [{ amount: "12.345", currency: "USD" }, 400, "VALIDATION_ERROR", "amount"],
      [{ amount: "12,34", currency: "USD" }, 400, "VALIDATION_ERROR", "amount"],
      [{ amount: 12, currency: "USD" }, 400, "VALIDATION_ERROR", "amount"],
      [{ amount: "12.00", currency: "XXX" }, 400, "VALIDATION_ERROR", "currency"],
      [{ amount: "12.00" }, 400, "VALIDATION_ERROR", "currency:"],
      [{ amount: "12.00", currency: "USD", fxRate: "1" }, 400, "VALIDATION_ERROR", "unknown property: fxRate"],
      [{ amount: "0.00", currency: "USD" }, 400, "GLOBAL_AMOUNT_LIMIT", "between 0.01 and 1000000.00"],
      [{ amount: "1000000.01", currency: "USD" }, 400, "GLOBAL_AMOUNT_LIMIT", "between 0.01 and 1000000.00"],
      [{ amount: "12.00", currency: "TRY" }, 400, "VALIDATION_ERROR", "TRY cannot be used for this checkout"],
      [{ amount: "12.00", currency: "EUR" }, 400, "VALIDATION_ERROR", "EUR cannot be used for this checkout"],
      [{ amount: "12.00", currency: "CHF" }, 400, "VALIDATION_ERROR", "CHF cannot be used for this checkout"],
      [{ amount: "9.99", currency: "GBP" }, 400, "AMOUNT_OUT_OF_RANGE", "below the GBP lower limit of 10.00"],
      [{ amount: "50.01", currency: "GBP" }, 400, "AMOUNT_OUT_OF_RANGE", "above the GBP upper limit of 50.00"],
      [{ amount: "20.00", currency: "GBP" }, 409, "FX_RATE_MISSING", "no exchange rate is set for today"],
      ["{", 400, "VALIDATION_ERROR", "not valid JSON"],
    ];
    for (const [body, status, code, text] of cases) {
      const res = await customerAction(url, "quote", body);
      expect(errorOf(res), JSON.stringify(body)).toEqual([status, code]);
      expect(res.body.error.message, JSON.stringify(body)).toContain(text);
      expect(res.body.error.requestId).toBe(res.headers.get("x-request-id"));
    }
    const wrongType = await customerAction(url, "quote", { amount: "12.00", currency: "USD" }, { "content-type": "text/plain" });
    expect(errorOf(wrongType)).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
    const tooLarge = await customerAction(url, "quote", { amount: "12.00", currency: "USD", pad: "x".repeat(2048) });
    expect(errorOf(tooLarge)).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    expect(await db.checkoutSession.findUniqueOrThrow({ where: { id: s.id } })).toMatchObject({
      state: "AWAITING_AMOUNT",
      amountMinor: null,
      currency: null,
      quote: null,
    });

    // The page offers only the currencies it can quote: USD (AED profile), AED (itself), GBP (AED profile).
    const page = await openPage(url);
    const options = [...page.html.matchAll(/<option value="([A-Z]{3})"/g)].map((o) => o[1]);
    expect(options).toEqual(["USD", "AED", "GBP"]);
  });

  it("confirm needs a quote of today's Dubai day; unknown and malformed tokens are 404 NOT_FOUND", async () => {
    const m = await amountEntryMerchant();
    const s = await openSession(m);
    const url = s.customerCheckout.url;
    const early = await customerAction(url, "confirm", { amount: "10.00", currency: "USD" });
    expect(errorOf(early)).toEqual([409, "INVALID_STATE"]);
    expect(early.body.error.message).toContain("choose an amount");
    expect((await customerAction(url, "quote", { amount: "10.00", currency: "USD" })).status).toBe(200);
    const row = await db.checkoutSession.findUniqueOrThrow({ where: { id: s.id } });
    await db.checkoutSession.update({ where: { id: s.id }, data: { quote: { ...(row.quote as object), rateDay: "2000-01-01" } } });
    const stale = await customerAction(url, "confirm", { amount: "10.00", currency: "USD" });
    expect(errorOf(stale)).toEqual([409, "INVALID_STATE"]);
    expect(stale.body.error.message).toContain("earlier day");
    expect(await stateOf(s.id)).toBe("QUOTED");

    const unknown = `${new URL(url).origin}/checkout/${"A".repeat(43)}`;
    for (const target of [unknown, `${new URL(url).origin}/checkout/short`]) {
      expect(errorOf(await customerAction(target, "quote", { amount: "10.00", currency: "USD" }))).toEqual([404, "NOT_FOUND"]);
      expect(errorOf(await customerAction(target, "confirm", { amount: "10.00", currency: "USD" }))).toEqual([404, "NOT_FOUND"]);
    }
  });

  it("concurrent confirmations of the same total move the session once", async () => {
    const m = await amountEntryMerchant();
    const s = await openSession(m);
    await customerAction(s.customerCheckout.url, "quote", { amount: "10.00", currency: "USD" });
    const results = await Promise.all(Array.from({ length: 4 }, () => customerAction(s.customerCheckout.url, "confirm", { amount: "10.00", currency: "USD" })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results.every((r) => r.body.state === "AWAITING_VERIFICATION")).toBe(true);
    expect(await sideEffects(m.merchant.id)).toEqual(NO_SIDE_EFFECTS);
  });
});

describe("the customer page", () => {
  it("renders the amount form with the bearer-page headers; unknown and malformed links answer 404 with a clear page", async () => {
    const m = await amountEntryMerchant();
    const s = await openSession(m);
    const page = await openPage(s.customerCheckout.url);
    expect(page.status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.html).toContain("How much do you want to pay?");
    expect(page.html).toContain(`Pay <bdi>${m.merchant.name}</bdi>`);
    expect(page.html).toContain(s.reference);
    expect(page.html).toMatch(/<label[^>]*for="[^"]+"[^>]*>Amount<\/label>/);
    expect(page.html).toMatch(/<label[^>]*for="[^"]+"[^>]*>Currency<\/label>/);
    // No customer data on a bearer page, no third-party assets.
    const customer = (await db.checkoutSession.findUniqueOrThrow({ where: { id: s.id } })).customer as Record<string, string>;
    for (const value of [customer.email, customer.phone, customer.lastName]) expect(page.html).not.toContain(value);
    expect(page.html).not.toMatch(/(src|href)="https?:\/\//);

    const origin = new URL(s.customerCheckout.url).origin;
    for (const target of [`${origin}/checkout/${"B".repeat(43)}`, `${origin}/checkout/not-a-token`]) {
      const missing = await openPage(target);
      expect(missing.status, target).toBe(404);
      expect(missing.html).toContain("Checkout link not found");
      expect(missing.html).not.toMatch(/at [A-Za-z]+ \(|node_modules/);
    }
  });
});

describe("expiry", () => {
  it("the 30 s sweep (500 ms in tests) turns due sessions of every open state into EXPIRED; the page, GET and actions agree; no callback is sent", async () => {
    const hits: string[] = [];
    const receiver = http.createServer((req, res) => {
      hits.push(req.url ?? "");
      res.end("{}");
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      const m = await amountEntryMerchant({ callbackUrl, callbackSecret: "whsec_test", minutes: { checkoutSession: 0 } });
      const awaiting = await openSession(m);
      expect(Date.parse(awaiting.customerCheckout.expiresAt)).toBeLessThanOrEqual(Date.now());

      // Sessions that reached QUOTED and AWAITING_VERIFICATION expire too.
      const open = await amountEntryMerchant({ callbackUrl, callbackSecret: "whsec_test" });
      const quoted = await openSession(open);
      const confirmed = await openSession(open);
      await customerAction(quoted.customerCheckout.url, "quote", { amount: "10.00", currency: "USD" });
      await customerAction(confirmed.customerCheckout.url, "quote", { amount: "20.00", currency: "USD" });
      expect((await customerAction(confirmed.customerCheckout.url, "confirm", { amount: "20.00", currency: "USD" })).body.state).toBe("AWAITING_VERIFICATION");
      await db.checkoutSession.updateMany({ where: { id: { in: [quoted.id, confirmed.id] } }, data: { expiresAt: new Date(Date.now() - 1000) } });

      for (const id of [awaiting.id, quoted.id, confirmed.id]) {
        await eventually(async () => (await stateOf(id)) === "EXPIRED", 10_000);
      }
      const read = await m.api(`/v1/checkout-sessions/${awaiting.id}`);
      expect(read.body).toMatchObject({ state: "EXPIRED", amount: null, currency: null, paymentId: null });
      expect((await open.api(`/v1/checkout-sessions/${confirmed.id}`)).body).toMatchObject({ state: "EXPIRED", amount: "20.00", currency: "USD" });

      const refused = await customerAction(awaiting.customerCheckout.url, "quote", { amount: "10.00", currency: "USD" });
      expect(errorOf(refused)).toEqual([409, "INVALID_STATE"]);
      expect(refused.body.error.message).toContain("expired");
      expect(errorOf(await customerAction(quoted.customerCheckout.url, "confirm", { amount: "10.00", currency: "USD" }))).toEqual([409, "INVALID_STATE"]);
      const page = await openPage(awaiting.customerCheckout.url);
      expect(page.status).toBe(200);
      expect(page.html).toContain("This checkout link has expired");
      expect(page.html).not.toContain("How much do you want to pay?");

      // waits on purpose: a handoff the refused actions started would reach the local store within it
      await new Promise((r) => setTimeout(r, 1000));
      expect(hits).toEqual([]);
      expect(await sideEffects(m.merchant.id)).toEqual(NO_SIDE_EFFECTS);
      expect(await sideEffects(open.merchant.id)).toEqual(NO_SIDE_EFFECTS);
    } finally {
      receiver.close();
    }
  });

  it("the job body expires exactly the due sessions (called directly with a later clock)", async () => {
    const m = await newMerchant({ amountEntryEnabled: true, minutes: { checkoutSession: 60 } });
    const soon = await openSession(m);
    const later = await openSession(m);
    await db.checkoutSession.update({ where: { id: soon.id }, data: { expiresAt: new Date(Date.now() + 10 * 60_000) } });
    const expired = await expireDueSessions({ now: realInstant(Date.now() + 20 * 60_000), batchSize: 1 });
    expect(expired).toBeGreaterThanOrEqual(1);
    expect(await stateOf(soon.id)).toBe("EXPIRED");
    expect(await stateOf(later.id)).toBe("AWAITING_AMOUNT");
  });

  it("a session past expiresAt reads as EXPIRED before the sweep has stored it", async () => {
    await usdAedRateToday();
    const m = await newMerchant({ amountEntryEnabled: true, minutes: { checkoutSession: 60 } });
    const s = await openSession(m);
    const { serializeCheckoutSession } = await import("@/lib/domain/checkout-sessions/serialize");
    const row = await db.checkoutSession.findUniqueOrThrow({ where: { id: s.id } });
    expect(serializeCheckoutSession(row, new Date()).state).toBe("AWAITING_AMOUNT");
    expect(serializeCheckoutSession(row, new Date(Date.now() + 61 * 60_000)).state).toBe("EXPIRED");
    expect(row.state).toBe("AWAITING_AMOUNT");
  });
});

describe("the page's forms, sent before its script has loaded or without it", () => {
  it("quote and confirm forms answer 303 to the page of the new state (Origin null, as under no-referrer); a refused form keeps the amount and says why", async () => {
    const m = await amountEntryMerchant();
    const s = await openSession(m);
    const path = new URL(s.customerCheckout.url).pathname;
    // A browser's form post from a page sent with Referrer-Policy: no-referrer says Origin: null.
    const form = (action: "quote" | "confirm", body: string) =>
      fetch(`${baseUrl()}${path}/${action}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "null" },
        body,
        redirect: "manual",
      });
    const page = async (location: string | null) => (await fetch(`${baseUrl()}${location}`)).text();

    const bad = await form("quote", "amount=12.345&currency=USD");
    expect([bad.status, bad.headers.get("location"), bad.headers.get("cache-control")]).toEqual([
      303,
      `${path}?problem=VALIDATION_ERROR&action=quote&amount=12.345&currency=USD`,
      "no-store",
    ]);
    expect(await stateOf(s.id)).toBe("AWAITING_AMOUNT");
    const refused = await page(bad.headers.get("location"));
    expect(refused).toContain("Enter an amount in digits with at most 2 decimals, for example 150.00.");
    expect(refused).toContain('value="12.345"');
    expect(refused).toContain('aria-invalid="true"');

    // A grouping comma and the currency's code are read as the script reads them; a comma that groups nothing is refused.
    const ambiguous = await form("quote", "amount=1123%2C52&currency=USD");
    expect(ambiguous.status).toBe(303);
    expect(await page(ambiguous.headers.get("location"))).toContain("A comma is only read between groups of three digits");
    const quoted = await form("quote", "amount=1%2C123.52+USD&currency=USD");
    expect([quoted.status, quoted.headers.get("location")]).toEqual([303, path]);
    expect(await db.checkoutSession.findUniqueOrThrow({ where: { id: s.id } })).toMatchObject({ state: "QUOTED", amountMinor: 112352n, currency: "USD" });
    const total = await page(path);
    for (const text of [
      "AED\u00a04,208.96",
      "for USD\u00a01,123.52",
      "2.01% above the reference rate of 3.6725",
      "Dubai business day",
      "Confirm total of AED\u00a04,208.96",
    ]) {
      expect(total, text).toContain(text);
    }

    const confirmed = await form("confirm", "amount=1123.52&currency=USD");
    expect([confirmed.status, confirmed.headers.get("location")]).toEqual([303, path]);
    expect(await stateOf(s.id)).toBe("AWAITING_VERIFICATION");
    expect(await page(path)).toContain("it sees the total you confirmed and tells you how your order continues.");

    // A late form is refused without a change, and the page says so in its own words.
    const late = await form("quote", "amount=10&currency=AED");
    expect(late.headers.get("location")).toBe(`${path}?problem=INVALID_STATE&action=quote&amount=10&currency=AED`);
    expect(await stateOf(s.id)).toBe("AWAITING_VERIFICATION");
    expect(await page(late.headers.get("location"))).toContain("This checkout had already moved on, so nothing more was done.");
    // The query's text is never the page's: an unknown code gets the general words.
    const forged = await page(`${path}?problem=${encodeURIComponent("Call +1 555 0100 now")}`);
    expect(forged).not.toContain("Call +1 555 0100 now");
    expect(forged).toContain("That did not go through. Please try again in a moment.");
  });
});
