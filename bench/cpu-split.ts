// Where the CPU of one request goes, by process: `node --import tsx bench/cpu-split.ts [--duration 10] [--scenarios floor,404,replay,create,read,list] [--workers 1]`.
// For each scenario a fresh server (the built service as `npm start` runs it, or bench/floor-server.mjs) takes
// 32 connections (`--connections N`) of load from autocannon in this process for a 3 s warm-up and then the duration; the user + system
// CPU time of the server process (and its children), of the PostgreSQL backends connected to the benchmark's
// database (/proc/<pid>/stat of the pids pg_stat_activity names for it when the load ends: the pools keep their
// connections, and other databases' work on a shared server is left out; `--all-postgres` counts every PostgreSQL
// process on the machine instead, background ones such as the WAL writer included) and of this process,
// divided by the requests answered. On a machine whose cores are all busy, throughput is about
// (cores) / (CPU per request summed over the processes), so this shows which process to make cheaper.
// Uses the load benchmark's database (BENCH_DATABASE_URL, default sandpiper_bench_7; run bench/load.ts once first).
// `--workers N` runs the service with SANDPIPER_WORKERS=N (rate limits in Redis when REDIS_URL is set, else in PostgreSQL).
// Prints a markdown table; writes nothing.
import { execSync, spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { LIST_FILTERS, numberArg, benchServiceEnv } from "./support";

const root = path.resolve(__dirname, "..");
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sandpiper_bench_7";
const DURATION = numberArg("duration", 10);
const WORKERS = numberArg("workers", 1);
const CONNECTIONS = numberArg("connections", 32);
const scenariosAt = process.argv.indexOf("--scenarios");
const SCENARIOS = (scenariosAt >= 0 ? process.argv[scenariosAt + 1]! : "floor,404,replay,create,read,list").split(",");

/** CPU time (user + system) of a process so far, in ms; 0 when it has gone. */
function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

const pids = (command: string) => execSync(`${command} || true`).toString().split("\n").filter(Boolean).map(Number);
const ALL_POSTGRES = process.argv.includes("--all-postgres");
/** The PostgreSQL processes counted: every one on the machine (`--all-postgres`), or the backends of the benchmark's database. */
async function postgresPids(): Promise<number[]> {
  if (ALL_POSTGRES) return pids("pgrep -x postgres");
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}
const postgresCpu = (of: number[]) => of.reduce((sum, pid) => sum + cpuMs(pid), 0);
const serverCpu = (server: ChildProcess) => [server.pid!, ...pids(`pgrep -P ${server.pid}`)].reduce((sum, pid) => sum + cpuMs(pid), 0);

async function main() {
  process.env.DATABASE_URL = DATABASE_URL;
  const { prepareDataset } = await import("./dataset");
  const { freePort } = await import("../scripts/db.mjs");
  const data = await prepareDataset(DATABASE_URL, 1_000_000, () => undefined);
  const headers = { authorization: `Bearer ${data.key}`, "content-type": "application/json" };
  const createBody = (reference: string) => JSON.stringify({ reference, amount: "1123.52", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" });
  let n = 0;
  const rows: string[] = [];
  for (const scenario of SCENARIOS) {
    const port = await freePort();
    const floor = scenario === "floor";
    const server = spawn(process.execPath, floor ? ["bench/floor-server.mjs"] : ["--max-old-space-size=256", "server.mjs"], {
      cwd: root,
      env: benchServiceEnv(port, DATABASE_URL, { LOG_LEVEL: "info", FLOOR_MERCHANT_ID: data.merchantId, SANDPIPER_WORKERS: String(WORKERS) }),
      stdio: ["ignore", "ignore", "inherit"],
    });
    const base = `http://127.0.0.1:${port}`;
    for (const deadline = Date.now() + 60_000; ;) {
      try {
        await fetch(`${base}/v1/health-check-probe`);
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`${scenario}: server did not start`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const replayKey = `split-${randomUUID()}`;
    if (scenario === "replay")
      await fetch(`${base}/v1/payments`, { method: "POST", headers: { ...headers, "idempotency-key": replayKey }, body: createBody(replayKey) });
    const request: autocannon.Request =
      scenario === "404"
        ? { method: "GET", path: "/v1/no-such-endpoint", headers }
        : scenario === "read"
          ? {
              method: "GET",
              path: "/v1/payments",
              setupRequest: (req) => ({ ...req, headers, path: `/v1/payments/${data.sampleIds[n++ % data.sampleIds.length]}` }),
            }
          : scenario === "list"
            ? {
                method: "GET",
                path: "/v1/payments",
                setupRequest: (req) => ({ ...req, headers, path: `/v1/payments?${LIST_FILTERS[n++ % LIST_FILTERS.length]}` }),
              }
            : {
                method: "POST",
                path: floor ? "/payments" : "/v1/payments",
                setupRequest: (req) => {
                  const key = scenario === "replay" ? replayKey : `split-${randomUUID()}`;
                  return { ...req, headers: { ...headers, "idempotency-key": key }, body: createBody(key) };
                },
              };
    await autocannon({ url: base, connections: CONNECTIONS, duration: 3, requests: [request] });
    // The backends the warm-up opened are those of the measured load (the pools keep them).
    const backends = await postgresPids();
    const [s0, p0, c0, t0] = [serverCpu(server), postgresCpu(backends), process.cpuUsage(), Date.now()];
    const result = await autocannon({ url: base, connections: CONNECTIONS, duration: DURATION, requests: [request] });
    const [s1, p1, c1, elapsed] = [serverCpu(server), postgresCpu(backends), process.cpuUsage(c0), Date.now() - t0];
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
    const count = result.requests.total;
    const per = (ms: number) => `${(ms / count).toFixed(2)} ms (${((ms / elapsed) * 100).toFixed(0)}% of a core)`;
    const expected = scenario === "404" ? result.non2xx === count : result.non2xx === 0;
    rows.push(
      `| ${scenario} | ${result.requests.average.toFixed(0)} | ${per(s1 - s0)} | ${per(p1 - p0)} | ${per((c1.user + c1.system) / 1000)} | ${expected ? "as expected" : `UNEXPECTED: ${result.non2xx} non-2xx`} |`,
    );
    console.error(rows.at(-1));
  }
  const heading = `| scenario (${CONNECTIONS} connections${WORKERS > 1 ? `, ${WORKERS} service workers` : ""}) | requests/s | server CPU per request | PostgreSQL CPU per request | load generator CPU per request | answers |`;
  console.log([heading, "|---|---|---|---|---|---|", ...rows].join("\n"));
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
