// Benchmark dataset: a migrated, seeded database with one merchant holding 1,000,000 payments.
import pg from "pg";
import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/platform/db";
import { issueApiKey, SCOPES } from "@/lib/domain/keys/api-keys";
import { createConsoleUser } from "@/lib/domain/users/create-console-user";
import { createMerchant } from "@/lib/domain/merchants/create-merchant";
import { savePricingVersion } from "@/lib/domain/pricing/profile-versions";
import { SEEDED_USD_DEPOSIT_TERMS } from "@/lib/domain/pricing/seeded-rates";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { computeSnapshot } from "@/lib/domain/pricing/snapshot";
import { compactPaymentCounts } from "@/lib/domain/payments/counts";
import { recreateDatabase } from "../scripts/harness/service";

export type Dataset = { merchantId: string; key: string; payments: number; sampleIds: string[] };

const BENCH_MERCHANT = "Benchmark Merchant";

/**
 * The benchmark database of `url`, ready for the dataset: (re)created when asked or missing (scripts/harness/service.ts
 * recreateDatabase), migrated (idempotent: an existing one is brought up to date), and seeded when it was created.
 * @returns whether it was created
 */
export async function readyDatabase(url: string, recreate: boolean): Promise<boolean> {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const exists = await client
    .query("SELECT 1 FROM pg_database WHERE datname = $1", [new URL(url).pathname.slice(1)])
    .then((r) => r.rowCount === 1)
    .finally(() => client.end());
  const create = recreate || !exists;
  if (create) await recreateDatabase(url);
  const { migrate, seed } = await import("../scripts/db.mjs");
  await migrate(url);
  if (create) await seed(url, ["--json"]);
  return create;
}

/**
 * The benchmark merchant (created once): USD gateway deposits priced by a profile charging AED at today's rate,
 * like the seeded sandbox merchant, and `count` payments inserted by one INSERT ... SELECT generate_series over
 * the past year (statuses, methods, directions and currencies mixed; each with a pricing snapshot). A fresh
 * full-scope API key on every run (keys are shown once).
 */
export async function prepareDataset(url: string, count: number, log: (s: string) => void): Promise<Dataset> {
  const db = getDb();
  let merchant = await db.merchant.findFirst({ where: { name: BENCH_MERCHANT } });
  let ownerId: string;
  if (!merchant) {
    merchant = await createMerchant(db, { name: BENCH_MERCHANT, defaultCommissionBps: 150, allowedIps: ["127.0.0.1", "::1"] });
    const owner = await createConsoleUser(db, {
      username: `bench-owner-${randomBytes(4).toString("hex")}`,
      password: randomBytes(12).toString("base64url"),
      role: "MERCHANT",
      merchantId: merchant.id,
    });
    ownerId = owner.id;
    await savePricingVersion(db, {
      merchantId: merchant.id,
      ...SEEDED_USD_DEPOSIT_TERMS,
      reason: "benchmark profile",
    });
  } else {
    ownerId = (await db.consoleUser.findFirstOrThrow({ where: { merchantId: merchant.id } })).id;
  }
  for (const day of [dubaiDay(), dubaiDay(new Date(Date.now() + 86_400_000))]) {
    await db.fxRate.upsert({
      where: { base_quote_day: { base: "USD", quote: "AED", day } },
      create: { base: "USD", quote: "AED", day, rate: "3.6725" },
      update: {},
    });
  }
  const key = await issueApiKey(db, { merchantId: merchant.id, ownerId, scopes: SCOPES, name: "benchmark" });

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const have = Number((await client.query("SELECT count(*) FROM payments WHERE merchant_id = $1 AND reference LIKE 'seed-%'", [merchant.id])).rows[0].count);
    if (have < count) {
      log(`inserting ${count - have} payments (INSERT ... SELECT generate_series) ...`);
      const started = Date.now();
      const template = computeSnapshot({
        amountMinor: 112352n,
        currency: "USD",
        direction: "DEPOSIT",
        baseRate: "3.6725",
        settlementRate: "1",
        rateDay: dubaiDay(),
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
          reserveBps: 0,
          delayDays: 0,
          reserveDays: 0,
        },
      });
      await client.query(
        `INSERT INTO payments (id, merchant_id, reference, kind, amount_minor, fee_minor, currency, method, direction, status, pricing,
                               business_day, created_at, expires_at, finalized_at, updated_at)
         SELECT gen_random_uuid(), $1::uuid, 'seed-' || i, 'STANDARD', amount, amount * 15 / 1000, currency, method::"PaymentMethod", direction::"PaymentDirection",
                status::"PaymentStatus",
                $2::jsonb || jsonb_build_object('originalCurrency', currency, 'chargeCurrency', currency, 'settlementCurrency', currency, 'amountMinor', amount::text),
                to_char(created_at AT TIME ZONE 'Asia/Dubai', 'YYYY-MM-DD'), created_at,
                CASE WHEN status IN ('PENDING', 'PENDING_APPROVAL') THEN now() + interval '2 days' ELSE created_at + interval '30 minutes' END,
                CASE WHEN status IN ('SUCCEEDED', 'FAILED') THEN created_at + interval '5 minutes' END, created_at
         FROM (
           SELECT i, 1000 + (i * 7919) % 5000000 AS amount,
                  (ARRAY['USD','EUR','GBP','AED','SAR','TRY','CHF'])[1 + i % 7] AS currency,
                  CASE WHEN i % 3 = 0 THEN 'BANK_TRANSFER' ELSE 'GATEWAY' END AS method,
                  CASE WHEN i % 30 = 0 THEN 'WITHDRAWAL' ELSE 'DEPOSIT' END AS direction,
                  CASE WHEN i % 100 < 60 THEN 'SUCCEEDED' WHEN i % 100 < 75 THEN 'FAILED' WHEN i % 100 < 90 THEN 'EXPIRED'
                       WHEN i % 100 < 98 THEN 'PENDING' ELSE 'PENDING_APPROVAL' END AS status,
                  now() - make_interval(secs => i * 31) AS created_at
           FROM generate_series($3::bigint, $4::bigint) AS i
         ) AS g`,
        [merchant.id, JSON.stringify(template), have + 1, count],
      );
      log(`inserted in ${((Date.now() - started) / 1000).toFixed(0)} s; VACUUM ANALYZE ...`);
      await client.query("VACUUM (ANALYZE) payments");
      while ((await compactPaymentCounts(db)) > 0); // fold the count changes of the insert
    }
    const total = Number((await client.query("SELECT count(*) FROM payments WHERE merchant_id = $1", [merchant.id])).rows[0].count);
    const sample = await client.query("SELECT id FROM payments WHERE merchant_id = $1 AND reference LIKE 'seed-%' ORDER BY random() LIMIT 2000", [merchant.id]);
    return { merchantId: merchant.id, key: key.key, payments: total, sampleIds: sample.rows.map((r) => r.id) };
  } finally {
    await client.end();
  }
}
