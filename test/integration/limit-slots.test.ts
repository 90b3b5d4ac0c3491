import { describe, expect, it } from "vitest";
import { db, depositBody, limitUsed, newMerchant, savePricingVersion, type TestMerchant } from "../support/fixtures";
import type { ConsoleActor } from "@/lib/domain/auth/actor";
import { dubaiDay, dubaiMonth } from "@/lib/contract/money/dubai";
import { limitUsage } from "@/lib/domain/reports/limit-usage";

// Limit counters in slots (docs/architecture.md "Consistency", docs/decisions/0193-limit-counters-in-slots.md): a
// period without a limit spreads its creates over slots 1..32, a period with one counts in slot 0 against the sum of
// all slots, releases take from slot 0, and every reader sums the slots. Real creates through the running service.

const day = () => `D:${dubaiDay()}`;
const month = () => `M:${dubaiMonth()}`;
const owner = (m: TestMerchant): ConsoleActor => ({ id: m.owner.id, username: m.owner.username, role: "MERCHANT", merchantId: m.merchant.id });

/** Saves a version of `m`'s USD gateway deposit profile with these limits (minor units; null = none); its id. */
async function usdProfile(m: TestMerchant, limits: { daily: bigint | null; monthly: bigint | null }): Promise<string> {
  const saved = await savePricingVersion(db, {
    merchantId: m.merchant.id,
    currency: "USD",
    channel: "GATEWAY",
    direction: "DEPOSIT",
    chargeCurrency: "USD",
    settlementCurrency: "USD",
    commissionBps: 0,
    dailyLimitMinor: limits.daily,
    monthlyLimitMinor: limits.monthly,
    reason: "test: limit counters in slots",
  });
  return saved.profileId;
}

/** `m`'s creates of these amounts (decimal text, USD), sent all at once. */
const createAll = (m: TestMerchant, amounts: string[]) => Promise.all(amounts.map((amount) => m.api("/v1/payments", { body: depositBody({ amount }) })));

/** `n` times `amount`. */
const times = (n: number, amount: string) => Array.from({ length: n }, () => amount);

/** The slot rows of one counter: slot -> used (minor units). */
async function slots(profileId: string, period: string): Promise<Map<number, bigint>> {
  const rows = await db.limitCounter.findMany({ where: { profileId, period }, orderBy: { slot: "asc" } });
  return new Map(rows.map((r) => [r.slot, r.usedMinor]));
}

/** `m`'s one profile in the console's limit usage (lib/domain/reports/limit-usage.ts). */
async function shownUsage(m: TestMerchant) {
  const usage = await limitUsage(db, owner(m));
  expect(usage.profiles).toHaveLength(1);
  return usage.profiles[0];
}

describe("limit counters in slots", () => {
  it("50 concurrent creates under a daily limit that admits 17 of them: 17 created, 33 DAILY_LIMIT, the day's counter 17 x the amount in slot 0", async () => {
    const m = await newMerchant();
    const profileId = await usdProfile(m, { daily: 17n * 1000n, monthly: null });
    const results = await createAll(m, times(50, "10.00"));
    const statuses = results.map((r) => (r.status === 201 ? "created" : `${r.status} ${r.body?.error?.code}`));
    expect(statuses.filter((s) => s === "created")).toHaveLength(17);
    expect(statuses.filter((s) => s !== "created")).toEqual(times(33, "409 DAILY_LIMIT"));
    expect(await slots(profileId, day())).toEqual(new Map([[0, 17_000n]]));
    expect(await limitUsed(profileId, day())).toBe(17_000n);
    // The month has no limit: its slots hold exactly the admitted creates (a refused one undid its month's count).
    expect(await limitUsed(profileId, month())).toBe(17_000n);
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(17);
  });

  it("creates of a period without a limit spread over several slots, and the console's limit usage shows their exact sum", async () => {
    const m = await newMerchant();
    const profileId = await usdProfile(m, { daily: null, monthly: 10_000_000n });
    const amounts = Array.from({ length: 40 }, (_, i) => `${i + 1}.00`); // 1.00 + ... + 40.00 = 820.00
    const results = await createAll(m, amounts);
    expect(results.map((r) => r.status)).toEqual(amounts.map(() => 201));
    const daySlots = await slots(profileId, day());
    expect(daySlots.size, "more than one slot row").toBeGreaterThan(1);
    expect(
      [...daySlots.keys()].every((slot) => slot >= 1 && slot <= 32),
      "only slots 1..32",
    ).toBe(true);
    expect([...daySlots.values()].reduce((a, b) => a + b, 0n)).toBe(82_000n);
    expect(await slots(profileId, month()), "the limited month counts in slot 0 only").toEqual(new Map([[0, 82_000n]]));
    expect(await shownUsage(m)).toMatchObject({
      profileId,
      daily: { used: "820.00", limit: null, ratio: null },
      monthly: { used: "820.00", limit: "100000.00", ratio: 0.0082 },
    });
  });

  it("a limit introduced after slotted usage counts that usage, on the insert path and on the update path of slot 0", async () => {
    const m = await newMerchant();
    const profileId = await usdProfile(m, { daily: null, monthly: null });
    const results = await createAll(m, times(20, "10.00"));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
    expect((await slots(profileId, day())).has(0), "no slot 0 row yet").toBe(false);
    await usdProfile(m, { daily: 25_000n, monthly: null }); // 200.00 used of a new 250.00
    const pay = (amount: string) => m.api("/v1/payments", { body: depositBody({ amount }) });
    const over = await pay("60.00"); // within 250.00 alone, beyond it with the 200.00 already used
    expect([over.status, over.body.error?.code]).toEqual([409, "DAILY_LIMIT"]);
    expect((await slots(profileId, day())).has(0), "a refusal writes no slot 0 row").toBe(false);
    expect((await pay("50.00")).status).toBe(201); // exactly the limit: slot 0 inserted
    expect((await slots(profileId, day())).get(0)).toBe(5_000n);
    const more = await pay("0.01"); // slot 0 exists now: the update path counts the other slots too
    expect([more.status, more.body.error?.code]).toEqual([409, "DAILY_LIMIT"]);
    expect(await limitUsed(profileId, day())).toBe(25_000n);
    expect(await shownUsage(m)).toMatchObject({ daily: { used: "250.00", limit: "250.00", ratio: 1 }, monthly: { used: "250.00", limit: null } });
  });

  it("a failure and an expiry after slotted usage give their amounts back to slot 0: the sums and the usage shown are right", async () => {
    const m = await newMerchant();
    const profileId = await usdProfile(m, { daily: null, monthly: null });
    const created = await createAll(m, times(10, "10.00"));
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    const [failed, expired] = created.map((r) => r.body.id as string);
    const fail = await m.api(`/v1/sandbox/payments/${failed}/complete`, { body: { outcome: "FAILED" } });
    expect([fail.status, fail.body.status]).toEqual([200, "FAILED"]);
    const expire = await m.api(`/v1/sandbox/payments/${expired}/expire`, { method: "POST" });
    expect([expire.status, expire.body.status]).toEqual([200, "EXPIRED"]);
    for (const period of [day(), month()]) {
      const counter = await slots(profileId, period);
      expect(counter.get(0), `${period}: the releases are in slot 0`).toBe(-2_000n);
      expect(
        [...counter.values()].reduce((a, b) => a + b, 0n),
        period,
      ).toBe(8_000n);
      expect(await limitUsed(profileId, period), period).toBe(8_000n);
    }
    await usdProfile(m, { daily: 10_000n, monthly: 1_000_000n }); // 80.00 used of 100.00 today
    expect(await shownUsage(m)).toMatchObject({ daily: { used: "80.00", limit: "100.00", ratio: 0.8 }, monthly: { used: "80.00", limit: "10000.00" } });
    const over = await m.api("/v1/payments", { body: depositBody({ amount: "20.01" }) });
    expect([over.status, over.body.error?.code]).toEqual([409, "DAILY_LIMIT"]);
    expect((await m.api("/v1/payments", { body: depositBody({ amount: "20.00" }) })).status).toBe(201);
    expect(await limitUsed(profileId, day())).toBe(10_000n);
  });
});
