// Helpers shared by the benchmarks under bench/.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { present } from "../scripts/harness/present";
import type pg from "pg";

const root = path.resolve(__dirname, "..");

/** A numeric command-line option `--name <value>`, or `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/**
 * The benchmark database (BENCH_DATABASE_URL, default sandpiper_bench on 127.0.0.1), which the benchmark
 * recreates: refused unless local. Also sets DATABASE_URL for the project's code in this process.
 */
export function benchDatabaseUrl(): string {
  const url = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sandpiper_bench";
  if (!["127.0.0.1", "localhost"].includes(new URL(url).hostname)) throw new Error("the benchmark recreates its database: local only");
  process.env.DATABASE_URL = url;
  return url;
}

/** Recreates, migrates and seeds the benchmark database (scripts/harness/service.ts). */
export { freshSeededDatabase } from "../scripts/harness/service";

/**
 * The environment of a service a benchmark starts (`node server.mjs`): production, on 127.0.0.1 at `port`, on the
 * benchmark database, with the API's rate limits lifted so the load measures the service rather than its limits.
 * `extra` adds or overrides variables (NODE_ENV, LOG_LEVEL, SANDPIPER_WORKERS, ...). process.env is included.
 */
export function benchServiceEnv(port: number, databaseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_PER_KEY: "100000000",
    RATE_LIMIT_PER_IP: "100000000",
    ...extra,
  };
}

/** List filters without a date range, from the load benchmark's list scenario (bench/load.ts), for the CPU benchmarks. */
export const LIST_FILTERS = [
  "status=SUCCEEDED",
  "status=PENDING&currency=USD",
  "method=BANK_TRANSFER&direction=WITHDRAWAL",
  "currency=EUR",
  "status=FAILED&method=GATEWAY",
  "status=EXPIRED&currency=GBP&page=3",
  "direction=DEPOSIT&currency=AED",
];

/** The p-th percentile (nearest rank) of an ascending list. */
export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Writes `section` (markdown starting with its "## " heading line) into docs/benchmarks.md: replaces the
 * section of the same heading, up to its first "### " subsection or the next "## " heading, or appends it; other
 * sections are kept, and so are the section's "### " subsections (earlier rounds, written by hand: a benchmark's own
 * text has none).
 * @returns the path of the file written
 */
export function writeBenchmarkSection(section: string): string {
  const file = path.resolve(__dirname, "..", "docs", "benchmarks.md");
  const body = section.trimEnd().split("\n");
  if (!present(body[0], "body[0]").startsWith("## ")) throw new Error("a benchmark section starts with its '## ' heading");
  const lines = (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n").trimEnd().split("\n");
  const start = lines.findIndex((l) => l.trim() === body[0]);
  if (start < 0) lines.push("", ...body);
  else {
    const end = lines.findIndex((l, i) => i > start && (l.startsWith("## ") || l.startsWith("### ")));
    lines.splice(start, (end < 0 ? lines.length : end) - start, ...body, ...(end < 0 ? [] : [""]));
  }
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/**
 * Runs a benchmark's `main`, which resolves with its markdown section (starting with its "## " heading): prints it,
 * writes it into docs/benchmarks.md with `--write` ({@link writeBenchmarkSection}), and exits 0; a thrown error is
 * printed and exits 1.
 */
export function runBenchmark(main: () => Promise<string>): void {
  main().then(
    (section) => {
      if (process.argv.includes("--write")) writeBenchmarkSection(section);
      console.log(section);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/** Starts `node <args>` in the project's folder with process.env and `env`: its stdout ignored, its stderr shown. */
export function startNode(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

/**
 * Waits until `url` answers a status that `ok` accepts, trying every 200 ms.
 * @throws Error when it has not within 60 s
 */
export async function waitForStatus(url: string, ok: (status: number) => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if (ok((await fetch(url)).status)) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Starts the built service (`node --max-old-space-size=256 server.mjs`, NODE_ENV=test with CALLBACK_ALLOW_LOOPBACK=1 so
 * that a loopback callback address is taken, the API's rate limits lifted) and bench/floor-server.mjs for `merchantId`,
 * both on `databaseUrl` and free ports, and waits until both answer. With `cpuProfDir` the service writes a V8 CPU
 * profile there when it stops. Both are stopped when this process exits.
 */
export async function startServiceBesideFloor(databaseUrl: string, merchantId: string, cpuProfDir?: string) {
  const { freePort } = await import("../scripts/db.mjs");
  const [port, floorPort] = [await freePort(), await freePort()];
  const profileArgs = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfDir)}`] : [];
  const service = startNode(
    [...profileArgs, "--max-old-space-size=256", "server.mjs"],
    benchServiceEnv(port, databaseUrl, {
      NODE_ENV: "test",
      CALLBACK_ALLOW_LOOPBACK: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      METRICS_TOKEN: BENCH_METRICS_TOKEN,
    }) as Record<string, string>,
  );
  const floor = startNode(["bench/floor-server.mjs"], { PORT: String(floorPort), DATABASE_URL: databaseUrl, FLOOR_MERCHANT_ID: merchantId });
  process.once("exit", () => [service, floor].forEach((c) => c.kill("SIGTERM")));
  const bases = { service: `http://127.0.0.1:${port}`, floor: `http://127.0.0.1:${floorPort}` };
  await waitForStatus(`${bases.service}/v1/health-check-probe`, (s) => s === 404);
  await waitForStatus(bases.floor, (s) => s > 0);
  return { service, floor, bases };
}

/** The METRICS_TOKEN of a service started by {@link startServiceBesideFloor} (a bench's own service, never a secret). */
export const BENCH_METRICS_TOKEN = "bench-metrics-token-of-this-service-only";

/**
 * The service's event-loop delay since the previous call (prom-client's `nodejs_eventloop_lag_*` gauges, whose
 * histogram each scrape of GET /metrics resets), in milliseconds: p50, p99 and max.
 */
export async function eventLoopLag(base: string): Promise<{ p50: number; p99: number; max: number }> {
  const text = await (await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })).text();
  const read = (name: string) => Number(text.match(new RegExp(`^nodejs_eventloop_lag_${name}_seconds (\\S+)$`, "m"))?.[1] ?? NaN) * 1000;
  return { p50: read("p50"), p99: read("p99"), max: read("max") };
}

/**
 * Polls every 250 ms, for at most `maxWaitS` seconds from `since` (a performance.now() time), until none of the
 * payments whose reference starts with `batch-` is PENDING or PENDING_APPROVAL.
 * @returns the milliseconds from `since` to the poll that found none (null: not within the wait) and how many were left
 */
export async function pollUntilNonePending(db: pg.Client, batch: string, since: number, maxWaitS: number): Promise<{ ms: number | null; left: number }> {
  let left = -1;
  while (performance.now() < since + maxWaitS * 1000) {
    left = Number(
      (await db.query(`SELECT count(*)::int AS n FROM payments WHERE reference LIKE $1 || '-%' AND status IN ('PENDING', 'PENDING_APPROVAL')`, [batch])).rows[0]
        .n,
    );
    if (left === 0) return { ms: performance.now() - since, left };
    await new Promise((r) => setTimeout(r, 250));
  }
  return { ms: null, left };
}

/**
 * In the caller's open transaction, adds `copies` times the amount of the payment `templateId` to its profile's limit
 * counters of its day and month, as that many creates would have (minor units). It adds to slot 0, creating the row
 * when the template's usage sits in other slots: a counter is the sum of its slots (lib/domain/pricing/limits.ts).
 */
export async function addCopiesToLimitCounters(db: pg.Client, templateId: string, copies: number): Promise<void> {
  await db.query(
    `INSERT INTO limit_counters AS c (profile_id, period, slot, used_minor)
     SELECT t.limit_profile_id, v.period, 0, $2::bigint * t.amount_minor
     FROM payments t, LATERAL (VALUES ('D:' || t.business_day), ('M:' || left(t.business_day, 7))) AS v(period)
     WHERE t.id = $1 AND t.limit_profile_id IS NOT NULL
     ON CONFLICT (profile_id, period, slot) DO UPDATE SET used_minor = c.used_minor + EXCLUDED.used_minor`,
    [templateId, copies],
  );
}

/**
 * In the caller's open transaction, inserts `n` due deliveries (PENDING, no attempt, due now), each with its own event:
 * copies of the delivery `templateDeliveryId` and its event (the events without a payment), marked as inserted by this
 * transaction, so that they take their feed positions together at COMMIT.
 */
export async function insertDueDeliveryCopies(db: pg.Client, templateDeliveryId: string, n: number): Promise<void> {
  await db.query(
    `CREATE TEMP TABLE backlog_ids ON COMMIT DROP AS SELECT gen_random_uuid() AS event_id, gen_random_uuid() AS delivery_id FROM generate_series(1, $1::int)`,
    [n],
  );
  await db.query(
    `INSERT INTO events
     SELECT (jsonb_populate_record(NULL::events, to_jsonb(e) || jsonb_build_object('id', b.event_id, 'payment_id', NULL, 'seq', NULL, 'position', NULL,
               'feed_tx', txid_current(), 'feed_order', nextval('feed_insert_order')))).*
     FROM deliveries d JOIN events e ON e.id = d.event_id, backlog_ids b WHERE d.id = $1`,
    [templateDeliveryId],
  );
  await db.query(
    `INSERT INTO deliveries
     SELECT (jsonb_populate_record(NULL::deliveries, to_jsonb(d) || jsonb_build_object(
               'id', b.delivery_id, 'event_id', b.event_id, 'state', 'PENDING', 'attempt_count', 0, 'next_attempt_at', now(),
               'lease_until', NULL, 'delivered_at', NULL, 'last_error', NULL))).*
     FROM deliveries d, backlog_ids b WHERE d.id = $1`,
    [templateDeliveryId],
  );
}

/**
 * Samples pg_stat_activity of the client's database every 100 ms until `stop()`: each non-idle backend but the
 * sampler's is counted in `waits` under "state | wait event (or CPU) | the statement's first 60 characters".
 * @returns `stop`, which resolves with the number of samples taken
 */
export function sampleBackends(client: pg.Client, waits: Map<string, number>): { stop: () => Promise<number> } {
  let sampling = true;
  let samples = 0;
  const done = (async () => {
    while (sampling) {
      const rows = (
        await client.query(
          `SELECT state, coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait, left(regexp_replace(query, '\\s+', ' ', 'g'), 60) AS query
           FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`,
        )
      ).rows as { state: string; wait: string; query: string }[];
      samples++;
      for (const r of rows) {
        const key = `${r.state} | ${r.wait} | ${r.query}`;
        waits.set(key, (waits.get(key) ?? 0) + 1);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    stop: async () => {
      sampling = false;
      await done;
      return samples;
    },
  };
}

/**
 * Waits until the service at `base` answers its unknown-path probe (`/v1/health-check-probe`, 404), polling every 200 ms.
 * @throws Error when it has not within 60 s
 */
export function waitForService(base: string): Promise<void> {
  return waitForStatus(`${base}/v1/health-check-probe`, (s) => s === 404);
}

/**
 * The @sandpiper/sandbox tarball as `npm run pack:clients` makes it (packed into `<scratch>/packages`), installed
 * offline into a new empty project at `project`, as a merchant installs it (docs/guides/test-in-your-own-suite.md).
 * `env`: the environment of the npm commands (without the benchmark's own npm_* variables).
 * @returns the tarball's path and how long its install took, in ms
 * @throws Error when pack:clients names no sandbox tarball, or an npm command fails
 */
export function installSandboxTarball(scratch: string, project: string, env: NodeJS.ProcessEnv): { tarball: string; installMs: number } {
  const root = path.resolve(__dirname, "..");
  const packed = execFileSync("npm", ["run", "--silent", "pack:clients", "--", path.join(scratch, "packages")], { cwd: root, env, encoding: "utf8" });
  const tarball = /^@sandpiper\/sandbox \S+: (\S+\.tgz)$/m.exec(packed)?.[1];
  if (!tarball) throw new Error(`pack:clients printed no sandbox tarball:\n${packed}`);
  fs.mkdirSync(project);
  execFileSync("npm", ["init", "-y"], { cwd: project, env, stdio: "ignore" });
  const started = performance.now();
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball], { cwd: project, env, stdio: "ignore" });
  return { tarball, installMs: performance.now() - started };
}
