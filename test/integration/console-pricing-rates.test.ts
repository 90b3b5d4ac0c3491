import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { auditOf, inTx, newOperator, pricingForm, refusal } from "../support/console";
import { db, depositBody, newMerchant, savePricingVersion } from "../support/fixtures";
import { PricingVersionInput, saveProfileVersion, setProfileEnabled } from "@/lib/domain/pricing/profile-versions";
import { missingRatesToday, RateInput, saveRate } from "@/lib/domain/pricing/fx-rates";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { present } from "../../scripts/harness/present";

const form = (merchantId: string, over: Record<string, string> = {}) =>
  pricingForm(merchantId, { commissionBps: "300", delayDays: "1", reason: "new commission agreed", ...over });

describe("console: pricing profile versions", () => {
  it("a version needs a reason and valid fields; saving changes the next payment's snapshot, never an earlier one's", async () => {
    const operator = await newOperator();
    const m = await newMerchant();
    const invalid = PricingVersionInput.safeParse(
      form(m.merchant.id, { reason: "", markupBps: "-1", channel: "GATEWAY", direction: "WITHDRAWAL", minAmount: "10", maxAmount: "5", dailyLimit: "1.234" }),
    );
    expect(invalid.success).toBe(false);
    expect(invalid.error!.issues.map((i) => i.path[0])).toEqual(expect.arrayContaining(["reason", "markupBps", "dailyLimit"]));
    const refine = PricingVersionInput.safeParse(form(m.merchant.id, { direction: "WITHDRAWAL", minAmount: "10", maxAmount: "5" }));
    expect(refine.error!.issues.map((i) => `${String(i.path[0])}: ${i.message}`)).toEqual([
      "direction: GATEWAY supports deposits only",
      "maxAmount: must not be below the lower amount",
    ]);

    const before = (await m.api("/v1/payments", { body: depositBody({ currency: "EUR", amount: "200.00" }) })).body;
    expect(before.pricing).toMatchObject({ fallback: true, ruleVersion: 0 });

    const v1 = await inTx((tx) => saveProfileVersion(tx, operator, PricingVersionInput.parse(form(m.merchant.id, { dailyLimit: "5000", monthlyLimit: "" }))));
    expect(v1).toMatchObject({
      version: 1,
      commissionBps: 300,
      commissionFixedMinor: null,
      dailyLimitMinor: 500000n,
      monthlyLimitMinor: null,
      reason: "new commission agreed",
      createdById: operator.id,
    });
    const after = (await m.api("/v1/payments", { body: depositBody({ currency: "EUR", amount: "200.00" }) })).body;
    expect(after.pricing).toMatchObject({ fallback: false, ruleVersion: 1, commissionBps: 300, fee: "6.00", delayDays: 1 });
    expect((await m.api(`/v1/payments/${before.id}`)).body.pricing).toEqual(before.pricing);

    const v2 = await inTx((tx) =>
      saveProfileVersion(
        tx,
        operator,
        PricingVersionInput.parse(form(m.merchant.id, { commissionType: "FIXED", commissionFixed: "1.50", reason: "flat fee" })),
      ),
    );
    expect(v2).toMatchObject({ version: 2, commissionBps: null, commissionFixedMinor: 150n });
    const audits = await db.auditLog.findMany({ where: { merchantId: m.merchant.id, entity: "pricing_profile_version" }, orderBy: { createdAt: "asc" } });
    expect(audits.map((a) => [a.action, a.reason])).toEqual([
      ["pricing_profile.create", "new commission agreed"],
      ["pricing_profile.new_version", "flat fee"],
    ]);
    expect(present(audits?.[1], "audits?.[1]").before).toMatchObject({ version: 1, commissionBps: 300, dailyLimitMinor: "500000" });
    expect(present(audits?.[1], "audits?.[1]").after).toMatchObject({ version: 2, commissionFixedMinor: "150" });

    // Disabling saves a copy with enabled = false; new payments on the profile are refused, old ones untouched.
    const v3 = await inTx((tx) => setProfileEnabled(tx, operator, { profileId: v1.profileId, enabled: false, reason: "paused by risk" }));
    expect(v3).toMatchObject({ version: 3, enabled: false, commissionFixedMinor: 150n });
    const blocked = await m.api("/v1/payments", { body: depositBody({ currency: "EUR" }) });
    expect(blocked.body.error.code).toBe("PRICING_DISABLED");
    expect(await refusal(inTx((tx) => setProfileEnabled(tx, operator, { profileId: v1.profileId, enabled: false, reason: "again" })))).toMatchObject({
      code: "INVALID_STATE",
    });
    // Versions are immutable rows: the database refuses to change one.
    await expect(db.pricingProfileVersion.update({ where: { id: v1.id }, data: { commissionBps: 1 } })).rejects.toThrow(/immutable/);
  });
});

describe("console: FX rates", () => {
  it("a rate for today lifts FX_RATE_MISSING and the missing-rate warning; past days are refused; audited", async () => {
    const operator = await newOperator();
    const m = await newMerchant();
    // SAR -> TRY: a pair no other test uses.
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "SAR",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "TRY",
      settlementCurrency: "SAR",
      reason: "test",
    });
    const today = dubaiDay();
    const idempotencyKey = `fx-${randomUUID()}`;
    const body = depositBody({ currency: "SAR", amount: "100.00" });
    expect((await m.api("/v1/payments", { body, idempotencyKey })).body.error.code).toBe("FX_RATE_MISSING");
    expect((await missingRatesToday(db)).find((r) => r.pair === "SAR->TRY")).toMatchObject({ usedBy: 1 });

    expect(RateInput.safeParse({ base: "SAR", quote: "SAR", day: today, rate: "1", reason: "same" }).success).toBe(false);
    expect(RateInput.safeParse({ base: "SAR", quote: "TRY", day: today, rate: "0", reason: "zero" }).success).toBe(false);
    expect(RateInput.safeParse({ base: "SAR", quote: "TRY", day: today, rate: "1e3", reason: "sci" }).success).toBe(false);
    const yesterday = dubaiDay(new Date(Date.now() - 86_400_000));
    const past = await refusal(
      inTx((tx) => saveRate(tx, operator, RateInput.parse({ base: "SAR", quote: "TRY", day: yesterday, rate: "8.1", reason: "late" }))),
    );
    expect(past).toMatchObject({ code: "VALIDATION_ERROR" });

    // The reverse pair does not count.
    await inTx((tx) => saveRate(tx, operator, RateInput.parse({ base: "TRY", quote: "SAR", day: today, rate: "0.1234", reason: "reverse only" })));
    expect((await m.api("/v1/payments", { body, idempotencyKey })).body.error.code).toBe("FX_RATE_MISSING");

    const saved = await inTx((tx) => saveRate(tx, operator, RateInput.parse({ base: "SAR", quote: "TRY", day: today, rate: "8.100", reason: "treasury" })));
    expect(saved.rate).toBe("8.1");
    expect((await missingRatesToday(db)).find((r) => r.pair === "SAR->TRY")).toBeUndefined();
    const created = await m.api("/v1/payments", { body, idempotencyKey });
    expect(created.status).toBe(201);
    expect(created.body.pricing).toMatchObject({ chargeCurrency: "TRY", baseRate: "8.1", gateway: "81000" });

    // A correction applies to new payments only, and the audit keeps both values.
    await inTx((tx) => saveRate(tx, operator, RateInput.parse({ base: "SAR", quote: "TRY", day: today, rate: "8.2", reason: "typo" })));
    expect((await m.api(`/v1/payments/${created.body.id}`)).body.pricing.baseRate).toBe("8.1");
    const [create, correct] = await auditOf(saved.id);
    expect(create).toMatchObject({ action: "fx_rate.create", reason: "treasury", after: { pair: "SAR->TRY", rate: "8.1", day: today } });
    expect(correct).toMatchObject({ action: "fx_rate.correct", reason: "typo", before: { rate: "8.1" }, after: { rate: "8.2" } });
  });
});
