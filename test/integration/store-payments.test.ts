import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { call, db, freshIp, messageOf, newMerchant, savePricingVersion } from "../support/fixtures";
import { createStorePayment, eurStoreMerchant, storeBody, storeCustomer, waitForCheckout } from "../support/store";
import { dubaiDay } from "@/lib/contract/money/dubai";

// POST /v1/store-payments (docs/api.md "Overview" 4, CreateStorePayment, the checkout object, the store-payment
// customer profile rules, Endpoints rule 2, Errors; docs/decisions/0054-store-payment-check-order.md: 403
// LEGACY_FLOW_DISABLED, docs/decisions/0067-store-checkout-expiry-follows-its-payment.md: store acceptance 30
// minutes). Global store switches and an empty catalog are in store-global.test.ts.

const errorOf = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];
const CHECKOUT_KEYS = [
  "store",
  "legalName",
  "state",
  "chargeCurrency",
  "chargeAmount",
  "url",
  "subtotal",
  "discount",
  "matchType",
  "expiresAt",
  "error",
  "livePayment",
];
const PAYMENT_KEYS = [
  "id",
  "merchantId",
  "reference",
  "amount",
  "fee",
  "currency",
  "method",
  "direction",
  "environment",
  "status",
  "pricing",
  "bankAccountId",
  "createdAt",
  "expiresAt",
  "approvedAt",
  "finalizedAt",
  "checkout",
  "customer",
];

async function paymentsOf(merchantId: string) {
  return db.payment.count({ where: { merchantId } });
}

describe("POST /v1/store-payments", () => {
  it("201: a STORE payment (GATEWAY DEPOSIT, PENDING) with checkout QUEUED and url null; polling shows READY with the basket", async () => {
    const m = await newMerchant();
    const body = storeBody({ amount: "12.34", description: "two small items" });
    const res = await m.api("/v1/store-payments", { body });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const p = res.body;
    expect(Object.keys(p)).toEqual(PAYMENT_KEYS);
    expect(p).toMatchObject({
      merchantId: m.merchant.id,
      reference: body.reference,
      amount: "12.34",
      currency: "AED",
      method: "GATEWAY",
      direction: "DEPOSIT",
      environment: "sandbox",
      status: "PENDING",
      bankAccountId: null,
      approvedAt: null,
      finalizedAt: null,
      customer: body.customer,
    });
    expect(Object.keys(p.checkout)).toEqual(CHECKOUT_KEYS);
    expect(p.checkout).toEqual({
      store: "Sandpiper Test Store",
      legalName: "Sandpiper Sandbox Store FZ-LLC",
      state: "QUEUED",
      chargeCurrency: "AED",
      chargeAmount: "12.34",
      url: null,
      subtotal: null,
      discount: null,
      matchType: null,
      expiresAt: p.expiresAt,
      error: null,
      livePayment: false,
    });
    // docs/decisions/0067-store-checkout-expiry-follows-its-payment.md: store checkout acceptance period 30 minutes (merchant.storeCheckoutMinutes).
    expect(Date.parse(p.expiresAt) - Date.parse(p.createdAt)).toBe(30 * 60_000);
    const row = await db.payment.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.kind).toBe("STORE");

    // Merchant polling (docs/api.md "Store checkout"): the checkout becomes READY with a bearer url.
    const ready = await waitForCheckout(m, p.id, "READY");
    expect(ready.status).toBe("PENDING");
    expect(ready.checkout).toMatchObject({
      state: "READY",
      chargeAmount: "12.34",
      subtotal: "12.49",
      discount: "0.15",
      matchType: "DISCOUNTED_BASKET",
      error: null,
    });
    expect(ready.checkout.url).toMatch(/\/store\/[A-Za-z0-9_-]{43}$/);
    const checkout = await db.storeCheckout.findUniqueOrThrow({ where: { paymentId: p.id } });
    expect(checkout.subtotalMinor! - checkout.discountMinor!).toBe(checkout.chargeMinor);
    expect(checkout.lines).toEqual([
      { sku: "ELC-044", name: expect.any(String), kind: "PRODUCT", unitPriceMinor: "799", quantity: 1 },
      { sku: "BTY-001", name: expect.any(String), kind: "PRODUCT", unitPriceMinor: "450", quantity: 1 },
    ]);
    // Lists never carry the checkout.
    const list = await m.api("/v1/payments");
    expect(list.body.items[0].id).toBe(p.id);
    expect(list.body.items[0]).not.toHaveProperty("checkout");
  });

  it("403 IP_NOT_ALLOWED from a source IP that is not on the merchant's allow-list (the customer's ip member does not count); nothing is created", async () => {
    const m = await newMerchant();
    const other = freshIp();
    const res = await m.api("/v1/store-payments", { body: storeBody({ customer: storeCustomer({ ip: other }) }), ip: other });
    expect(errorOf(res)).toEqual([403, "IP_NOT_ALLOWED"]);
    expect(await paymentsOf(m.merchant.id)).toBe(0);
    // The allow-list is checked before the body: even a malformed body gets 403.
    expect(errorOf(await m.api("/v1/store-payments", { body: { nonsense: true }, ip: other }))).toEqual([403, "IP_NOT_ALLOWED"]);
  });

  it("needs payments:create, a valid key and an Idempotency-Key; other methods are 405", async () => {
    const m = await newMerchant({ scopes: ["payments:read"] });
    expect(errorOf(await m.api("/v1/store-payments", { body: storeBody() }))).toEqual([403, "INSUFFICIENT_SCOPE"]);
    const full = await newMerchant();
    expect(errorOf(await full.api("/v1/store-payments", { body: storeBody(), key: "sk_sandbox_unknown" }))).toEqual([401, "INVALID_API_KEY"]);
    expect(errorOf(await full.api("/v1/store-payments", { body: storeBody(), idempotencyKey: null }))).toEqual([400, "VALIDATION_ERROR"]);
    expect(errorOf(await full.api("/v1/store-payments"))).toEqual([405, "METHOD_NOT_ALLOWED"]);
    expect(await paymentsOf(full.merchant.id)).toBe(0);
  });

  describe("customer profile (username, firstName, lastName, email required; id optional; country per merchant policy; never auto-filled)", () => {
    const cases: [string, (c: Record<string, any>) => Record<string, any> | undefined, string][] = [
      ["no customer at all", () => undefined, "customer.username, customer.firstName, customer.lastName, customer.email"],
      ["username missing", ({ username: _u, ...c }) => c, "customer.username"],
      ["firstName missing", ({ firstName: _f, ...c }) => c, "customer.firstName"],
      ["lastName missing", ({ lastName: _l, ...c }) => c, "customer.lastName"],
      ["email missing", ({ email: _e, ...c }) => c, "customer.email"],
      ["username and lastName blank", (c) => ({ ...c, username: "   ", lastName: " " }), "customer.username, customer.lastName"],
      ["only id and phone", () => ({ id: "cust-1", phone: "+971501234567" }), "customer.username, customer.firstName, customer.lastName, customer.email"],
    ];
    it.each(cases)("%s -> 400 CUSTOMER_PROFILE_REQUIRED naming the missing members; nothing created", async (_name, shape, missing) => {
      const m = await newMerchant();
      const res = await m.api("/v1/store-payments", { body: { ...storeBody(), customer: shape(storeCustomer()) } });
      expect(errorOf(res)).toEqual([400, "CUSTOMER_PROFILE_REQUIRED"]);
      expect(messageOf(res)).toBe(`customer profile incomplete: ${missing} required`);
      expect(await paymentsOf(m.merchant.id)).toBe(0);
    });

    it("id is optional: the payment stores the customer exactly as sent (no id filled in from username)", async () => {
      const m = await newMerchant();
      const customer = storeCustomer({ ip: "203.0.113.9" });
      const p = await createStorePayment(m, { customer });
      expect(p.customer).toEqual(customer);
      expect(p.customer).not.toHaveProperty("id");
      expect((await db.payment.findUniqueOrThrow({ where: { id: p.id } })).customer).toEqual(customer);
      const withId = await createStorePayment(m, { customer: storeCustomer({ id: "merchant-uid-7" }) });
      expect(withId.customer.id).toBe("merchant-uid-7");
    });

    it("country is required only when the merchant's policy says so; the merchant's /v1/payments rules (requiredCustomerFields) do not apply here", async () => {
      const strict = await newMerchant({ storeRequiresCountry: true, requiredCustomerFields: ["id", "phone"] });
      const missing = await strict.api("/v1/store-payments", { body: storeBody() });
      expect(errorOf(missing)).toEqual([400, "CUSTOMER_PROFILE_REQUIRED"]);
      expect(messageOf(missing)).toBe("customer profile incomplete: customer.country required");
      const ok = await strict.api("/v1/store-payments", { body: storeBody({ customer: storeCustomer({ country: "AE" }) }) });
      expect(ok.status).toBe(201);
      const relaxed = await newMerchant();
      expect((await relaxed.api("/v1/store-payments", { body: storeBody() })).status).toBe(201);
    });

    it("format errors stay VALIDATION_ERROR / INVALID_EMAIL; unknown members (also merchantId) are refused", async () => {
      const m = await newMerchant();
      expect(errorOf(await m.api("/v1/store-payments", { body: storeBody({ customer: storeCustomer({ email: "not-an-email" }) }) }))).toEqual([
        400,
        "INVALID_EMAIL",
      ]);
      expect(errorOf(await m.api("/v1/store-payments", { body: storeBody({ customer: storeCustomer({ country: "ae" }) }) }))).toEqual([
        400,
        "VALIDATION_ERROR",
      ]);
      expect(errorOf(await m.api("/v1/store-payments", { body: storeBody({ customer: storeCustomer({ cardNumber: "4111111111111111" }) }) }))).toEqual([
        400,
        "VALIDATION_ERROR",
      ]);
      const withMerchant = await m.api("/v1/store-payments", { body: storeBody({ merchantId: m.merchant.id }) });
      expect(errorOf(withMerchant)).toEqual([400, "VALIDATION_ERROR"]);
      expect(withMerchant.body.error.message).toContain("unknown property: merchantId");
      for (const over of [
        { amount: "12.345" },
        { amount: 12.34 },
        { currency: "JPY" },
        { reference: "" },
        { reference: "r".repeat(121) },
        { description: "d".repeat(501) },
      ]) {
        expect(errorOf(await m.api("/v1/store-payments", { body: storeBody(over) })), JSON.stringify(over)).toEqual([400, "VALIDATION_ERROR"]);
      }
      expect(await paymentsOf(m.merchant.id)).toBe(0);
    });
  });

  it("risk check: a blocked e-mail, or a CUSTOMER_ID entry matching the username when id is omitted, is 403 RISK_REJECTED", async () => {
    const m = await newMerchant();
    await db.blockListEntry.createMany({
      data: [
        { merchantId: m.merchant.id, kind: "EMAIL", value: "fraud@example.com", reason: "test" },
        { merchantId: m.merchant.id, kind: "CUSTOMER_ID", value: "shopper-blocked", reason: "test" },
      ],
    });
    expect(errorOf(await m.api("/v1/store-payments", { body: storeBody({ customer: storeCustomer({ email: "Fraud@Example.com" }) }) }))).toEqual([
      403,
      "RISK_REJECTED",
    ]);
    expect(errorOf(await m.api("/v1/store-payments", { body: storeBody({ customer: storeCustomer({ username: "shopper-blocked" }) }) }))).toEqual([
      403,
      "RISK_REJECTED",
    ]);
    // With an id the id is the stable reference: the username no longer matches the CUSTOMER_ID entry.
    expect((await m.api("/v1/store-payments", { body: storeBody({ customer: storeCustomer({ username: "shopper-blocked", id: "uid-1" }) }) })).status).toBe(
      201,
    );
    expect(await paymentsOf(m.merchant.id)).toBe(1);
  });

  it("cross-currency: 250.00 EUR is locked as 1015.05 AED (4.0000 x 1.01 x 1.005 = 4.0602); the original amount and currency stay on the payment", async () => {
    const m = await eurStoreMerchant();
    const res = await m.api("/v1/store-payments", { body: storeBody({ amount: "250.00", currency: "EUR" }) });
    expect(res.status).toBe(201);
    const p = res.body;
    expect(p).toMatchObject({ amount: "250.00", currency: "EUR", fee: "6.25" });
    // Worked figures: gateway = 25000 cents x 4.0602 = 101505 fils; atBase = 25000 x 4 = 100000;
    // markup income = round(25000 x 4.04) - 100000 = 1000; buffer income = 101505 - 101000 = 505;
    // fee = 2.50% of 250.00 = 6.25 EUR; merchantNet = 250.00 - 6.25 = 243.75 EUR.
    expect(p.pricing).toMatchObject({
      fallback: false,
      rateDay: dubaiDay(),
      timezone: "Asia/Dubai",
      originalCurrency: "EUR",
      chargeCurrency: "AED",
      settlementCurrency: "EUR",
      baseRate: "4",
      effectiveRate: "4.0602",
      settlementRate: "1",
      commissionBps: 250,
      markupBps: 100,
      bufferBps: 50,
      amountMinor: "25000",
      fee: "6.25",
      reserve: "0.00",
      merchantNet: "243.75",
      settlementNet: "243.75",
      gateway: "101505",
      atBase: "100000",
      markupIncome: "1000",
      bufferIncome: "505",
      fxIncome: "1505",
    });
    expect(p.checkout).toMatchObject({ state: "QUEUED", chargeCurrency: "AED", chargeAmount: "1015.05" });
    const ready = await waitForCheckout(m, p.id, "READY");
    expect(ready).toMatchObject({ amount: "250.00", currency: "EUR" });
    const c = await db.storeCheckout.findUniqueOrThrow({ where: { paymentId: p.id } });
    expect(c.chargeMinor).toBe(101505n);
    expect(c.subtotalMinor! - c.discountMinor!).toBe(101505n);
  });

  it("AED without a profile uses fallback pricing (charged in AED); another currency must have a profile charging AED (409 PROVIDER_CURRENCY_MISMATCH) and today's direct rate (409 FX_RATE_MISSING)", async () => {
    const m = await newMerchant({ defaultCommissionBps: 100 });
    const aed = await createStorePayment(m, { amount: "100.00" });
    expect(aed.pricing).toMatchObject({ fallback: true, originalCurrency: "AED", chargeCurrency: "AED", gateway: "10000", fee: "1.00" });
    expect(aed.checkout.chargeAmount).toBe("100.00");

    // No EUR profile: fallback pricing would charge EUR, which the store cannot take.
    const eur = await m.api("/v1/store-payments", { body: storeBody({ currency: "EUR" }) });
    expect(errorOf(eur)).toEqual([409, "PROVIDER_CURRENCY_MISMATCH"]);
    // A profile charging CHF in CHF: same refusal.
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "CHF",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "CHF",
      settlementCurrency: "CHF",
      markupBps: 0,
      bufferBps: 0,
      commissionBps: 100,
      reason: "test",
    });
    expect(errorOf(await m.api("/v1/store-payments", { body: storeBody({ currency: "CHF" }) }))).toEqual([409, "PROVIDER_CURRENCY_MISMATCH"]);
    // A profile charging GBP in AED, but no GBP->AED rate for today's Dubai day.
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "GBP",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "AED",
      settlementCurrency: "GBP",
      markupBps: 0,
      bufferBps: 0,
      commissionBps: 100,
      reason: "test",
    });
    expect(errorOf(await m.api("/v1/store-payments", { body: storeBody({ currency: "GBP" }) }))).toEqual([409, "FX_RATE_MISSING"]);
    // A bank-transfer profile charging AED does not count: store payments price as GATEWAY DEPOSIT.
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "SAR",
      channel: "BANK_TRANSFER",
      direction: "DEPOSIT",
      chargeCurrency: "AED",
      settlementCurrency: "SAR",
      markupBps: 0,
      bufferBps: 0,
      commissionBps: 100,
      reason: "test",
    });
    expect(errorOf(await m.api("/v1/store-payments", { body: storeBody({ currency: "SAR" }) }))).toEqual([409, "PROVIDER_CURRENCY_MISMATCH"]);
    // A currency the merchant has not enabled.
    const narrow = await newMerchant({ enabledCurrencies: ["USD"] });
    expect(errorOf(await narrow.api("/v1/store-payments", { body: storeBody() }))).toEqual([400, "VALIDATION_ERROR"]);
    expect(await paymentsOf(m.merchant.id)).toBe(1);
  });

  it("limits: the GATEWAY DEPOSIT profile's amount range and daily limit apply (400 AMOUNT_OUT_OF_RANGE, 409 DAILY_LIMIT); the global amount limit too", async () => {
    const m = await eurStoreMerchant();
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
      minAmountMinor: 500n,
      dailyLimitMinor: 30_000n,
      reason: "test: limits",
    });
    expect(errorOf(await m.api("/v1/store-payments", { body: storeBody({ currency: "EUR", amount: "4.99" }) }))).toEqual([400, "AMOUNT_OUT_OF_RANGE"]);
    expect((await m.api("/v1/store-payments", { body: storeBody({ currency: "EUR", amount: "200.00" }) })).status).toBe(201);
    expect(errorOf(await m.api("/v1/store-payments", { body: storeBody({ currency: "EUR", amount: "100.01" }) }))).toEqual([409, "DAILY_LIMIT"]);
    expect((await m.api("/v1/store-payments", { body: storeBody({ currency: "EUR", amount: "100.00" }) })).status).toBe(201);
    expect(errorOf(await m.api("/v1/store-payments", { body: storeBody({ amount: "0.00" }) }))).toEqual([400, "GLOBAL_AMOUNT_LIMIT"]);
    expect(await paymentsOf(m.merchant.id)).toBe(2);
  });

  it("403 LEGACY_FLOW_DISABLED for a merchant with customer amount-entry enabled; nothing is created", async () => {
    const m = await newMerchant({ amountEntryEnabled: true });
    const res = await m.api("/v1/store-payments", { body: storeBody() });
    expect(errorOf(res)).toEqual([403, "LEGACY_FLOW_DISABLED"]);
    expect(res.body.error.message).toContain("/v1/checkout-sessions");
    expect(await paymentsOf(m.merchant.id)).toBe(0);
    expect(await db.idempotencyRecord.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  });

  it("a replay returns the same payment id with the CURRENT checkout state and Idempotency-Replayed: true; another body with the key is 409", async () => {
    const m = await newMerchant();
    const body = storeBody();
    const key = `store-${randomUUID()}`;
    const first = await m.api("/v1/store-payments", { body, idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(first.body.checkout.state).toBe("QUEUED");
    expect(first.headers.get("idempotency-replayed")).toBeNull();
    await waitForCheckout(m, first.body.id, "READY");

    const replay = await m.api("/v1/store-payments", { body, idempotencyKey: key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.body.checkout.state).toBe("READY");
    expect(replay.body.checkout.url).toMatch(/\/store\//);

    const conflict = await m.api("/v1/store-payments", { body: { ...body, amount: "99.00" }, idempotencyKey: key });
    expect(errorOf(conflict)).toEqual([409, "IDEMPOTENCY_CONFLICT"]);
    // A new key for the same reference must not open a new payment.
    expect(errorOf(await m.api("/v1/store-payments", { body }))).toEqual([409, "DUPLICATE_REFERENCE"]);
    expect(await paymentsOf(m.merchant.id)).toBe(1);
  });

  it("concurrent identical requests create exactly one payment and one store job", async () => {
    const m = await newMerchant();
    const body = storeBody();
    const key = `race-${randomUUID()}`;
    const responses = await Promise.all(Array.from({ length: 6 }, () => m.api("/v1/store-payments", { body, idempotencyKey: key })));
    expect(responses.map((r) => r.status)).toEqual(Array(6).fill(201));
    const ids = new Set(responses.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect(responses.filter((r) => r.headers.get("idempotency-replayed") === "true")).toHaveLength(5);
    const [id] = [...ids];
    await waitForCheckout(m, id!, "READY");
    expect(await db.payment.count({ where: { merchantId: m.merchant.id, reference: body.reference } })).toBe(1);
    expect(await db.storeCheckout.count({ where: { payment: { merchantId: m.merchant.id } } })).toBe(1);
    // One handoff: claimed once, answered READY.
    expect((await db.storeCheckout.findUniqueOrThrow({ where: { paymentId: id } })).handoffAttempts).toBe(1);
  });

  it("the generic simulation cannot complete a store payment (409); the payment stays PENDING", async () => {
    const m = await newMerchant();
    const p = await createStorePayment(m);
    await waitForCheckout(m, p.id, "READY");
    for (const outcome of ["SUCCEEDED", "FAILED"]) {
      const res = await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome } });
      expect(errorOf(res)).toEqual([409, "INVALID_STATE"]);
      expect(res.body.error.message).toMatch(/store/);
    }
    const read = await m.api(`/v1/payments/${p.id}`);
    expect(read.body).toMatchObject({ status: "PENDING", checkout: { state: "READY" } });
    expect(await db.ledgerEntry.count({ where: { paymentId: p.id } })).toBe(0);
  });

  it("another merchant cannot read the store payment (404); the seeded merchant's allow-list does not help another key", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const p = await createStorePayment(a);
    expect(errorOf(await b.api(`/v1/payments/${p.id}`))).toEqual([404, "NOT_FOUND"]);
    // b's key from a's allow-listed IP: refused, allow-lists are per merchant.
    expect(errorOf(await call("/v1/store-payments", { body: storeBody(), defaultKey: b.key, defaultIp: a.ip }))).toEqual([403, "IP_NOT_ALLOWED"]);
  });
});
