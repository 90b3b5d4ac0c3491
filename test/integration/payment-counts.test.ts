import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { randomUUID } from "node:crypto";
import { compactPaymentCounts, VACUUM_AFTER_FOLDED } from "@/lib/domain/payments/counts";
import { POLLING_JOBS } from "@/lib/application/jobs/registry";
import { db, depositBody, newMerchant, type TestMerchant } from "../support/fixtures";
import { systemNow } from "@/lib/platform/clock";
import { assertPresent } from "../../scripts/harness/present";

// GET /v1/payments `total` comes from payment counters (trigger-fed deltas folded by a job) instead of a
// COUNT(*) over the merchant's history. It must equal COUNT(*) for every filter, at any moment: with changes
// pending, while the service's own compaction job runs, and after a compaction.

const STATUSES = ["PENDING_APPROVAL", "PENDING", "SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"] as const;
const CURRENCIES = ["USD", "EUR", "AED"] as const;

type Filter = { status?: string; method?: string; direction?: string; currency?: string; from?: string; to?: string };

async function expectTotal(m: TestMerchant, filter: Filter) {
  const query = new URLSearchParams({ limit: "1", ...filter } as Record<string, string>);
  const res = await m.api(`/v1/payments?${query}`);
  expect(res.status, res.text).toBe(200);
  const truth = await db.payment.count({ where: truthFilter(m.merchant.id, filter) });
  expect(res.body.total, JSON.stringify(filter)).toBe(truth);
  expect(res.body.pages).toBe(Math.ceil(truth / 1));
}

/** The filter as an ORM where-clause, written independently of the service: Dubai days are UTC+4 calendar days. */
function truthFilter(merchantId: string, f: Filter) {
  const dubaiMidnight = (day: string) => new Date(`${day}T00:00:00+04:00`);
  return {
    merchantId,
    ...(f.status ? { status: f.status as never } : {}),
    ...(f.method ? { method: f.method as never } : {}),
    ...(f.direction ? { direction: f.direction as never } : {}),
    ...(f.currency ? { currency: f.currency } : {}),
    createdAt: { ...(f.from ? { gte: dubaiMidnight(f.from) } : {}), ...(f.to ? { lt: new Date(dubaiMidnight(f.to).getTime() + 86_400_000) } : {}) },
  };
}

/** Payments created directly, around Dubai midnight (20:00 UTC) of two days, in every status. */
async function seedAroundMidnight(m: TestMerchant) {
  const instants = ["2026-03-09T19:59:59.999Z", "2026-03-09T20:00:00.000Z", "2026-03-10T19:59:59.999Z", "2026-03-10T20:00:00.000Z"];
  await db.payment.createMany({
    data: instants.flatMap((at, i) =>
      STATUSES.map(
        (status, j) =>
          ({
            merchantId: m.merchant.id,
            reference: `edge-${i}-${j}-${randomUUID()}`,
            amountMinor: 1000n,
            feeMinor: 0n,
            currency: CURRENCIES[(i + j) % CURRENCIES.length] ?? "USD",
            method: j % 2 ? "BANK_TRANSFER" : "GATEWAY",
            direction: j === 0 ? "WITHDRAWAL" : "DEPOSIT",
            status,
            businessDay: at.slice(0, 10),
            createdAt: new Date(at),
          }) as const,
      ),
    ),
  });
}

describe("payment counters (list totals)", () => {
  it("totals equal COUNT(*) for every filter with pending changes, under concurrent creates and completions, and after compaction", async () => {
    const m = await newMerchant();
    await seedAroundMidnight(m);
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        m.api("/v1/payments", { body: depositBody({ currency: CURRENCIES[i % 3], method: i % 4 === 0 ? "BANK_TRANSFER" : "GATEWAY" }) }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(24).fill(201));
    const outcomes = await Promise.all(
      created.slice(0, 12).map((r, i) => m.api(`/v1/sandbox/payments/${r.body.id}/complete`, { body: { outcome: i % 2 ? "FAILED" : "SUCCEEDED" } })),
    );
    expect(outcomes.map((r) => r.status)).toEqual(Array(12).fill(200));
    // Direct changes go through the trigger too: a status update and a delete.
    const edge = await db.payment.findFirstOrThrow({ where: { merchantId: m.merchant.id, reference: { startsWith: "edge-" }, status: "PENDING" } });
    await db.payment.update({ where: { id: edge.id }, data: { status: "EXPIRED" } });
    await db.payment.updateMany({ where: { merchantId: m.merchant.id, status: "CANCELLED" }, data: { updatedAt: new Date() } }); // no counted change
    await db.payment.delete({ where: { id: (await db.payment.findFirstOrThrow({ where: { merchantId: m.merchant.id, status: "CANCELLED" } })).id } });

    const filters: Filter[] = [
      {},
      { status: "SUCCEEDED" },
      { status: "FAILED" },
      { status: "PENDING" },
      { status: "EXPIRED" },
      { status: "CANCELLED" },
      { currency: "EUR" },
      { method: "BANK_TRANSFER" },
      { direction: "WITHDRAWAL" },
      { status: "SUCCEEDED", currency: "USD", method: "GATEWAY" },
      { from: "2026-03-10" },
      { to: "2026-03-09" },
      { from: "2026-03-10", to: "2026-03-10" },
      { from: "2026-03-11", to: "2026-03-11", status: "PENDING_APPROVAL" },
    ];
    for (const filter of filters) await expectTotal(m, filter);
    while ((await compactPaymentCounts(db)) > 0);
    expect(await db.paymentCountDelta.count({ where: { merchantId: m.merchant.id } })).toBe(0);
    for (const filter of filters) await expectTotal(m, filter);
  });

  it("property: for random filters the total equals COUNT(*), while compactions run concurrently", async () => {
    const m = await newMerchant();
    await seedAroundMidnight(m);
    const created = await Promise.all(Array.from({ length: 10 }, (_, i) => m.api("/v1/payments", { body: depositBody({ currency: CURRENCIES[i % 3] }) })));
    expect(created.every((r) => r.status === 201)).toBe(true);
    const day = fc.constantFrom("2026-03-08", "2026-03-09", "2026-03-10", "2026-03-11", new Date(Date.now() + 4 * 3600_000).toISOString().slice(0, 10));
    const filter = fc
      .record(
        {
          status: fc.constantFrom(...STATUSES),
          method: fc.constantFrom("BANK_TRANSFER", "GATEWAY"),
          direction: fc.constantFrom("DEPOSIT", "WITHDRAWAL"),
          currency: fc.constantFrom(...CURRENCIES),
          from: day,
          to: day,
        },
        { requiredKeys: [] },
      )
      .filter((f) => !f.from || !f.to || f.from <= f.to);
    let compactions = 0;
    await fc.assert(
      fc.asyncProperty(filter, fc.boolean(), async (f, compact) => {
        if (compact) compactions += await compactPaymentCounts(db);
        await expectTotal(m, f);
      }),
      { numRuns: 60 },
    );
    expect(compactions + (await db.paymentCount.count({ where: { merchantId: m.merchant.id } }))).toBeGreaterThan(0);
  });

  it("the compaction job vacuums payment_count_deltas after folding many rows, so list totals do not scan what it deleted", async () => {
    const m = await newMerchant();
    const vacuums = async () => {
      const [row] = await db.$queryRaw<{ n: bigint }[]>`SELECT vacuum_count AS n FROM pg_stat_user_tables WHERE relname = 'payment_count_deltas'`;
      assertPresent(row, "row");
      return Number(row.n);
    };
    const before = await vacuums();
    // Three times the threshold: whichever compactor (this one, or a running service's job) claims most of them folds enough.
    await db.$executeRaw`INSERT INTO payment_count_deltas (merchant_id, day, status, method, direction, currency, delta)
      SELECT ${m.merchant.id}::uuid, '2026-03-10', 'PENDING', 'GATEWAY', 'DEPOSIT', 'USD', 0 FROM generate_series(1, ${3 * VACUUM_AFTER_FOLDED})`;
    await POLLING_JOBS.find((job) => job.id === "compact-payment-counts")!.run(systemNow());
    expect(await db.paymentCountDelta.count({ where: { merchantId: m.merchant.id } })).toBe(0);
    await expect.poll(vacuums, { timeout: 10_000 }).toBeGreaterThan(before);
  });

  it("folds 20,000 pending changes when the planner believes the table empty (its statistics after a vacuum)", async () => {
    const m = await newMerchant();
    const pending = (n: number) => db.$executeRaw`INSERT INTO payment_count_deltas (merchant_id, day, status, method, direction, currency, delta)
      SELECT ${m.merchant.id}::uuid, '2026-03-10', 'PENDING', 'GATEWAY', 'DEPOSIT', 'USD', 0 FROM generate_series(1, ${n}::int)`;
    // A vacuum after a fold that keeps the table's pages (autovacuum when it cannot take the lock to truncate them)
    // records next to no rows in them: the planner then believes the table empty however full it is.
    await pending(20_000);
    while ((await compactPaymentCounts(db)) > 0);
    await db.$executeRawUnsafe("VACUUM (TRUNCATE false) payment_count_deltas");
    await pending(20_000);
    // Claimed as `id IN (SELECT ... FOR UPDATE SKIP LOCKED)`, this ran the locking subquery again for every row: minutes.
    while ((await compactPaymentCounts(db)) > 0);
    expect(await db.paymentCountDelta.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  }, 30_000);
});
