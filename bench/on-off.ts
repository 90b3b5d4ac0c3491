// What a feature costs on the API's hot paths, side by side with it off: the request log (docs/api.md "Request log")
// or the metrics (docs/operating.md "Metrics").
//
//   node scripts/build.mjs
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench node --import tsx bench/on-off.ts --feature request-log|metrics [--rounds 4] [--seconds 8] [--write]
//
// One run, one database: the floor server (bench/floor-server.mjs), the built service with the feature on and the
// same build with it off (FEATURES below: the environment of each), each on its own port. Creates and reads by id
// are sent with autocannon (16 connections) to each in turn, round after round (on, off, floor; then off, on,
// floor; ...), so drift on this shared machine falls on all three alike. The noise is the spread of one
// configuration's rounds; the cost is the difference of the medians. --write replaces the feature's section of
// docs/benchmarks.md ("## Request log on and off", "## Metrics on and off").
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startService } from "../scripts/harness/service";
import { benchDatabaseUrl, freshSeededDatabase, numberArg, writeBenchmarkSection } from "./support";
import { present } from "../scripts/harness/present";

const root = path.resolve(__dirname, "..");
const ROUNDS = numberArg("rounds", 4);
const SECONDS = numberArg("seconds", 8);
const CONNECTIONS = 16;
const DATABASE_URL = benchDatabaseUrl();

/** Each feature: its section heading's name, the environment of the service with it on and off, in words and as variables. */
const FEATURES = {
  "request-log": { title: "Request log", on: {}, off: { REQUEST_LOG: "0" }, onWords: "the request log on (the default)", offWords: "`REQUEST_LOG=0`" },
  metrics: {
    title: "Metrics",
    on: { METRICS_TOKEN: "bench-metrics-token-0123456789" },
    off: {},
    onWords: "metrics on (`METRICS_TOKEN` set; nothing scrapes it during the run)",
    offWords: "metrics off (the default)",
  },
} as const;
const featureArg = process.argv[process.argv.indexOf("--feature") + 1] as keyof typeof FEATURES;
if (!process.argv.includes("--feature") || !(featureArg in FEATURES)) throw new Error(`--feature ${Object.keys(FEATURES).join("|")} is required`);
const FEATURE = FEATURES[featureArg];

type Config = "on" | "off" | "floor";
type Sample = { rps: number; p50: number; p99: number; non2xx: number };

const median = (xs: number[]) => present([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)], "the median of no samples");
const spread = (xs: number[]) => (Math.max(...xs) - Math.min(...xs)) / median(xs);

async function freePort(): Promise<number> {
  const { freePort: free } = await import("../scripts/db.mjs");
  return free();
}

async function main() {
  const loadBefore = os.loadavg().map((l) => Math.round(l * 10) / 10);
  const seeded = await freshSeededDatabase(DATABASE_URL);
  const env = { DATABASE_URL, RATE_LIMIT_PER_KEY: "100000000", RATE_LIMIT_PER_IP: "100000000", NODE_ENV: "production", LOG_LEVEL: "warn" };
  const on = await startService({ ...env, ...FEATURE.on });
  const off = await startService({ ...env, ...FEATURE.off });
  const floorPort = await freePort();
  const floor: ChildProcess = spawn(process.execPath, [path.join(root, "bench", "floor-server.mjs")], {
    cwd: root,
    env: { ...process.env, PORT: String(floorPort), DATABASE_URL, FLOOR_MERCHANT_ID: seeded.merchantId },
    stdio: ["ignore", "ignore", "inherit"],
  });
  process.once("exit", () => [on.child, off.child, floor].forEach((c) => c.kill("SIGTERM")));
  await new Promise((r) => setTimeout(r, 1500));
  const bases: Record<Config, string> = { on: on.url, off: off.url, floor: `http://127.0.0.1:${floorPort}` };
  const key = seeded.keys.full;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const createBody = () => JSON.stringify({ reference: `bench-${randomUUID()}`, amount: "100.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" });

  // A payment to read by id on each service.
  const created = await fetch(`${on.url}/v1/payments`, { method: "POST", headers: { ...headers, "idempotency-key": randomUUID() }, body: createBody() });
  const paymentId = ((await created.json()) as { id: string }).id;

  const create = (config: Config): autocannon.Request[] => [
    {
      method: "POST",
      path: config === "floor" ? "/payments" : "/v1/payments",
      setupRequest: (req) => ({ ...req, headers: { ...headers, "idempotency-key": `bench-${randomUUID()}` }, body: createBody() }),
    },
  ];
  const read: autocannon.Request[] = [{ method: "GET", path: `/v1/payments/${paymentId}`, headers }];

  const samples: Record<string, Sample[]> = {};
  const measure = async (name: string, base: string, requests: autocannon.Request[]) => {
    const r = await autocannon({ url: base, connections: CONNECTIONS, duration: SECONDS, requests });
    (samples[name] ??= []).push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx });
  };
  // Warm-up: JIT and prepared statements of both services.
  for (const c of ["on", "off"] as const) await autocannon({ url: bases[c], connections: CONNECTIONS, duration: 3, requests: create(c) });
  for (let round = 0; round < ROUNDS; round++) {
    const order: Config[] = round % 2 === 0 ? ["on", "off", "floor"] : ["off", "on", "floor"];
    for (const c of order) await measure(`create ${c}`, bases[c], create(c));
    for (const c of order.filter((x) => x !== "floor")) await measure(`read ${c}`, bases[c], read);
    console.log(`round ${round + 1}/${ROUNDS} done`);
  }
  const logged = await fetch(`${on.url}/v1/requests?limit=1`, { headers }).then((r) => r.json() as Promise<{ total: number }>);
  const loadAfter = os.loadavg().map((l) => Math.round(l * 10) / 10);
  [on.child, off.child, floor].forEach((c) => c.kill("SIGTERM"));

  const row = (name: string) => {
    const s = present(samples[name], `the samples of ${name}`);
    return {
      name,
      rps: median(s.map((x) => x.rps)),
      p50: median(s.map((x) => x.p50)),
      p99: median(s.map((x) => x.p99)),
      spread: spread(s.map((x) => x.rps)),
      non2xx: s.reduce((n, x) => n + x.non2xx, 0),
    };
  };
  const rows = ["create floor", "create on", "create off", "read on", "read off"].map(row);
  const by = Object.fromEntries(rows.map((r) => [r.name, r]));
  const pick = (name: string) => present(by[name], `the ${name} row`);
  const cost = (what: "create" | "read") => (pick(`${what} off`).rps - pick(`${what} on`).rps) / pick(`${what} off`).rps;
  const noise = (what: "create" | "read") => Math.max(pick(`${what} on`).spread, pick(`${what} off`).spread);
  const figures = {
    date: new Date().toISOString().slice(0, 16).replace("T", " "),
    machine: `${os.cpus().length} x ${os.cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    rows,
    createCost: cost("create"),
    readCost: cost("read"),
    createNoise: noise("create"),
    readNoise: noise("read"),
    logged: logged.total,
  };
  console.log(JSON.stringify(figures, null, 2));
  if (process.argv.includes("--write")) {
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const verdict = (what: "create" | "read") =>
      Math.abs(cost(what)) <= noise(what) ? "within the noise" : cost(what) > 0 ? "MORE than the noise" : "faster with it on, within the noise";
    const file = writeBenchmarkSection(`## ${FEATURE.title} on and off

Command: \`node scripts/build.mjs && BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench node --import tsx bench/on-off.ts --feature ${featureArg} --rounds ${ROUNDS} --seconds ${SECONDS} --write\`

One run on one database: the floor server, the built service with ${FEATURE.onWords} and the same
build with ${FEATURE.offWords}, side by side on their own ports, ${CONNECTIONS} connections each in turn, ${ROUNDS} rounds of
${SECONDS} s per row in alternating order. Figures are the medians of the rounds; "spread" is (max - min) / median of a
row's rounds, the run-to-run noise of this machine at that time. Machine: ${figures.machine}, shared with other work
(load average ${loadBefore.join(" / ")} before, ${loadAfter.join(" / ")} after); ${figures.date} UTC. The request log held
${figures.logged.toLocaleString("en-US")} requests at the end.

| row | requests/s | p50 | p99 | spread | non-2xx |
|---|---|---|---|---|---|
${rows.map((r) => `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} ms | ${r.p99} ms | ${pct(r.spread)} | ${r.non2xx} |`).join("\n")}

Cost of ${FEATURE.title.toLowerCase()}: creates ${pct(figures.createCost)} (noise ${pct(figures.createNoise)}: ${verdict("create")}), reads by id
${pct(figures.readCost)} (noise ${pct(figures.readNoise)}: ${verdict("read")}). Goal: a difference within the run-to-run noise.
`);
    console.log(`wrote the ${FEATURE.title.toLowerCase()} section of ${path.relative(root, file)}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
