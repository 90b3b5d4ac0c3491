// Simulated weeks: the soak of scripts/harness/soak.ts, long and with heavier traffic, on a fresh seeded database.
//
//   node scripts/build.mjs
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench node --import tsx bench/soak-days.ts [--days 60] [--per-day 30] [--write]
//
// The built service (embedded job driver; the suite's job intervals, rate limits raised) is driven through `days`
// simulated days by its merchants' sandbox clocks, with the fixed day's traffic of the suite's soak plus `per-day`
// payments of random kind each day; every check of the soak runs at every simulated day and a failed one ends the run.
// Prints the figures as markdown; --write replaces the "## Simulated weeks" section of docs/benchmarks.md.
import os from "node:os";
import { startService, stopService } from "../scripts/harness/service";
import { benchDatabaseUrl, freshSeededDatabase, numberArg, writeBenchmarkSection } from "./support";
import { assertPresent } from "../scripts/harness/present";

const DAYS = numberArg("days", 60);
const PER_DAY = numberArg("per-day", 30);
const DATABASE_URL = benchDatabaseUrl();
process.env.LOG_LEVEL ??= "warn";
// The soak saves a loopback callback receiver in this process, as the integration tests do.
process.env.CALLBACK_ALLOW_LOOPBACK = "1";

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const list = (r: Record<string, number>) =>
  Object.entries(r)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");

async function main() {
  const loadAtStart = os.loadavg()[0];
  assertPresent(loadAtStart, "loadAtStart");
  await freshSeededDatabase(DATABASE_URL);
  const { runSoak } = await import("../scripts/harness/soak");
  const service = await startService({
    DATABASE_URL,
    CALLBACK_ALLOW_LOOPBACK: "1",
    TRUSTED_PROXIES: "127.0.0.1,::1",
    EXPIRY_SWEEP_INTERVAL_MS: "500",
    DELIVERY_POLL_INTERVAL_MS: "200",
    RATE_LIMIT_PER_KEY: "1000000",
    RATE_LIMIT_PER_IP: "1000000",
  });
  try {
    const r = await runSoak({ baseUrl: service.url, days: DAYS, perDay: PER_DAY, log: (line) => console.error(line) });
    const section = [
      "## Simulated weeks",
      "",
      `\`BENCH_DATABASE_URL=... node --import tsx bench/soak-days.ts --days ${DAYS} --per-day ${PER_DAY} --write\` (after \`node scripts/build.mjs\`),`,
      `${os.cpus().length} CPUs (nproc ${os.availableParallelism()}), Node ${process.version}, load average ${loadAtStart.toFixed(2)} at the start; the`,
      "built service with its embedded job driver on a fresh seeded database, rate limits raised. The engine is",
      "scripts/harness/soak.ts (the suite runs it for 36 days with a light load: test/integration/soak-days.test.ts). Every",
      "check held at every simulated day (a failed one ends the run).",
      "",
      "| figure | value |",
      "|---|---|",
      `| simulated days | ${r.days} (Dubai ${r.firstDay} .. ${r.lastDay}; ${r.monthEnds} month ends crossed) |`,
      `| payments | ${r.payments.created}: ${list(r.payments.byStatus)} |`,
      `| creates refused as the run's model expected | ${list(r.refused)} |`,
      `| roll-overs seen (refused, then accepted after) | daily limit ${r.rollovers.daily}, monthly limit ${r.rollovers.monthly}, velocity window ${r.rollovers.velocity} |`,
      `| checkout sessions | ${list(r.checkoutSessions)} |`,
      `| store checkouts | ${list(r.storeCheckouts)} |`,
      `| callbacks | ${r.callbacks.events} events, ${r.callbacks.deliveries} deliveries all SUCCEEDED, ${r.callbacks.attempts} attempts (${r.callbacks.retried} retried; the receiver failed ${r.callbacks.receiverFailures} on purpose) |`,
      `| \`sandpiper listen\` | ${r.listener.forwarded} events forwarded (its receiver failed ${r.listener.receiverFailures} on purpose) |`,
      `| request log | ${r.requestLog.rows} rows kept, ${r.requestLog.pruned} pruned past the retention |`,
      `| requests | ${r.requests.sent} (${r.requests.rateLimited} answered 429) |`,
      `| real time | ${seconds(r.realMs.total)} in all; a simulated day ${seconds(r.realMs.dayMedian)} (median), ${seconds(r.realMs.dayMax)} (slowest) |`,
    ].join("\n");
    console.log(section);
    if (process.argv.includes("--write")) console.error(`written to ${writeBenchmarkSection(section)}`);
  } finally {
    await stopService(service.child);
    const { getDb } = await import("@/lib/platform/db");
    await getDb().$disconnect();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
