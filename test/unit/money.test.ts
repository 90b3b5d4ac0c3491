import { describe, expect, it } from "vitest";
import { fromMinor, toMinor } from "@/lib/contract/money/currency";
import { bpsOfMinor, convertMinor, displayRate, parseRate } from "@/lib/contract/money/rates";
import { dubaiDay, dubaiDayEnd, dubaiDayStart, isValidDay } from "@/lib/contract/money/dubai";
import { computeSnapshot, type PricingTerms } from "@/lib/domain/pricing/snapshot";
import { canonicalJson } from "@/lib/application/http/idempotency";
import { normalizeIp } from "@/lib/domain/auth/ip";

describe("minor units", () => {
  it("parses and formats decimal amounts exactly", () => {
    expect(toMinor("1123.52")).toBe(112352n);
    expect(toMinor("0.5")).toBe(50n);
    expect(toMinor("9999999999.99")).toBe(999999999999n);
    expect(fromMinor(112352n)).toBe("1123.52");
    expect(fromMinor(5n)).toBe("0.05");
    expect(fromMinor(-105n)).toBe("-1.05");
    expect(() => toMinor("1.234")).toThrow();
    expect(() => toMinor("1e3")).toThrow();
  });
  it("rounds half up at the minor unit", () => {
    expect(convertMinor(1n, parseRate("0.5"))).toBe(1n);
    expect(convertMinor(1n, parseRate("0.49"))).toBe(0n);
    expect(convertMinor(112352n, parseRate("3.6725"))).toBe(412613n);
    expect(bpsOfMinor(112352n, 250)).toBe(2809n); // 2808.8
    expect(bpsOfMinor(2n, 2500)).toBe(1n); // 0.5 -> 1
    expect(bpsOfMinor(1n, 4999)).toBe(0n);
  });
});

describe("Dubai business days", () => {
  it("maps instants to Dubai days (UTC+4)", () => {
    expect(dubaiDay(new Date("2026-11-21T19:59:59Z"))).toBe("2026-11-21");
    expect(dubaiDay(new Date("2026-11-21T20:00:00Z"))).toBe("2026-11-22");
    expect(dubaiDayStart("2026-11-22").toISOString()).toBe("2026-11-21T20:00:00.000Z");
    expect(dubaiDayEnd("2026-11-22").toISOString()).toBe("2026-11-22T20:00:00.000Z");
    expect(isValidDay("2026-02-30")).toBe(false);
    expect(isValidDay("2026-02-28")).toBe(true);
    // Bounded: years before 1970 (a Dubai day start in year 0 broke the database) and after 9999 are refused.
    for (const day of ["0000-01-01", "0001-01-01", "1969-12-31"]) expect(isValidDay(day), day).toBe(false);
    for (const day of ["1970-01-01", "9999-12-31"]) expect(isValidDay(day), day).toBe(true);
  });
});

const terms = (over: Partial<PricingTerms> = {}): PricingTerms => ({
  ruleId: "00000000-0000-4000-8000-000000000001",
  ruleVersion: 1,
  fallback: false,
  chargeCurrency: "AED",
  settlementCurrency: "USD",
  markupBps: 150,
  bufferBps: 50,
  commissionBps: 250,
  commissionFixedMinor: null,
  reserveBps: 500,
  delayDays: 2,
  reserveDays: 90,
  ...over,
});

describe("pricing snapshot (docs/api.md 'Pricing' formulas, worked numbers)", () => {
  it("USD 1123.52 charged in AED at 3.6725 with 1.5% markup and 0.5% buffer", () => {
    const s = computeSnapshot({
      amountMinor: 112352n,
      currency: "USD",
      direction: "DEPOSIT",
      terms: terms(),
      baseRate: "3.6725",
      settlementRate: "1",
      rateDay: "2026-11-22",
    });
    expect(s).toMatchObject({
      schema: 1,
      timezone: "Asia/Dubai",
      amountMinor: "112352",
      baseRate: "3.6725",
      effectiveRate: "3.7462254375", // 3.6725 x 1.015 x 1.005
      atBase: "412613", // 412612.72
      gateway: "420896", // 420895.920354
      markupIncome: "6189", // 418802 - 412613
      bufferIncome: "2094", // 420896 - 418802
      fxIncome: "8283",
      fee: "28.09", // 2.5% of 1123.52 = 28.088
      reserve: "56.18", // 5% = 56.176
      merchantNet: "1039.25", // 1123.52 - 28.09 - 56.18
      settlementNet: "1039.25",
      settlementRate: "1",
    });
  });
  it("withdrawal debt is amount + commission and carries no reserve", () => {
    const s = computeSnapshot({
      amountMinor: 10000n,
      currency: "EUR",
      direction: "WITHDRAWAL",
      terms: terms({ chargeCurrency: "EUR", settlementCurrency: "EUR" }),
      baseRate: "1",
      settlementRate: "1",
      rateDay: "2026-11-22",
    });
    expect(s.fee).toBe("2.50");
    expect(s.reserve).toBe("0.00");
    expect(s.merchantNet).toBe("102.50");
  });
  it("fixed commission is in minor units of the original currency", () => {
    const s = computeSnapshot({
      amountMinor: 10000n,
      currency: "EUR",
      direction: "DEPOSIT",
      terms: terms({ commissionBps: null, commissionFixedMinor: 125n, reserveBps: 0, chargeCurrency: "EUR", settlementCurrency: "EUR" }),
      baseRate: "1",
      settlementRate: "1",
      rateDay: "2026-11-22",
    });
    expect(s.fee).toBe("1.25");
    expect(s.merchantNet).toBe("98.75");
    expect(s.commissionBps).toBe(0);
  });
  it("settlement in another currency converts the net at the settlement rate", () => {
    const s = computeSnapshot({
      amountMinor: 10000n,
      currency: "USD",
      direction: "DEPOSIT",
      terms: terms({ settlementCurrency: "AED", reserveBps: 0 }),
      baseRate: "3.6725",
      settlementRate: "3.6725",
      rateDay: "2026-11-22",
    });
    expect(s.merchantNet).toBe("97.50");
    expect(s.settlementNet).toBe("358.07"); // 9750 x 3.6725 = 35806.875 -> 35807
  });
});

describe("helpers", () => {
  it("canonical JSON ignores key order and whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: "x" } })).toBe('{"a":{"c":"x","d":[1,{"y":2,"z":1}]},"b":1}');
  });
  it("normalises exact IPs and refuses ranges", () => {
    expect(normalizeIp("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(normalizeIp("2001:DB8:0:0::1")).toBe("2001:db8::1");
    expect(normalizeIp("0:0:0:0:0:0:0:1")).toBe("::1");
    expect(normalizeIp("10.0.0.0/8")).toBeNull();
    expect(normalizeIp("10.0.0.*")).toBeNull();
    expect(normalizeIp("127.1")).toBeNull();
    expect(normalizeIp("example.com")).toBeNull();
  });
});

describe("displayRate (customer pages)", () => {
  it("shows 6 significant digits, half up, without exponent or trailing zeros", () => {
    expect(displayRate("3.7462254375")).toBe("3.74623");
    expect(displayRate("0.0912345678")).toBe("0.0912346");
    expect(displayRate("0.000001234567")).toBe("0.00000123457");
    expect(displayRate("1")).toBe("1");
    expect(displayRate("3.6725")).toBe("3.6725");
    expect(displayRate("3.672500")).toBe("3.6725");
    expect(displayRate("123456789.5")).toBe("123457000");
  });
});
