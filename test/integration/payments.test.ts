import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db, depositBody, eventually, newMerchant, savePricingVersion } from "../support/fixtures";
import { usdAedRateToday } from "../support/checkout-sessions";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { SEEDED_USD_DEPOSIT_TERMS } from "@/lib/domain/pricing/seeded-rates";
import { present } from "../../scripts/harness/present";

const minutes = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 60_000);

describe("POST /v1/payments", () => {
  it("creates a deposit: 201 PENDING with the Payment shape, fallback pricing and acceptance periods", async () => {
    const m = await newMerchant({ defaultCommissionBps: 150 });
    const body = depositBody({ amount: "1123.52", currency: "EUR", method: "BANK_TRANSFER", customer: { id: "c-1", email: "a@b.co", country: "AE" } });
    const res = await m.api("/v1/payments", { body });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const p = res.body;
    expect(Object.keys(p).sort()).toEqual(
      [
        "amount",
        "approvedAt",
        "bankAccountId",
        "createdAt",
        "currency",
        "customer",
        "direction",
        "environment",
        "expiresAt",
        "fee",
        "finalizedAt",
        "id",
        "merchantId",
        "method",
        "pricing",
        "reference",
        "status",
      ].sort(),
    );
    expect(p).toMatchObject({
      merchantId: m.merchant.id,
      reference: body.reference,
      amount: "1123.52",
      fee: "16.85",
      currency: "EUR",
      method: "BANK_TRANSFER",
      direction: "DEPOSIT",
      environment: "sandbox",
      status: "PENDING",
      approvedAt: null,
      finalizedAt: null,
      customer: body.customer,
    });
    expect(p.bankAccountId).toMatch(/^[0-9a-f-]{36}$/);
    expect(minutes(p.createdAt, p.expiresAt)).toBe(60);
    expect(p.pricing).toMatchObject({
      schema: 1,
      fallback: true,
      ruleId: null,
      ruleVersion: 0,
      timezone: "Asia/Dubai",
      rateDay: dubaiDay(),
      originalCurrency: "EUR",
      chargeCurrency: "EUR",
      settlementCurrency: "EUR",
      baseRate: "1",
      effectiveRate: "1",
      commissionBps: 150,
      amountMinor: "112352",
      fee: "16.85",
      gateway: "112352",
      merchantNet: "1106.67",
    });

    const gateway = await m.api("/v1/payments", { body: depositBody({ method: "GATEWAY" }) });
    expect(gateway.body.bankAccountId).toBeNull();
    expect(minutes(gateway.body.createdAt, gateway.body.expiresAt)).toBe(30);
  });

  it("creates a withdrawal in PENDING_APPROVAL with a 1440-minute approval period; GATEWAY withdrawals are refused", async () => {
    const m = await newMerchant();
    const res = await m.api("/v1/payments", { body: depositBody({ method: "BANK_TRANSFER", direction: "WITHDRAWAL" }) });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("PENDING_APPROVAL");
    expect(minutes(res.body.createdAt, res.body.expiresAt)).toBe(1440);
    expect(res.body.pricing.merchantNet).toBe("100.00");
    const gw = await m.api("/v1/payments", { body: depositBody({ direction: "WITHDRAWAL" }) });
    expect(gw.status).toBe(400);
    expect(gw.body.error.code).toBe("VALIDATION_ERROR");
  });

  it("merchant policy changes acceptance periods", async () => {
    const m = await newMerchant({ minutes: { gatewayDeposit: 5, bankTransferDeposit: 7, withdrawalApproval: 9 } });
    const g = await m.api("/v1/payments", { body: depositBody() });
    const b = await m.api("/v1/payments", { body: depositBody({ method: "BANK_TRANSFER" }) });
    const w = await m.api("/v1/payments", { body: depositBody({ method: "BANK_TRANSFER", direction: "WITHDRAWAL" }) });
    expect([g, b, w].map((r) => minutes(r.body.createdAt, r.body.expiresAt))).toEqual([5, 7, 9]);
  });

  it("prices USD -> AED with the profile and today's rate (worked example 1123.52 USD = 112352 minor)", async () => {
    await usdAedRateToday();
    const m = await newMerchant();
    const version = await savePricingVersion(db, {
      merchantId: m.merchant.id,
      ...SEEDED_USD_DEPOSIT_TERMS,
      reason: "test",
    });
    const res = await m.api("/v1/payments", { body: depositBody({ amount: "1123.52", currency: "USD" }) });
    expect(res.status).toBe(201);
    expect(res.body.fee).toBe("28.09");
    expect(res.body.pricing).toEqual({
      schema: 1,
      fallback: false,
      ruleId: version.profileId,
      ruleVersion: 1,
      rateDay: dubaiDay(),
      timezone: "Asia/Dubai",
      originalCurrency: "USD",
      chargeCurrency: "AED",
      settlementCurrency: "USD",
      baseRate: "3.6725",
      effectiveRate: "3.7462254375",
      settlementRate: "1",
      commissionBps: 250,
      markupBps: 150,
      bufferBps: 50,
      reserveBps: 500,
      amountMinor: "112352",
      fee: "28.09",
      reserve: "56.18",
      merchantNet: "1039.25",
      settlementNet: "1039.25",
      gateway: "420896",
      atBase: "412613",
      markupIncome: "6189",
      bufferIncome: "2094",
      fxIncome: "8283",
      delayDays: 2,
      reserveDays: 90,
    });
  });

  it("409 FX_RATE_MISSING without a direct rate for today's Dubai day (a reverse pair does not count); nothing written", async () => {
    const m = await newMerchant();
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "CHF",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "SAR",
      settlementCurrency: "CHF",
      reason: "test",
    });
    await db.fxRate.upsert({
      where: { base_quote_day: { base: "SAR", quote: "CHF", day: dubaiDay() } },
      create: { base: "SAR", quote: "CHF", day: dubaiDay(), rate: "0.2300" },
      update: {},
    });
    const res = await m.api("/v1/payments", { body: depositBody({ currency: "CHF" }) });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("FX_RATE_MISSING");
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  });

  it("409 PRICING_DISABLED when the latest profile version is disabled", async () => {
    const m = await newMerchant();
    const base = {
      merchantId: m.merchant.id,
      currency: "EUR",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "EUR",
      settlementCurrency: "EUR",
    } as const;
    await savePricingVersion(db, { ...base, reason: "on" });
    expect((await m.api("/v1/payments", { body: depositBody({ currency: "EUR" }) })).status).toBe(201);
    await savePricingVersion(db, { ...base, enabled: false, reason: "off" });
    const res = await m.api("/v1/payments", { body: depositBody({ currency: "EUR" }) });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("PRICING_DISABLED");
  });

  it("400 AMOUNT_OUT_OF_RANGE outside the profile's lower and upper amount", async () => {
    const m = await newMerchant();
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "GBP",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "GBP",
      settlementCurrency: "GBP",
      minAmountMinor: 1000n,
      maxAmountMinor: 5000n,
      reason: "test",
    });
    for (const [amount, status] of [
      ["9.99", 400],
      ["10.00", 201],
      ["50.00", 201],
      ["50.01", 400],
    ] as const) {
      const res = await m.api("/v1/payments", { body: depositBody({ currency: "GBP", amount }) });
      expect(res.status, amount).toBe(status);
      if (status === 400) expect(res.body.error.code).toBe("AMOUNT_OUT_OF_RANGE");
    }
  });

  it("daily and monthly limits: pending and succeeded consume, failed and expired give back; another key does not get past", async () => {
    const m = await newMerchant();
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "SAR",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "SAR",
      settlementCurrency: "SAR",
      dailyLimitMinor: 30000n,
      monthlyLimitMinor: 50000n,
      reason: "test",
    });
    const pay = (amount: string) => m.api("/v1/payments", { body: depositBody({ currency: "SAR", amount }) });
    const first = await pay("200.00");
    expect(first.status).toBe(201);
    const over = await pay("100.01");
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe("DAILY_LIMIT");
    const toExpire = await pay("100.00");
    expect(toExpire.status).toBe(201); // exactly the daily limit
    const failed = await m.api(`/v1/sandbox/payments/${first.body.id}/complete`, { body: { outcome: "FAILED" } });
    expect(failed.body.status).toBe("FAILED");
    expect((await pay("150.00")).status).toBe(201); // the failed 200 was given back (daily 250 of 300, monthly 250 of 500)
    expect((await pay("50.01")).body.error?.code).toBe("DAILY_LIMIT");
    // Expiry gives the amount back too: the service's sweep expires the 100.00 payment (daily 150 of 300).
    await db.payment.update({ where: { id: toExpire.body.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    await eventually(async () => (await m.api(`/v1/payments/${toExpire.body.id}`)).body.status === "EXPIRED");
    expect((await pay("150.00")).status).toBe(201); // daily 300 of 300, monthly 300 of 500
    // Monthly: move today's counter usage into an earlier day of the month so only the monthly limit binds.
    const usage = await db.limitCounter.findMany({
      where: { profileId: (await db.pricingProfile.findFirstOrThrow({ where: { merchantId: m.merchant.id } })).id },
    });
    expect(usage.map((u) => [u.period[0], u.usedMinor]).sort()).toEqual([
      ["D", 30000n],
      ["M", 30000n],
    ]);
    await db.limitCounter.updateMany({
      where: { period: { startsWith: "M:" }, profileId: present(usage[0], "usage[0]").profileId },
      data: { usedMinor: 49000n },
    });
    await db.limitCounter.updateMany({ where: { period: { startsWith: "D:" }, profileId: present(usage[0], "usage[0]").profileId }, data: { usedMinor: 0n } });
    const monthly = await pay("10.01");
    expect(monthly.status).toBe(409);
    expect(monthly.body.error.code).toBe("MONTHLY_LIMIT");
  });

  it("enforces enabled currencies, the global amount limit, required customer members and the block list", async () => {
    const m = await newMerchant({ enabledCurrencies: ["USD", "EUR"], requiredCustomerFields: ["id", "country"] });
    const customer = { id: "cust-1", country: "AE" };
    const cur = await m.api("/v1/payments", { body: depositBody({ currency: "TRY", customer }) });
    expect([cur.status, cur.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    for (const amount of ["0.00", "1000000.01"]) {
      const res = await m.api("/v1/payments", { body: depositBody({ amount, customer }) });
      expect([res.status, res.body.error.code]).toEqual([400, "GLOBAL_AMOUNT_LIMIT"]);
    }
    expect((await m.api("/v1/payments", { body: depositBody({ amount: "1000000.00", customer }) })).status).toBe(201);
    const missing = await m.api("/v1/payments", { body: depositBody({ customer: { id: "cust-1" } }) });
    expect([missing.status, missing.body.error.code]).toEqual([400, "CUSTOMER_PROFILE_REQUIRED"]);
    expect(missing.body.error.message).toContain("customer.country");
    const none = await m.api("/v1/payments", { body: depositBody() });
    expect(none.body.error.code).toBe("CUSTOMER_PROFILE_REQUIRED");

    await db.blockListEntry.create({ data: { merchantId: m.merchant.id, kind: "EMAIL", value: "fraud@example.com", reason: "test" } });
    const blocked = await m.api("/v1/payments", { body: depositBody({ customer: { ...customer, email: "Fraud@Example.com" } }) });
    expect([blocked.status, blocked.body.error.code]).toEqual([403, "RISK_REJECTED"]);
    const other = await newMerchant();
    expect((await other.api("/v1/payments", { body: depositBody({ customer: { email: "fraud@example.com" } }) })).status).toBe(201);
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(1);
  });

  it("409 DUPLICATE_REFERENCE: a new key for the same reference never opens a second payment", async () => {
    const m = await newMerchant();
    const body = depositBody();
    expect((await m.api("/v1/payments", { body })).status).toBe(201);
    const again = await m.api("/v1/payments", { body });
    expect([again.status, again.body.error.code]).toEqual([409, "DUPLICATE_REFERENCE"]);
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => m.api("/v1/payments", { body: depositBody({ reference: "same-ref" }) })));
    // Racing inserts meet the unique index: one 201, every other answer 409 DUPLICATE_REFERENCE (never a 500).
    expect(concurrent.map((r) => (r.status === 201 ? "201" : `${r.status} ${r.body.error.code}`)).sort()).toEqual([
      "201",
      ...Array(9).fill("409 DUPLICATE_REFERENCE"),
    ]);
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(2);
  });

  it("a stored snapshot never changes when rates or profiles change later", async () => {
    await usdAedRateToday();
    const m = await newMerchant();
    const base = {
      merchantId: m.merchant.id,
      currency: "USD",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "AED",
      settlementCurrency: "USD",
    } as const;
    await savePricingVersion(db, { ...base, markupBps: 100, commissionBps: 100, reason: "v1" });
    const first = await m.api("/v1/payments", { body: depositBody() });
    await savePricingVersion(db, { ...base, markupBps: 300, commissionBps: 400, reason: "v2" });
    const second = await m.api("/v1/payments", { body: depositBody() });
    expect(second.body.pricing).toMatchObject({ ruleVersion: 2, markupBps: 300, commissionBps: 400, fee: "4.00" });
    const reread = await m.api(`/v1/payments/${first.body.id}`);
    expect(reread.body.pricing).toEqual(first.body.pricing);
    expect(reread.body.pricing).toMatchObject({ ruleVersion: 1, markupBps: 100, fee: "1.00" });
    await expect(db.pricingProfileVersion.updateMany({ where: { profileId: first.body.pricing.ruleId }, data: { markupBps: 1 } })).rejects.toThrow();
  });
});

describe("GET /v1/payments/{id}", () => {
  it("returns the payment with customer detail; 404 for unknown, malformed and another merchant's id", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const created = await a.api("/v1/payments", { body: depositBody({ customer: { email: "c@d.io" } }) });
    const read = await a.api(`/v1/payments/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    expect(read.headers.get("cache-control")).toBe("no-store");
    for (const path of [`/v1/payments/${created.body.id}`, `/v1/payments/${randomUUID()}`, "/v1/payments/not-a-uuid"]) {
      const res = await b.api(path);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
  });
});
