import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { ConsoleActor } from "@/lib/domain/auth/actor";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { importRates, RateInput, saveRate } from "@/lib/domain/pricing/fx-rates";
import { addDays, daysBetween, extendSeededRates, SEEDED_RATE_WINDOW } from "@/lib/domain/pricing/seeded-rates";
import { transaction } from "@/lib/platform/db";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { pruneEvents } from "@/lib/domain/events/retention";
import { overview, RATE_LOOKAHEAD_DAYS } from "@/lib/domain/reports/overview";
import { call, db, depositBody, eventually, newMerchant, savePricingVersion, type TestMerchant } from "../support/fixtures";
import { startService } from "../support/global-setup";
import { TEST_DATABASE_URL } from "../support/env";
import { createStorePayment, waitForCheckout } from "../support/store";
import { amountEntryMerchant } from "../support/checkout-sessions";
import { present } from "../../scripts/harness/present";

// The calendar over real HTTP against the built service (docs/guides/operate-sandpiper.md "Seeded sandbox", docs/api.md "Sandbox clock"): the
// seeded pair keeps its rates across days, a merchant's moved clock reaches every job that reads the time, and a
// clock advance stays small whatever the merchant's size.

const operator: ConsoleActor = { id: "00000000-0000-0000-0000-000000000002", username: "calendar-operator", role: "OPERATOR", merchantId: null };
const DAY_MS = 86_400_000;
const advance = (m: TestMerchant, by: string) => m.api("/v1/sandbox/clock/advance", { body: { by } });

/** Seconds from now until one minute after the next Dubai midnight (20:00 UTC). */
function secondsPastNextDubaiMidnight(): number {
  const now = Date.now();
  const midnight = Date.parse(`${dubaiDay(new Date(now))}T00:00:00Z`) - 4 * 3_600_000 + DAY_MS;
  return Math.ceil((midnight - now) / 1000) + 60;
}

describe("rates across days", () => {
  it("the seeded pair has a rate for every day from 30 days back to 90 ahead; the job extends it past a moved clock and keeps an operator's rate", async () => {
    const today = dubaiDay();
    const window = daysBetween(addDays(today, -SEEDED_RATE_WINDOW.pastDays), addDays(today, SEEDED_RATE_WINDOW.daysAhead));
    const seeded = await db.fxRate.findMany({ where: { base: "USD", quote: "AED", day: { in: window } }, select: { day: true } });
    expect(seeded.map((r) => r.day).sort()).toEqual(window);

    // An operator's rate on a day the window reaches later is never replaced by the seeded one.
    const far = addDays(today, 300);
    await transaction((tx) => saveRate(tx, operator, RateInput.parse({ base: "USD", quote: "AED", day: far, rate: "3.7", reason: "treasury" })));
    // The window reaches 90 days past the latest sandbox day of any merchant: other tests (the simulated weeks) move
    // clocks weeks ahead meanwhile, so the expected end is read from the merchants' offsets before and after.
    const at = Date.now() + 250 * DAY_MS;
    const windowEnd = async () => {
      const [row] = await db.$queryRaw<{ ahead: bigint | null }[]>`SELECT max(clock_offset_ms) AS ahead FROM merchants`;
      return addDays(dubaiDay(new Date(at + Number(row?.ahead ?? 0n))), SEEDED_RATE_WINDOW.daysAhead);
    };
    const before = await windowEnd();
    const extended = await extendSeededRates(db, { now: new Date(at) });
    const until = extended.until ?? "";
    expect(until >= before && until <= (await windowEnd()), `${until} from ${before}`).toBe(true);
    expect(extended.added).toBeGreaterThan(0);
    expect(await db.fxRate.findUnique({ where: { base_quote_day: { base: "USD", quote: "AED", day: far } } })).toMatchObject({
      rate: "3.7",
      createdById: operator.id,
    });
    // Running it again adds nothing (idempotent).
    expect((await extendSeededRates(db, { now: new Date(Date.now() + 250 * DAY_MS) })).added).toBe(0);
  });

  it("a USD payment right after Dubai midnight, and after the clock moved 3 days, is 201 at that day's rate", async () => {
    // USD gateway deposits charged in AED (as the seeded merchant's): each needs its day's USD->AED rate.
    const m = await amountEntryMerchant();
    const crossed = await advance(m, `${secondsPastNextDubaiMidnight()}s`);
    expect(crossed.status, crossed.text).toBe(200);
    expect(crossed.body.missingRates).toEqual([]);
    const tomorrow = addDays(dubaiDay(), 1);
    const first = await m.api("/v1/payments", { body: depositBody() });
    expect(first.status, first.text).toBe(201);
    expect(first.body.pricing).toMatchObject({ chargeCurrency: "AED", baseRate: "3.6725" });
    expect(dubaiDay(new Date(first.body.createdAt))).toBe(tomorrow);

    expect((await advance(m, "3d")).status).toBe(200);
    const later = await m.api("/v1/payments", { body: depositBody() });
    expect(later.status, later.text).toBe(201);
    expect(dubaiDay(new Date(later.body.createdAt))).toBe(addDays(tomorrow, 3));
  });

  it("an advance into days without a rate still moves the clock and names the pairs and days; such a pair stays FX_RATE_MISSING", async () => {
    const m = await newMerchant();
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "GBP",
      channel: "BANK_TRANSFER",
      direction: "DEPOSIT",
      chargeCurrency: "CHF",
      settlementCurrency: "GBP",
      commissionBps: 100,
      reason: "test: a pair nobody rates",
    });
    const moved = await advance(m, "2d");
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.offsetMs).toBe(2 * DAY_MS);
    const start = dubaiDay(new Date(moved.body.now));
    expect(moved.body.missingRates).toEqual([{ pair: "GBP->CHF", base: "GBP", quote: "CHF", usedBy: 1, days: daysBetween(start, addDays(start, 6)) }]);
    // The operators' Overview warns of the same pair for the days from tomorrow, with the days to enter.
    const tomorrow = addDays(dubaiDay(), 1);
    const warned = (await overview(db, operator)).operator?.missingRatesAhead.find((r) => r.pair === "GBP->CHF");
    expect(warned).toMatchObject({ base: "GBP", quote: "CHF", days: daysBetween(tomorrow, addDays(tomorrow, RATE_LOOKAHEAD_DAYS - 1)) });
    const refused = await m.api("/v1/payments", { body: depositBody({ currency: "GBP", method: "BANK_TRANSFER" }) });
    expect([refused.status, refused.body.error?.code]).toEqual([409, "FX_RATE_MISSING"]);
    expect(refused.body.error.message).toContain(`no GBP->CHF rate for Dubai business day ${start}`);
  });

  it("rates for a range of days in one entry and from CSV, all or nothing, one audit row per entry", async () => {
    const from = addDays(dubaiDay(), 10);
    const through = addDays(from, 4);
    const saved = await transaction((tx) =>
      saveRate(tx, operator, RateInput.parse({ base: "CHF", quote: "TRY", day: from, through, rate: "38.5", reason: "week from treasury" })),
    );
    expect(saved).toMatchObject({ day: from, through, created: 5, corrected: 0, rate: "38.5" });
    expect((await db.fxRate.findMany({ where: { base: "CHF", quote: "TRY", day: { gte: from, lte: through } } })).map((r) => r.rate)).toEqual(
      Array(5).fill("38.5"),
    );
    const audit = await db.auditLog.findMany({ where: { entityId: saved.id } });
    expect(audit).toMatchObject([
      { action: "fx_rate.set_range", reason: "week from treasury", after: { pair: "CHF->TRY", from, through, days: 5, rate: "38.5" } },
    ]);
    expect(RateInput.safeParse({ base: "CHF", quote: "TRY", day: through, through: from, rate: "1", reason: "backwards" }).success).toBe(false);

    const csv = `base,quote,from,through,rate\nCHF,TRY,${from},,38.6\nSAR,CHF,${from},${through},0.2345\n`;
    const bad = `${csv}SAR,CHF,${from},,-1\n`;
    await expect(transaction((tx) => importRates(tx, operator, { csv: bad, reason: "import" }))).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringContaining("line 4: rate"),
    });
    expect(await db.fxRate.count({ where: { base: "SAR", quote: "CHF", day: from } })).toBe(0);
    const imported = await transaction((tx) => importRates(tx, operator, { csv, reason: "monthly import" }));
    expect(imported.map((r) => [r.base, r.quote, r.day, r.through, r.created, r.corrected])).toEqual([
      ["CHF", "TRY", from, from, 0, 1],
      ["SAR", "CHF", from, through, 5, 0],
    ]);
    expect((await db.fxRate.findUnique({ where: { base_quote_day: { base: "CHF", quote: "TRY", day: from } } }))?.rate).toBe("38.6");
  });
});

describe("jobs at the merchant's sandbox time", () => {
  it("a store payment created under a clock 2 h ahead is READY within 10 s", async () => {
    const m = await newMerchant();
    expect((await advance(m, "2h")).status).toBe(200);
    const created = await createStorePayment(m);
    const ready = await waitForCheckout(m, created.id, "READY", 10_000);
    expect(ready.status).toBe("PENDING");
  });

  it("the expiry sweeps expire a payment and a checkout session due at the sandbox time, which the real clock has not reached", async () => {
    const m = await newMerchant();
    const amountEntry = await newMerchant({ amountEntryEnabled: true });
    expect((await advance(m, "3h")).status).toBe(200);
    expect((await advance(amountEntry, "3h")).status).toBe(200);
    const payment = (await m.api("/v1/payments", { body: depositBody({ currency: "AED" }) })).body;
    const session = await amountEntry.api("/v1/checkout-sessions", {
      body: {
        reference: `s-${randomUUID()}`,
        customer: { id: "c-1", firstName: "Layla", lastName: "Haddad", email: "layla@example.com", phone: "+971501234567" },
      },
    });
    expect(session.status, session.text).toBe(201);
    // Due one minute from now at the sandbox time: still two hours and more ahead of the real clock.
    const due = new Date(Date.now() + 3 * 3_600_000 + 60_000);
    await db.$executeRaw`UPDATE payments SET expires_at = ${due} WHERE id = ${payment.id}::uuid`;
    await db.$executeRaw`UPDATE checkout_sessions SET expires_at = ${due} WHERE id = ${session.body.id}::uuid`;
    expect((await m.api(`/v1/payments/${payment.id}`)).body.status).toBe("PENDING");
    expect((await advance(m, "2m")).body.expired.payments).toBe(1);
    expect((await advance(amountEntry, "2m")).body.expired.checkoutSessions).toBe(1);
    // Fresh due times a few seconds ahead of the sandbox time: the sweeps (every 500 ms here), not a move, expire them.
    const payment2 = (await m.api("/v1/payments", { body: depositBody({ currency: "AED" }) })).body;
    const session2 = await amountEntry.api("/v1/checkout-sessions", {
      body: {
        reference: `s-${randomUUID()}`,
        customer: { id: "c-2", firstName: "Layla", lastName: "Haddad", email: "layla@example.com", phone: "+971501234567" },
      },
    });
    const soon = new Date(Date.now() + 3 * 3_600_000 + 2 * 60_000 + 2_000);
    await db.$executeRaw`UPDATE payments SET expires_at = ${soon} WHERE id = ${payment2.id}::uuid`;
    await db.$executeRaw`UPDATE checkout_sessions SET expires_at = ${soon} WHERE id = ${session2.body.id}::uuid`;
    const expired = await eventually(async () => {
      const read = (await m.api(`/v1/payments/${payment2.id}`)).body;
      return read.status === "EXPIRED" ? read : null;
    }, 15_000);
    expect(Date.parse(expired.finalizedAt)).toBeGreaterThan(Date.now() + 3 * 3_600_000);
    await eventually(async () => (await amountEntry.api(`/v1/checkout-sessions/${session2.body.id}`)).body.state === "EXPIRED", 15_000);
  });
});

/** Gives `m` `count` PENDING AED payments: one made through the API, the rest copies of its row (new ids and references). */
async function pendingPayments(m: TestMerchant, count: number): Promise<void> {
  const template = await m.api("/v1/payments", { body: depositBody({ currency: "AED", amount: "5.00" }) });
  expect(template.status).toBe(201);
  const columns = (
    await db.$queryRaw<{ name: string }[]>`
      SELECT column_name::text AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'payments' ORDER BY ordinal_position`
  ).map((c) => c.name);
  const copy = columns.map((c) => (c === "id" ? "gen_random_uuid()" : c === "reference" ? `reference || '-' || i` : `p."${c}"`)).join(", ");
  await db.$executeRawUnsafe(
    `INSERT INTO payments (${columns.map((c) => `"${c}"`).join(", ")}) SELECT ${copy} FROM payments p, generate_series(1, ${count - 1}) AS i WHERE p.id = $1::uuid`,
    template.body.id,
  );
  expect(await db.payment.count({ where: { merchantId: m.merchant.id, status: "PENDING" } })).toBe(count);
}

/** Each of the merchant's payments expired once: one payment.expired event per payment, none twice. */
async function expiredOnce(m: TestMerchant): Promise<{ payments: number; events: number }> {
  const [row] = await db.$queryRaw<{ payments: number; events: number }[]>`
    SELECT count(DISTINCT payment_id)::int AS payments, count(*)::int AS events FROM events WHERE merchant_id = ${m.merchant.id}::uuid AND type = 'payment.expired'`;
  return present(row, "the count of expired events");
}

describe("a clock advance at size", () => {
  it("creates and completions sent while the clock moves are never refused: the move's lock on the merchant leaves their foreign-key checks alone", async () => {
    // Found by the real-time soak: the move held the merchant row FOR UPDATE; a completion holding the merchant's
    // limit counter waited on it for its event's foreign key, and the move then waited on that counter: a deadlock,
    // one of them answered 503 after a second.
    for (let round = 0; round < 3; round++) {
      const m = await newMerchant();
      // Daily and monthly limits, so every create, completion and expiry of these payments meets on one counter row.
      await savePricingVersion(db, {
        merchantId: m.merchant.id,
        currency: "AED",
        channel: "GATEWAY",
        direction: "DEPOSIT",
        chargeCurrency: "AED",
        settlementCurrency: "AED",
        markupBps: 0,
        bufferBps: 0,
        commissionBps: 0,
        dailyLimitMinor: 100_000_000n,
        monthlyLimitMinor: 1_000_000_000n,
        reason: "test: limits the clock move releases",
      });
      await pendingPayments(m, 300);
      const body = () => depositBody({ currency: "AED", amount: "5.00" });
      const toConclude = [];
      for (let i = 0; i < 30; i++) toConclude.push((await m.api("/v1/payments", { body: body() })).body.id as string);
      const answers = await Promise.all([
        advance(m, "72h"),
        ...toConclude.map((id, i) => m.api(`/v1/sandbox/payments/${id}/complete`, { body: { outcome: i % 2 ? "FAILED" : "SUCCEEDED" } })),
        ...Array.from({ length: 30 }, () => m.api("/v1/payments", { body: body() })),
      ]);
      // A completion that comes after the move finds its acceptance period ended (409); none is refused for a deadlock.
      for (const answer of answers) expect([200, 201, 409], answer.text).toContain(answer.status);
      expect(answers[0]!.status, answers[0]!.text).toBe(200);
    }
  }, 120_000);

  it("a 72 h advance of a merchant with 10,000 pending payments answers at once; the sweeps expire all of them, each once with its event", async () => {
    const m = await newMerchant();
    await pendingPayments(m, 10_000);
    const asked = Date.now();
    const moved = await advance(m, "72h");
    console.log(`advance answered in ${Date.now() - asked} ms`);
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.expired.payments).toBe(100);
    expect(moved.body.due.payments).toBe(9_900);
    const started = Date.now();
    // How fast is measured in bench/ (docs/benchmarks.md "Clock advance at size"); here: all of them, each once.
    await eventually(async () => (await db.payment.count({ where: { merchantId: m.merchant.id, status: "PENDING" } })) === 0, 170_000);
    console.log(`10,000 pending payments: all expired ${((Date.now() - started) / 1000).toFixed(1)} s after the advance's answer`);
    expect((await m.api("/v1/sandbox/clock")).body.due).toEqual({ payments: 0, checkoutSessions: 0, deliveries: 0 });
    expect(await db.payment.count({ where: { merchantId: m.merchant.id, status: "EXPIRED" } })).toBe(10_000);
    expect(await expiredOnce(m)).toEqual({ payments: 10_000, events: 10_000 });
  }, 240_000);

  it("a service killed by SIGKILL in the middle of the sweep loses nothing and doubles nothing: every payment expires once", async () => {
    const m = await newMerchant();
    await pendingPayments(m, 4_000);
    // A second process sweeping the same database, killed while it works through the backlog; the suite's own service
    // sweeps beside it (both claim with SKIP LOCKED) and finishes what the killed one left, its open batch included.
    const second = await startService({ DATABASE_URL: TEST_DATABASE_URL, CALLBACK_ALLOW_LOOPBACK: "1", EXPIRY_SWEEP_INTERVAL_MS: "200" });
    try {
      const moved = await call("/v1/sandbox/clock/advance", { base: second.url, key: m.key, ip: m.ip, body: { by: "72h" } });
      expect(moved.status, moved.text).toBe(200);
      await eventually(async () => (await db.payment.count({ where: { merchantId: m.merchant.id, status: "EXPIRED" } })) >= 500, 90_000);
    } finally {
      second.child.kill("SIGKILL");
      await new Promise((resolve) => second.child.once("exit", resolve));
    }
    await eventually(async () => (await db.payment.count({ where: { merchantId: m.merchant.id, status: "PENDING" } })) === 0, 170_000);
    expect(await expiredOnce(m)).toEqual({ payments: 4_000, events: 4_000 });
  }, 300_000);
});

describe("retention of events", () => {
  it("prunes events past EVENT_RETENTION_DAYS with their deliveries and attempts, keeps a newer one and one still to be sent", async () => {
    const m = await newMerchant();
    const concluded = async () => {
      const p = (await m.api("/v1/payments", { body: depositBody({ currency: "AED" }) })).body;
      expect((await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "SUCCEEDED" } })).status).toBe(200);
      return db.event.findFirstOrThrow({ where: { paymentId: p.id }, include: { deliveries: true } });
    };
    const old = await concluded();
    const recent = await concluded();
    // A receiver that never answers: the delivery stays PENDING, its first attempt recorded. An address of its own: the
    // service makes deliveries to an address that refused a connection wait without an attempt (docs/callbacks.md
    // "An address that refuses connections"), and other tests of the suite's service use this port too.
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: `http://127.0.0.1:9/callbacks/${randomUUID()}` });
    const pending = await concluded();
    await eventually(
      async () => (await db.deliveryAttempt.count({ where: { deliveryId: present(pending.deliveries[0], "pending.deliveries[0]").id } })) > 0,
      15_000,
    );
    const aged = new Date(Date.now() - 31 * DAY_MS);
    await db.$executeRaw`UPDATE events SET created_at = ${aged} WHERE id IN (${old.id}::uuid, ${pending.id}::uuid)`;
    await db.$executeRaw`UPDATE events SET created_at = ${new Date(Date.now() - 29 * DAY_MS)} WHERE id = ${recent.id}::uuid`;

    const pruned = await pruneEvents();
    expect(pruned.events).toBeGreaterThanOrEqual(1);
    expect(await db.event.findUnique({ where: { id: old.id } })).toBeNull();
    expect(await db.delivery.count({ where: { eventId: old.id } })).toBe(0);
    expect(await db.event.findUnique({ where: { id: recent.id } })).not.toBeNull();
    expect(await db.event.findUnique({ where: { id: pending.id } })).not.toBeNull();
    expect(await db.deliveryAttempt.count({ where: { deliveryId: present(pending?.deliveries[0], "pending?.deliveries[0]").id } })).toBeGreaterThan(0);
    expect((await m.api(`/v1/events/${old.id}`)).status).toBe(404);
  });
});
