// Console charts benchmark: `node --import tsx bench/overview.ts [--runs 300] [--moved 1000] [--write]`.
// The chart services of the console (lib/domain/reports) against the load benchmark's database (BENCH_DATABASE_URL,
// default sandpiper_bench_7: one merchant with 1,000,000 payments over a year, created by bench/dataset.ts when
// missing), called in this process as the pages and their SWR polls call them. Beside them, in the same run, the
// floor: one `SELECT 1` round trip through the same client, the least any of them can take.
import os from "node:os";
import type { Db } from "@/lib/platform/db";
import { numberArg, percentile, writeBenchmarkSection } from "./support";
import { assertPresent, present } from "../scripts/harness/present";

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sandpiper_bench_7";
const RUNS = numberArg("runs", 300);
const log = (s: string) => console.log(`[overview] ${s}`);

async function time(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number; p99: number }> {
  for (let i = 0; i < 20; i++) await fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), p99: percentile(samples, 99) };
}

/** How many of the merchant's payments the last rows add as made under a clock moved 35 days ahead. */
const MOVED = numberArg("moved", 1_000);

/**
 * Makes sure `count` of the merchant's payments were made under a sandbox clock moved 35 days ahead: copies of its
 * first payments with new ids and references, `created_at` 35 days ahead and `recorded_at` now, as a moved clock
 * writes them. Returns how many there are.
 */
async function clockMovedPayments(db: Db, merchantId: string, count: number): Promise<number> {
  const offsetMs = 35 * 86_400_000;
  await db.$executeRaw`
    INSERT INTO payments
    SELECT (json_populate_record(p, json_build_object('id', gen_random_uuid(), 'reference', 'bench-clock-moved-' || n, 'created_at', now() + interval '35 days',
      'recorded_at', now(), 'business_day', dubai_day(now() + interval '35 days'), 'clock_offset_ms', ${offsetMs}::bigint))).*
    FROM (SELECT p, row_number() OVER () AS n FROM payments p WHERE merchant_id = ${merchantId}::uuid AND clock_offset_ms IS NULL LIMIT ${count}) AS q(p, n)
    WHERE NOT EXISTS (SELECT 1 FROM payments WHERE merchant_id = ${merchantId}::uuid AND reference = 'bench-clock-moved-' || q.n)`;
  const [row] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM payments WHERE merchant_id = ${merchantId}::uuid AND clock_offset_ms IS NOT NULL`;
  assertPresent(row, "row");
  return Number(row.n);
}

async function main() {
  process.env.DATABASE_URL = DATABASE_URL;
  const { readyDatabase, prepareDataset } = await import("./dataset");
  await readyDatabase(DATABASE_URL, false);
  const data = await prepareDataset(DATABASE_URL, 1_000_000, log);
  log(`${data.payments} payments for merchant ${data.merchantId}`);
  const { getDb } = await import("@/lib/platform/db");
  const { paymentsOverview } = await import("@/lib/domain/reports/payments-overview");
  const { callbacksOverview } = await import("@/lib/domain/reports/callbacks-overview");
  const { limitUsage } = await import("@/lib/domain/reports/limit-usage");
  const { listConsolePayments } = await import("@/lib/domain/payments/payment-views");
  const { ListPaymentsQuery } = await import("@/lib/contract/schemas/api/payments");
  const { dubaiDay } = await import("@/lib/contract/money/dubai");
  const db = getDb();
  const operator = { id: "00000000-0000-0000-0000-000000000000", username: "bench", role: "OPERATOR" as const, merchantId: null };
  const merchant = { ...operator, role: "MERCHANT" as const, merchantId: data.merchantId };
  const rows: [string, { p50: number; p95: number; p99: number }][] = [];
  rows.push(["floor: `SELECT 1` through the same client", await time(() => db.$queryRaw`SELECT 1`)]);
  rows.push(["overview payments chart, the merchant (30 days)", await time(() => paymentsOverview(db, merchant))]);
  rows.push(["overview payments chart, operator, all merchants", await time(() => paymentsOverview(db, operator))]);
  rows.push(["callbacks chart, operator, all merchants", await time(() => callbacksOverview(db, operator))]);
  rows.push(["limit use, operator, all merchants", await time(() => limitUsage(db, operator))]);
  // Payments made under a moved sandbox clock (docs/decisions/0182-the-console-counts-payments-on-the-day-they-were-recorded.md):
  // the charts and the console's list of a day move them from their sandbox day to the day they were recorded.
  const moved = await clockMovedPayments(db, data.merchantId, MOVED);
  const today = dubaiDay();
  const listToday = () => listConsolePayments(db, merchant, ListPaymentsQuery.parse({ from: today, to: today }));
  rows.push([
    `overview payments chart, the merchant, ${moved.toLocaleString("en-US")} of its payments made 35 days ahead`,
    await time(() => paymentsOverview(db, merchant)),
  ]);
  rows.push([`console payments list of today, the merchant (by the day recorded), ${moved.toLocaleString("en-US")} made 35 days ahead`, await time(listToday)]);
  const counterRows = Number(
    present(
      (await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM payment_counts WHERE merchant_id = ${data.merchantId}::uuid`)[0],
      "(await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n...",
    ).n,
  );
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const section = [
    "## Console charts",
    "",
    `Command: \`node --import tsx bench/overview.ts --write\` (${RUNS} calls per row after 20 warm-up calls, one at a time, in one process; database \`${new URL(DATABASE_URL).pathname.slice(1)}\`).`,
    `Machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; PostgreSQL on the same machine. Measured ${new Date().toISOString().slice(0, 10)}, load average ${present(os.loadavg()[0], "os.loadavg()[0]").toFixed(1)} when it ended: compare the rows of one run with each other (the floor shows how busy the machine was).`,
    `Dataset: ${data.payments.toLocaleString("en-US")} payments of one merchant over a year (bench/dataset.ts); the payment counters hold ${counterRows.toLocaleString("en-US")} rows for it. The chart services read only those counters (and the delivery counters, the limit counters and the PENDING deliveries' index), never the payments; for the payments made under a moved sandbox clock (the last rows: ${MOVED.toLocaleString("en-US")} of them, added with \`clock_offset_ms\` set and \`created_at\` 35 days ahead) they read those payments through the partial index \`payments_clock_moved_idx\`, to count them on the day they were recorded.`,
    "",
    "| call | p50 | p95 | p99 | goal |",
    "|---|---|---|---|---|",
    ...rows.map(([name, r]) => `| ${name} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${name.startsWith("overview") ? "p50 <= 50 ms" : ""} |`),
    "",
  ].join("\n");
  console.log(section);
  if (process.argv.includes("--write")) log(`written to ${writeBenchmarkSection(section)}`);
  await db.$disconnect();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
