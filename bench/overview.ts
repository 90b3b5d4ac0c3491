// Console charts benchmark: `node --import tsx bench/overview.ts [--runs 300] [--write]`.
// The chart services of the console (lib/reports) against the load benchmark's database (BENCH_DATABASE_URL,
// default sandpiper_bench_7: one merchant with 1,000,000 payments over a year, created by bench/dataset.ts when
// missing), called in this process as the pages and their SWR polls call them. Beside them, in the same run, the
// floor: one `SELECT 1` round trip through the same client, the least any of them can take.
import os from "node:os";
import { numberArg, percentile, writeBenchmarkSection } from "./support";

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

async function main() {
  process.env.DATABASE_URL = DATABASE_URL;
  const { ensureDatabase, prepareDataset } = await import("./dataset");
  const { migrate, seed } = await import("../scripts/db.mjs");
  const created = await ensureDatabase(DATABASE_URL, false);
  await migrate(DATABASE_URL);
  if (created) await seed(DATABASE_URL, ["--json"]);
  const data = await prepareDataset(DATABASE_URL, 1_000_000, log);
  log(`${data.payments} payments for merchant ${data.merchantId}`);
  const { getDb } = await import("@/lib/db");
  const { paymentsOverview } = await import("@/lib/reports/payments-overview");
  const { callbacksOverview } = await import("@/lib/reports/callbacks-overview");
  const { limitUsage } = await import("@/lib/reports/limit-usage");
  const db = getDb();
  const operator = { id: "00000000-0000-0000-0000-000000000000", username: "bench", role: "OPERATOR" as const, merchantId: null };
  const merchant = { ...operator, role: "MERCHANT" as const, merchantId: data.merchantId };
  const rows: [string, { p50: number; p95: number; p99: number }][] = [];
  rows.push(["floor: `SELECT 1` through the same client", await time(() => db.$queryRaw`SELECT 1`)]);
  rows.push(["overview payments chart, the merchant (30 days)", await time(() => paymentsOverview(db, merchant))]);
  rows.push(["overview payments chart, operator, all merchants", await time(() => paymentsOverview(db, operator))]);
  rows.push(["callbacks chart, operator, all merchants", await time(() => callbacksOverview(db, operator))]);
  rows.push(["limit use, operator, all merchants", await time(() => limitUsage(db, operator))]);
  const counterRows = Number((await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM payment_counts WHERE merchant_id = ${data.merchantId}::uuid`)[0].n);
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const section = [
    "## Console charts",
    "",
    `Command: \`node --import tsx bench/overview.ts --write\` (${RUNS} calls per row after 20 warm-up calls, one at a time, in one process; database \`${new URL(DATABASE_URL).pathname.slice(1)}\`).`,
    `Machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; PostgreSQL on the same machine. Measured ${new Date().toISOString().slice(0, 10)}.`,
    `Dataset: ${data.payments.toLocaleString("en-US")} payments of one merchant over a year (bench/dataset.ts); the payment counters hold ${counterRows.toLocaleString("en-US")} rows for it. The chart services read only those counters (and the delivery counters, the limit counters and the PENDING deliveries' index), never the payments.`,
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
