// Where a create waits: `node --import tsx bench/create-waits.ts [--duration 10] [--connections 32] [--scenario create|read]`.
// Starts the built service (`server.mjs`, NODE_ENV=production, as `npm start` runs it) on the load benchmark's
// database (BENCH_DATABASE_URL, default sandpiper_bench_7; run bench/load.ts once first), sends distinct creates (or
// reads by id) for the duration and meanwhile samples, every 5 ms from a connection of its own, what each PostgreSQL
// backend of that database is doing (pg_stat_activity: running, waiting on a row lock, on the WAL flush of a commit,
// idle waiting for the service's next statement, idle inside a transaction after which statement ...) and, every 100 ms, the API pool's queue (`/metrics`,
// `sandpiper_db_pool_connections{state="waiting"}`). Prints the shares as markdown; writes nothing.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import pg from "pg";
import { benchServiceEnv, numberArg, waitForService } from "./support";

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sandpiper_bench_7";
const DURATION = numberArg("duration", 10);
const CONNECTIONS = numberArg("connections", 32);
const scenarioAt = process.argv.indexOf("--scenario");
const SCENARIO = scenarioAt >= 0 ? process.argv[scenarioAt + 1]! : "create";
const METRICS_TOKEN = `waits-${randomUUID()}`;

/** What a backend is doing in one sample: its state, and the wait event when it waits. */
const SAMPLE = `SELECT CASE WHEN state = 'active' AND wait_event IS NULL THEN 'running (CPU)'
                            WHEN state = 'active' THEN 'active, waiting: ' || wait_event_type || '/' || wait_event
                            WHEN state = 'idle in transaction' THEN 'idle in transaction after: ' || left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 60)
                            ELSE coalesce(state, '?') || CASE WHEN wait_event IS NULL THEN '' ELSE ': ' || wait_event END END AS what
               FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`;

async function main() {
  process.env.DATABASE_URL = DATABASE_URL;
  const { prepareDataset } = await import("./dataset");
  const { freePort } = await import("../scripts/db.mjs");
  const { key, sampleIds } = await prepareDataset(DATABASE_URL, 1_000_000, () => undefined);
  const port = await freePort();
  const service = spawn(process.execPath, ["--max-old-space-size=256", "server.mjs"], {
    cwd: `${__dirname}/..`,
    env: benchServiceEnv(port, DATABASE_URL, { LOG_LEVEL: "info", METRICS_TOKEN }),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForService(base);
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  let n = 0;
  const request: autocannon.Request =
    SCENARIO === "read"
      ? { method: "GET", path: "/v1/payments", setupRequest: (req) => ({ ...req, headers, path: `/v1/payments/${sampleIds[n++ % sampleIds.length]}` }) }
      : {
          method: "POST",
          path: "/v1/payments",
          setupRequest: (req) => {
            const id = randomUUID();
            return {
              ...req,
              headers: { ...headers, "idempotency-key": `waits-${id}` },
              body: JSON.stringify({ reference: `waits-${id}`, amount: "1123.52", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" }),
            };
          },
        };
  await autocannon({ url: base, connections: CONNECTIONS, duration: 3, requests: [request] });

  const sampler = new pg.Client({ connectionString: DATABASE_URL });
  await sampler.connect();
  const states = new Map<string, number>();
  const queue: number[] = [];
  let sampling = true;
  let samples = 0;
  const sampleDb = async () => {
    while (sampling) {
      for (const { what } of (await sampler.query<{ what: string }>(SAMPLE)).rows) states.set(what, (states.get(what) ?? 0) + 1);
      samples++;
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const sampleQueue = async () => {
    while (sampling) {
      const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      const waiting = /sandpiper_db_pool_connections\{pool="api",state="waiting"\} (\d+)/.exec(text);
      if (waiting) queue.push(Number(waiting[1]));
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const loops = Promise.all([sampleDb(), sampleQueue()]);
  const result = await autocannon({ url: base, connections: CONNECTIONS, duration: DURATION, requests: [request] });
  sampling = false;
  await loops;
  await sampler.end();
  const exited = new Promise((r) => service.once("exit", r));
  service.kill("SIGTERM");
  await exited;

  const total = [...states.values()].reduce((a, b) => a + b, 0);
  console.log(
    `${SCENARIO} at ${CONNECTIONS} connections: ${result.requests.average} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`,
  );
  console.log(`${samples} samples of the database's backends (${(total / samples).toFixed(1)} backends on average)\n`);
  console.log("| backend state | share of backend samples | backends on average |\n|---|---|---|");
  for (const [what, count] of [...states].sort((a, b) => b[1] - a[1]))
    console.log(`| ${what} | ${((count / total) * 100).toFixed(1)}% | ${(count / samples).toFixed(2)} |`);
  const sorted = [...queue].sort((a, b) => a - b);
  const mean = queue.reduce((a, b) => a + b, 0) / Math.max(queue.length, 1);
  console.log(
    `\nAPI pool queue (requests waiting for a connection), ${queue.length} samples: mean ${mean.toFixed(1)}, median ${sorted[Math.floor(sorted.length / 2)] ?? 0}, max ${sorted.at(-1) ?? 0}`,
  );
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
