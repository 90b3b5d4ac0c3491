import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseStored, StoredDataError } from "@/lib/contract/schemas/stored/parse";
import { computeSnapshot, storedSnapshot } from "@/lib/domain/pricing/snapshot";
import { DEFAULT_SETTINGS, settingsOf } from "@/lib/domain/settings/service-settings";

// docs/decisions/0153-stored-json-is-parsed-where-it-is-read.md.

const snapshot = () =>
  computeSnapshot({
    amountMinor: 10_000n,
    currency: "USD",
    direction: "DEPOSIT",
    baseRate: "1",
    settlementRate: "1",
    rateDay: "2026-01-05",
    terms: {
      ruleId: null,
      ruleVersion: 0,
      fallback: true,
      chargeCurrency: "USD",
      settlementCurrency: "USD",
      markupBps: 0,
      bufferBps: 0,
      commissionBps: 150,
      commissionFixedMinor: null,
      reserveBps: 500,
      delayDays: 0,
      reserveDays: 0,
    },
  });

describe("parseStored", () => {
  it("gives the schema's output for a value that matches", () => {
    expect(parseStored(z.object({ a: z.string() }), { a: "x" }, "t.c")).toEqual({ a: "x" });
  });

  it("refuses a value that does not match with an error naming the column and every wrong member, not their values", () => {
    const schema = z.object({ a: z.string(), b: z.object({ c: z.int() }) });
    let error: unknown;
    try {
      parseStored(schema, { b: { c: "secret-value" } }, "t.c");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoredDataError);
    expect((error as StoredDataError).column).toBe("t.c");
    expect((error as Error).message).toMatch(/^stored t\.c does not match its schema: a: .*expected string.*; b\.c: .*expected number/);
    expect((error as Error).message).not.toContain("secret-value");
  });
});

describe("stored pricing snapshot (payments.pricing)", () => {
  it("is read with its members in the documented order; null stays null", () => {
    const stored = Object.fromEntries(Object.entries(snapshot()).reverse());
    expect(Object.keys(storedSnapshot(stored)!)).toEqual(Object.keys(snapshot()));
    expect(storedSnapshot(null)).toBeNull();
  });

  it("a snapshot missing a member (the ledger's reserve) is refused, naming the column and the member", () => {
    const { reserve: _reserve, ...broken } = snapshot();
    expect(() => storedSnapshot(broken)).toThrow(StoredDataError);
    expect(() => storedSnapshot(broken)).toThrow(/^stored payments\.pricing does not match its schema: reserve: /);
  });
});

describe("stored service settings (settings.value)", () => {
  it("takes defaults for members not stored, and refuses a member of another type", () => {
    expect(settingsOf(null)).toEqual(DEFAULT_SETTINGS);
    expect(settingsOf({ intakePaused: true })).toEqual({ ...DEFAULT_SETTINGS, intakePaused: true });
    expect(() => settingsOf({ intakePaused: "yes" })).toThrow(/stored settings\.value \(service\) does not match its schema: intakePaused: /);
  });
});
