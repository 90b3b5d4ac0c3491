import { describe, expect, it } from "vitest";
import { call, db, depositBody, LOG_POINTER, messageOf, newMerchant } from "../support/fixtures";
import { sessionBody, sessionCustomer } from "../support/checkout-sessions";
import { storeBody } from "../support/store";
import { savePricingVersion } from "@/lib/domain/pricing/profile-versions";
import { dubaiDay } from "@/lib/contract/money/dubai";

// Bad input gets the error a merchant can act on, and changes nothing (docs/api.md "Customer", "Store checkout",
// "Errors"): blank customer members are missing members; a store charge the store cannot take is refused at
// creation; messages say what to do.

const codeOf = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];

describe("blank customer members count as missing, on every create endpoint", () => {
  it('POST /v1/payments: "" for a required member is CUSTOMER_PROFILE_REQUIRED naming it; a blank optional one is left out', async () => {
    const m = await newMerchant({ requiredCustomerFields: ["id", "email"] });
    for (const customer of [
      { id: "", email: "a@example.com" },
      { id: "c-1", email: "" },
      { id: "   ", email: "a@example.com" },
    ]) {
      const res = await m.api("/v1/payments", { body: depositBody({ customer }) });
      expect(codeOf(res), JSON.stringify(customer)).toEqual([400, "CUSTOMER_PROFILE_REQUIRED"]);
      expect(res.body.error.message).toMatch(/customer\.(id|email)/);
    }
    const ok = await m.api("/v1/payments", { body: depositBody({ customer: { id: "c-1", email: "a@example.com", country: "", phone: "" } }) });
    expect(ok.status, ok.text).toBe(201);
    const read = await m.api(`/v1/payments/${ok.body.id}`);
    expect(read.body.customer).toEqual({ id: "c-1", email: "a@example.com" });
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(1);
  });

  it('POST /v1/store-payments and POST /v1/checkout-sessions: "" is CUSTOMER_PROFILE_REQUIRED like a blank member', async () => {
    const store = await newMerchant();
    for (const member of ["username", "firstName", "lastName", "email"]) {
      const body = storeBody();
      body.customer[member] = "";
      const res = await store.api("/v1/store-payments", { body });
      expect(codeOf(res), member).toEqual([400, "CUSTOMER_PROFILE_REQUIRED"]);
      expect(res.body.error.message).toContain(`customer.${member}`);
    }
    const sessions = await newMerchant({ amountEntryEnabled: true });
    for (const member of ["id", "firstName", "lastName", "email", "phone"]) {
      const res = await sessions.api("/v1/checkout-sessions", { body: sessionBody({ customer: sessionCustomer({ [member]: "" }) }) });
      expect(codeOf(res), member).toEqual([400, "CUSTOMER_PROFILE_REQUIRED"]);
      expect(res.body.error.message).toContain(`customer.${member}`);
    }
    expect(await db.payment.count({ where: { merchantId: store.merchant.id } })).toBe(0);
    expect(await db.checkoutSession.count({ where: { merchantId: sessions.merchant.id } })).toBe(0);
  });

  it("an over-long e-mail is VALIDATION_ERROR (a length problem); a malformed one stays INVALID_EMAIL", async () => {
    const m = await newMerchant();
    const long = `${"a".repeat(250)}@example.com`;
    const tooLong = await m.api("/v1/payments", { body: depositBody({ customer: { email: long } }) });
    expect(codeOf(tooLong)).toEqual([400, "VALIDATION_ERROR"]);
    expect(tooLong.body.error.message).toContain("customer.email: must be at most 254 characters");
    const malformed = await m.api("/v1/payments", { body: depositBody({ customer: { email: "not-an-address" } }) });
    expect(codeOf(malformed)).toEqual([400, "INVALID_EMAIL"]);
    expect(malformed.body.error.message).toContain("customer.email: must be a valid e-mail address");
  });
});

describe("a store charge the store cannot take is refused when the payment is created", () => {
  it("an amount whose AED charge rounds to 0 fils is 400 AMOUNT_OUT_OF_RANGE; one fil more passes", async () => {
    // TRY -> AED at 0.1 (no markup): 0.04 TRY is 0.4 fils -> 0 fils; 0.05 TRY is 0.5 fils -> 1 fil (half up).
    const day = dubaiDay();
    await db.fxRate.upsert({
      where: { base_quote_day: { base: "TRY", quote: "AED", day } },
      create: { base: "TRY", quote: "AED", day, rate: "0.1" },
      update: { rate: "0.1" },
    });
    const m = await newMerchant();
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "TRY",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "AED",
      settlementCurrency: "TRY",
      markupBps: 0,
      bufferBps: 0,
      commissionBps: 0,
      reason: "test: TRY store payments charged in AED",
    });
    const zero = await m.api("/v1/store-payments", { body: storeBody({ amount: "0.04", currency: "TRY" }) });
    expect(codeOf(zero)).toEqual([400, "AMOUNT_OUT_OF_RANGE"]);
    expect(zero.body.error.message).toContain("AED 0.00 at today's rate, below the store's smallest charge of AED 0.01");
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(0);
    const one = await m.api("/v1/store-payments", { body: storeBody({ amount: "0.05", currency: "TRY" }) });
    expect(one.status, one.text).toBe(201);
    expect(one.body.checkout).toMatchObject({ state: "QUEUED", chargeAmount: "0.01" });
  });
});

describe("messages say what to do", () => {
  it("an amount sent as a JSON number names the fix", async () => {
    const m = await newMerchant();
    const res = await m.api("/v1/payments", { body: depositBody({ amount: 1123.52 }) });
    expect(codeOf(res)).toEqual([400, "VALIDATION_ERROR"]);
    expect(res.body.error.message).toContain('amount: send amounts as decimal strings, e.g. "1123.52" (got a JSON number)');
  });

  it("an enumeration names its accepted values; a body that is not an object says so", async () => {
    const m = await newMerchant();
    const lower = await m.api("/v1/payments", { body: depositBody({ currency: "usd" }) });
    expect(codeOf(lower)).toEqual([400, "VALIDATION_ERROR"]);
    expect(lower.body.error.message).toContain("currency: must be one of TRY, EUR, USD, GBP, AED, SAR, CHF (exactly, case-sensitive)");
    const array = await m.api("/v1/payments", { rawBody: "[]" });
    expect(codeOf(array)).toEqual([400, "VALIDATION_ERROR"]);
    expect(messageOf(array)).toBe("body: must be a JSON object");
  });

  it("invalid JSON gives the position, line and column, without quoting the body", async () => {
    const m = await newMerchant();
    const res = await m.api("/v1/payments", { rawBody: '{\n  "reference": "secret-ref-9",\n  "amount": "1.00",,\n}' });
    expect(codeOf(res)).toEqual([400, "VALIDATION_ERROR"]);
    expect(res.body.error.message).toMatch(/^request body is not valid JSON at position 52 \(line 3, column 20\); send one JSON object/);
    expect(res.body.error.message).not.toContain("secret-ref-9");
    const cut = await m.api("/v1/payments", { rawBody: '{"reference": "x"' });
    expect(cut.body.error.message).toMatch(/not valid JSON at position 17 \(line 1, column 18\)/);
    const word = await m.api("/v1/payments", { rawBody: "secretword" });
    expect(word.body.error.message).toMatch(/^request body is not valid JSON \(check the quotes, commas and brackets\)/);
    expect(word.body.error.message).not.toContain("secretword");
  });

  it("a store payment in a currency without a profile charging AED names what is missing and who sets it up", async () => {
    const m = await newMerchant();
    const none = await m.api("/v1/store-payments", { body: storeBody({ amount: "10.00", currency: "GBP" }) });
    expect(codeOf(none)).toEqual([409, "PROVIDER_CURRENCY_MISMATCH"]);
    expect(none.body.error.message).toContain("no pricing profile for GBP gateway deposits charging AED");
    expect(none.body.error.message).toContain("an operator sets one up in the console (Pricing)");
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "GBP",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "GBP",
      settlementCurrency: "GBP",
      markupBps: 0,
      bufferBps: 0,
      commissionBps: 100,
      reason: "test: GBP charged in GBP",
    });
    const other = await m.api("/v1/store-payments", { body: storeBody({ amount: "10.00", currency: "GBP" }) });
    expect(codeOf(other)).toEqual([409, "PROVIDER_CURRENCY_MISMATCH"]);
    expect(other.body.error.message).toContain(
      "pricing profile for GBP gateway deposits charges in GBP; an operator changes its charge currency to AED in the console (Pricing)",
    );
  });
});

describe('an error answer says where to look it up (docs/api.md "Request log")', () => {
  it("a recorded request's error message ends with its request-log address, which answers it; an unrecorded one does not", async () => {
    const m = await newMerchant();
    const res = await m.api("/v1/payments", { body: depositBody({ amount: 100 }) });
    expect(codeOf(res)).toEqual([400, "VALIDATION_ERROR"]);
    expect(res.body.error.message).toMatch(LOG_POINTER);
    expect(res.body.error.message).toContain(`GET /v1/requests/${res.body.error.requestId} `);
    expect(messageOf(res)).not.toContain("See GET");
    const entry = await m.api(`/v1/requests/${res.body.error.requestId}`);
    expect(entry.status).toBe(200);
    expect(entry.body).toMatchObject({ status: 400, errorCode: "VALIDATION_ERROR" });
    // A refused key belongs to no merchant and is not recorded: no pointer.
    const refused = await call("/v1/payments", { key: "sk_sandbox_nope" });
    expect(codeOf(refused)).toEqual([401, "INVALID_API_KEY"]);
    expect(refused.body.error.message).not.toMatch(/See GET/);
  });
});
