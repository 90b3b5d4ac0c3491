// Load benchmark: `node --import tsx bench/load.ts [--duration=20] [--connections=32] [--recreate]`.
// Server, floor server and load generator (autocannon) on this machine; local PostgreSQL database
// BENCH_DATABASE_URL (default sandpiper_bench_7), migrated, seeded and holding 1,000,000 payments of one
// merchant. Needs a production build (`node scripts/build.mjs`). Writes the "## API load" section of
// docs/benchmarks.md (other sections are kept).
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { writeBenchmarkSection } from "./support";
import { assertPresent, present } from "../scripts/harness/present";

const root = path.resolve(__dirname, "..");
const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const DURATION = Number(arg("duration", "20"));
const WARMUP = 3;
const CONNECTIONS = Number(arg("connections", "32"));
const PAYMENTS = Number(arg("payments", "1000000"));
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sandpiper_bench_7";
const log = (s: string) => console.log(`[bench] ${s}`);

/**
 * A scenario's goal (docs/benchmarks.md "Load targets: causes and fixes"): `ratio` of the requests/s of the scenario
 * named `of` (a floor row of the same run), a p99 or a p50 bound.
 */
type Target = { p99Ms?: number; p50Ms?: number; ratio?: { of: string; atLeast: number } };
type Scenario = { name: string; server: "floor" | "sandpiper"; target?: Target; requests: autocannon.Request[]; expect404?: boolean; connections?: number };
type Result = { name: string; rps: number; p50: number; p99: number; requests: number; non2xx: number; errors: number; target?: Scenario["target"] };

function startProcess(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

async function waitFor(url: string, ok: (status: number) => boolean) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if (ok((await fetch(url, { method: "GET" })).status)) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Peak resident set size of a process (Linux /proc VmHWM), in MiB. */
function peakRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function run(base: string, scenario: Scenario, duration: number): Promise<Result> {
  const result = await autocannon({ url: base, connections: scenario.connections ?? CONNECTIONS, duration, requests: scenario.requests });
  return {
    name: scenario.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: scenario.expect404 ? result.requests.total - (result.statusCodeStats?.["404"]?.count ?? 0) : result.non2xx,
    errors: result.errors + result.timeouts,
    target: scenario.target,
  };
}

const FLOOR_CREATE = "floor server: create (idempotency row + payment row)";
const FLOOR_READ = "floor server: read by id (the payment row by id and merchant)";
const FLOOR_CREATE_1 = "floor server: create, 1 connection";

/** The scenarios in the order they run: each service row right after the floor row it is compared with. */
function scenarios(key: string, sampleIds: string[], replays: { key: string; body: string }[]): Scenario[] {
  const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const createBody = (reference: string) => JSON.stringify({ reference, amount: "1123.52", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" });
  const fresh = (headers: Record<string, string>) => (req: autocannon.Request) => {
    const id = randomUUID();
    return { ...req, headers: { ...headers, "idempotency-key": `bench-${id}` }, body: createBody(`bench-${id}`) };
  };
  let n = 0;
  const cycle = <T>(items: T[]) => items[n++ % items.length];
  const filters = [
    "status=SUCCEEDED",
    "status=PENDING&currency=USD",
    "method=BANK_TRANSFER&direction=WITHDRAWAL",
    "currency=EUR",
    "status=FAILED&method=GATEWAY",
    `from=${day(-30)}&to=${day(0)}`,
    `status=SUCCEEDED&from=${day(-200)}&to=${day(-100)}`,
    "status=EXPIRED&currency=GBP&page=3",
    "limit=100&status=SUCCEEDED",
    "direction=DEPOSIT&currency=AED",
  ];
  const create = (headers: Record<string, string>, path: string): autocannon.Request[] => [{ method: "POST", path, setupRequest: fresh(headers) }];
  const read = (headers: Record<string, string>, prefix: string): autocannon.Request[] => [
    { method: "GET", path: prefix, setupRequest: (req) => ({ ...req, headers, path: `${prefix}/${cycle(sampleIds)}` }) },
  ];
  const list: autocannon.Request[] = [
    { method: "GET", path: "/v1/payments", setupRequest: (req) => ({ ...req, headers: auth, path: `/v1/payments?${cycle(filters)}` }) },
  ];
  return [
    { name: FLOOR_CREATE, server: "floor", requests: create({ "content-type": "application/json" }, "/payments") },
    {
      name: "create payment, distinct Idempotency-Keys",
      server: "sandpiper",
      target: { p99Ms: 150, ratio: { of: FLOOR_CREATE, atLeast: 0.5 } },
      requests: create(auth, "/v1/payments"),
    },
    { name: FLOOR_READ, server: "floor", requests: read({}, "/payments") },
    { name: "read by id", server: "sandpiper", target: { ratio: { of: FLOOR_READ, atLeast: 0.8 } }, requests: read(auth, "/v1/payments") },
    { name: FLOOR_CREATE_1, server: "floor", connections: 1, requests: create({ "content-type": "application/json" }, "/payments") },
    {
      name: "create, 1 connection (no queueing)",
      server: "sandpiper",
      connections: 1,
      target: { ratio: { of: FLOOR_CREATE_1, atLeast: 0.5 } },
      requests: create(auth, "/v1/payments"),
    },
    {
      name: "framework floor: unknown /v1 path (404 envelope, no database)",
      server: "sandpiper",
      expect404: true,
      requests: [{ method: "GET", path: "/v1/no-such-endpoint", headers: auth }],
    },
    {
      name: "replay (same key and body)",
      server: "sandpiper",
      requests: [
        {
          method: "POST",
          path: "/v1/payments",
          setupRequest: (req) => {
            const r = cycle(replays);
            assertPresent(r, "r");
            return { ...req, headers: { ...auth, "idempotency-key": r.key }, body: r.body };
          },
        },
      ],
    },
    { name: `list with filters over ${PAYMENTS.toLocaleString("en-US")} payments`, server: "sandpiper", requests: list },
    // Without queueing: what one request costs.
    { name: "read by id, 1 connection (no queueing)", server: "sandpiper", connections: 1, target: { p50Ms: 3 }, requests: read(auth, "/v1/payments") },
    { name: "list with filters, 1 connection (no queueing)", server: "sandpiper", connections: 1, target: { p50Ms: 10 }, requests: list },
  ];
}

function day(offset: number): string {
  return new Date(Date.now() + 4 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);
}

async function machine() {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const version = (await client.query("SHOW server_version")).rows[0].server_version;
  const buffers = (await client.query("SHOW shared_buffers")).rows[0].shared_buffers;
  await client.end();
  return `${os.cpus().length} vCPU ${present(os.cpus()[0], "os.cpus()[0]").model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Linux ${os.release()}, Node ${process.version}, PostgreSQL ${version} (shared_buffers ${buffers}, default configuration)`;
}

function report(
  results: Result[],
  extra: { rss: number; floorRss: number; machine: string; loadBefore: number[]; loadAfter: number[]; payments: number },
): string {
  const framework = results.find((r) => r.name.startsWith("framework floor"));
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const rows = results.map((r) => {
    const checks: string[] = [];
    const ratio = r.target?.ratio;
    const of = ratio ? results.find((f) => f.name === ratio.of) : undefined;
    if (ratio && of)
      checks.push(
        `${(r.rps / of.rps).toFixed(2)}x the ${ratio.of.replace(/ \(.*\)$/, "")} row (target >= ${ratio.atLeast}x) ${r.rps / of.rps >= ratio.atLeast ? "met" : "MISSED"}`,
      );
    if (r.target?.p50Ms !== undefined) checks.push(`p50 target <= ${r.target.p50Ms} ms ${r.p50 <= r.target.p50Ms ? "met" : "MISSED"}`);
    if (r.target?.p99Ms !== undefined) checks.push(`p99 target <= ${r.target.p99Ms} ms ${r.p99 <= r.target.p99Ms ? "met" : "MISSED"}`);
    return `| ${r.name} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.requests} | ${r.non2xx + r.errors} | ${checks.join("; ") || "-"} |`;
  });
  return [
    "## API load",
    "",
    `Command: \`node scripts/build.mjs && node --import tsx bench/load.ts --duration=${DURATION}\` (concurrency ${CONNECTIONS}, ${WARMUP} s warm-up + ${DURATION} s per scenario, autocannon).`,
    `Date: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC. Machine: ${extra.machine}.`,
    `Conditions: service (\`node --max-old-space-size=256 server.mjs\` as \`npm start\` runs it, NODE_ENV=production, DB pool 10, request logging on), floor server, load generator and PostgreSQL share the same cores; other work on the machine shows in the load average (1, 5 and 15 minutes: ${extra.loadBefore.map((l) => l.toFixed(1)).join(" / ")} before, ${extra.loadAfter.map((l) => l.toFixed(1)).join(" / ")} after). Rate limits raised for the run (RATE_LIMIT_PER_KEY/PER_IP), since one key and one source IP carry the whole load. Dataset: ${extra.payments.toLocaleString("en-US")} payments of one merchant (INSERT ... SELECT generate_series, a year of history, mixed status/method/direction/currency, each with a pricing snapshot).`,
    "",
    `| scenario (concurrency ${CONNECTIONS} unless stated) | requests/s | p50 | p99 | requests | non-2xx or errors | target |`,
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `Peak RSS of the service: ${extra.rss.toFixed(0)} MiB (target <= 300 MiB per process: ${extra.rss <= 300 ? "met" : "MISSED"}; floor server: ${extra.floorRss.toFixed(0)} MiB).`,
    "",
    `Reading the figures: with ${CONNECTIONS} connections always busy, latency is about ${CONNECTIONS} / throughput (Little's law), so a p99 of 20 ms needs at least ${Math.round((CONNECTIONS * 1000) / 20)} requests/s and a p99 of 50 ms at least ${Math.round((CONNECTIONS * 1000) / 50)}/s. The framework floor row (Next.js routing and the error envelope, no database) is the most this service process answers through Next.js on this machine at this moment (the hot payment routes skip Next.js' request handling: docs/architecture.md "Hot paths"): ${framework ? `${framework.rps.toFixed(0)} requests/s, p99 ${ms(framework.p99)}` : "not measured"}.`,
    "",
  ].join("\n");
}

async function main() {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("no production build: run `node scripts/build.mjs` first");
  process.env.DATABASE_URL = DATABASE_URL;
  const { readyDatabase, prepareDataset } = await import("./dataset");
  const { freePort } = await import("../scripts/db.mjs");
  await readyDatabase(DATABASE_URL, process.argv.includes("--recreate"));
  const data = await prepareDataset(DATABASE_URL, PAYMENTS, log);
  log(`${data.payments} payments for merchant ${data.merchantId}`);

  const [port, floorPort] = [await freePort(), await freePort()];
  // The V8 heap cap `npm start` sets (package.json; README "Quick start": under a process manager).
  const service = startProcess(["--max-old-space-size=256", "server.mjs"], {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL,
    LOG_LEVEL: "info",
    RATE_LIMIT_PER_KEY: "100000000",
    RATE_LIMIT_PER_IP: "100000000",
  });
  const floor = startProcess(["bench/floor-server.mjs"], { PORT: String(floorPort), DATABASE_URL, FLOOR_MERCHANT_ID: data.merchantId });
  const bases = { sandpiper: `http://127.0.0.1:${port}`, floor: `http://127.0.0.1:${floorPort}` };
  try {
    await waitFor(`${bases.sandpiper}/v1/health-check-probe`, (s) => s === 404);
    await waitFor(bases.floor, (s) => s > 0);

    // Replays: payments created once, then requested again with the same key and body.
    const replays: { key: string; body: string }[] = [];
    for (let i = 0; i < 64; i++) {
      const key = `replay-${randomUUID()}`;
      const body = JSON.stringify({ reference: key, amount: "250.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" });
      const res = await fetch(`${bases.sandpiper}/v1/payments`, {
        method: "POST",
        headers: { authorization: `Bearer ${data.key}`, "content-type": "application/json", "idempotency-key": key },
        body,
      });
      if (res.status !== 201) throw new Error(`replay setup: ${res.status} ${await res.text()}`);
      replays.push({ key, body });
    }

    const loadBefore = os.loadavg();
    const results: Result[] = [];
    for (const scenario of scenarios(data.key, data.sampleIds, replays)) {
      log(`${scenario.name}: warm-up ${WARMUP} s, then ${DURATION} s`);
      await run(bases[scenario.server], scenario, WARMUP);
      const result = await run(bases[scenario.server], scenario, DURATION);
      log(
        `  ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}; service peak RSS so far ${peakRssMiB(service.pid!).toFixed(0)} MiB`,
      );
      results.push(result);
    }
    const section = report(results, {
      rss: peakRssMiB(service.pid!),
      floorRss: peakRssMiB(floor.pid!),
      machine: await machine(),
      loadBefore,
      loadAfter: os.loadavg(),
      payments: data.payments,
    });
    writeBenchmarkSection(section);
    console.log(`\n${section}`);
  } finally {
    service.kill("SIGTERM");
    floor.kill("SIGTERM");
    const { getDb } = await import("@/lib/platform/db");
    await getDb().$disconnect();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
