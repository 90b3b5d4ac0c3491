// A Redis that hangs (docs/operating.md "Scaling"): creates against the built service whose rate limits live in a
// Redis of the benchmark's own, which is stopped (SIGSTOP) for a while under load and then continued.
//
//   node scripts/build.mjs
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench node --import tsx bench/redis-hang.ts [--stopped 20] [--clients 4] [--write]
//
// One fresh seeded database, one `redis-server` on a free port (nothing saved), the built service with REDIS_URL on
// it (default REDIS_TIMEOUT_MS). `clients` clients create payments one after another, 300 ms apart (about 10 creates
// a second with 4); after 5 s Redis is stopped for `stopped` seconds, then continued, and the load goes on 5 s more
// (scripts/harness/redis-server.ts, shared with test/integration/redis-outage.test.ts). Measured: the creates' status
// and latency while Redis was stopped and outside it, what /readyz answered during the stop, and whether the key's
// budget counted in Redis again afterwards. --write replaces the "## A Redis that hangs" section of docs/benchmarks.md.
import os from "node:os";
import { randomUUID } from "node:crypto";
import { startService, stopService } from "../scripts/harness/service";
import { createsAcrossRedisHang, startOwnRedis } from "../scripts/harness/redis-server";
import { benchDatabaseUrl, freshSeededDatabase, numberArg, percentile, writeBenchmarkSection } from "./support";

const STOPPED_S = numberArg("stopped", 20);
const CLIENTS = numberArg("clients", 4);
const DATABASE_URL = benchDatabaseUrl();

async function main() {
  const loadAtStart = os.loadavg();
  const seeded = await freshSeededDatabase(DATABASE_URL);
  const redis = await startOwnRedis();
  const svc = await startService({ DATABASE_URL, REDIS_URL: redis.url, LOG_LEVEL: "warn", RATE_LIMIT_PER_KEY: "100000000", RATE_LIMIT_PER_IP: "100000000" });
  let readyDuring = "";
  try {
    const create = async () => {
      const res = await fetch(`${svc.url}/v1/payments`, {
        method: "POST",
        headers: { authorization: `Bearer ${seeded.keys.full}`, "content-type": "application/json", "idempotency-key": randomUUID() },
        body: JSON.stringify({ reference: `hang-${randomUUID()}`, amount: "100.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" }),
      });
      await res.arrayBuffer();
      return res.status;
    };
    const samples = await createsAcrossRedisHang({
      redis,
      create,
      clients: CLIENTS,
      pauseMs: 300,
      warmMs: 5_000,
      stoppedMs: STOPPED_S * 1_000,
      afterMs: 5_000,
      whileStopped: async () => {
        const res = await fetch(`${svc.url}/readyz`);
        const body = (await res.json()) as { status?: string; degraded?: string[] };
        readyDuring = `${res.status} ${body.status} ${JSON.stringify(body.degraded ?? [])}`;
      },
    });
    const keyCount = async () => Number((await redis.client.get((await redis.client.keys("sandpiper:key:*"))[0] ?? "none")) ?? 0);
    const keyBefore = await keyCount();
    for (let i = 0; i < 5; i++) await create();
    const keyAfter = await keyCount();
    const row = (label: string, list: typeof samples) => {
      const ms = list.map((s) => s.ms).sort((a, b) => a - b);
      const ok = list.filter((s) => s.status === 201).length;
      return `| ${label} | ${list.length} | ${ok} | ${Math.round(percentile(ms, 50))} ms | ${Math.round(percentile(ms, 99))} ms | ${Math.round(ms.at(-1) ?? 0)} ms |`;
    };
    const section = [
      "## A Redis that hangs",
      "",
      `Command: \`node scripts/build.mjs && BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench node --import tsx bench/redis-hang.ts --stopped ${STOPPED_S} --clients ${CLIENTS} --write\``,
      "(`test/integration/redis-outage.test.ts` runs a 4 s stop and fails when a create waits for the stopped Redis).",
      "",
      "The built service (`node server.mjs`, one worker, default `REDIS_TIMEOUT_MS=250`) with its rate limits in a",
      `\`redis-server\` of the benchmark's own; ${CLIENTS} clients create payments one after another, 300 ms apart; after 5 s the`,
      `Redis process is stopped (SIGSTOP, as a hung server or a network partition looks) for ${STOPPED_S} s, then continued`,
      "(SIGCONT), and the load goes on 5 s. Machine: " +
        `${os.cpus().length} x ${os.cpus()[0]?.model ?? "CPU"}, shared with other work (load average ${loadAtStart.map((l) => l.toFixed(1)).join(" / ")} before); ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.`,
      "",
      "| creates | count | 201 | p50 | p99 | max |",
      "|---|---|---|---|---|---|",
      row(
        "while Redis was stopped",
        samples.filter((s) => s.stopped),
      ),
      row(
        "before and after (a fresh start's first creates included)",
        samples.filter((s) => !s.stopped),
      ),
      "",
      `\`/readyz\` one second into the stop: ${readyDuring}. Five creates after the stop moved the key's budget in Redis from`,
      `${keyBefore} to ${keyAfter}${keyAfter === keyBefore + 5 ? " (counted in Redis again)" : " (NOT counted in Redis)"}. Before every command had a timeout, the operators' trial measured`,
      "p50 10.8 s and max 20.2 s over a 20 s stop at 10 creates a second, and `/readyz` answered 503 the whole time.",
    ].join("\n");
    console.log(section);
    if (process.argv.includes("--write")) console.log(`written to ${writeBenchmarkSection(section)}`);
  } finally {
    await stopService(svc.child);
    await redis.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
