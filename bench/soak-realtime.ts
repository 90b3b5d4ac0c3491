// Real-time soak: steady mixed traffic at a realistic merchant rate against the production-started service.
//
//   node scripts/build.mjs
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench_soak \
//     node --import tsx bench/soak-realtime.ts [--minutes 30] [--rate 20] [--write]
//
// The database is recreated, migrated and seeded. The service runs as `npm start` runs it
// (`node --max-old-space-size=256 server.mjs`, NODE_ENV=production, embedded job driver, defaults), a
// `sandpiper listen` process forwards the merchant's events to a local receiver, and the merchant's callback
// address is a second local receiver (saved by this process; under NODE_ENV=production the service refuses a
// loopback address again at send time, so those deliveries fail and retry as they would for a bad address).
// Another process connected to the same database (any service's job driver) would take part of the work: the run
// refuses to start while one is.
// Traffic is open-loop: `rate` requests a second, each sent at its planned time whatever the earlier ones do:
// creates 35%, reads by id 25%, lists 15%, completions of pending payments 15%, clock reads 5%, expiries by the
// sandbox test helper 5%; and every 2 minutes the merchant's sandbox clock is advanced by one hour (its pending
// payments then expire through the move and the expiry sweep). Every minute it samples: resident memory of the
// service's processes (the server and its descendants) and of the listener, pg_database_size, the database's
// connections in pg_stat_activity, and the p50/p99 of the minute's requests. One JSON line per minute on stdout;
// --write replaces the "## Real-time soak" section of docs/benchmarks.md. Stops by itself after `minutes`.
import { spawn, type ChildProcess } from "node:child_process";
import { present } from "../scripts/harness/present";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { benchDatabaseUrl, freshSeededDatabase, numberArg, percentile, runBenchmark, benchServiceEnv } from "./support";

const root = path.resolve(__dirname, "..");
const MINUTES = numberArg("minutes", 30);
const RATE = numberArg("rate", 20);
const DATABASE_URL = benchDatabaseUrl();
process.env.CALLBACK_ALLOW_LOOPBACK = "1"; // this process only (saving the receiver's address); not the service's
process.env.LOG_LEVEL ??= "warn";

type Sample = {
  minute: number;
  at: string;
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  serviceRssMiB: number;
  listenerRssMiB: number;
  dbSizeMiB: number;
  connections: number;
  directReceived: number;
  forwardedReceived: number;
  load1: number;
};

/** A receiver that answers 200 and counts the distinct events it got. */
async function receiver() {
  const events = new Set<string>();
  let requests = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests++;
      events.add(String(req.headers["x-service-event-id"]));
      res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, events, requests: () => requests, close: () => server.close() };
}

/** Resident memory in MiB of `pid` and every process descended from it (Linux /proc). */
function treeRssMiB(pid: number): number {
  const parent = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const inTree = (p: number): boolean => p === pid || (parent.has(p) && p > 1 && inTree(parent.get(p)!));
  let kb = 0;
  for (const p of parent.keys()) {
    if (!inTree(p)) continue;
    try {
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return kb / 1024;
}

async function waitForService(url: string, child: ChildProcess) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/v1/health-check-probe`)).status === 404) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("service did not start within 60 s");
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main(): Promise<string> {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("no production build: run `node scripts/build.mjs` first");
  const loadBefore = os.loadavg();
  const adminUrl = new URL(DATABASE_URL);
  const name = adminUrl.pathname.slice(1);
  adminUrl.pathname = "/postgres";
  const others = new pg.Client({ connectionString: adminUrl.toString() });
  await others.connect();
  const users = Number((await others.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [name])).rows[0].n);
  await others.end();
  if (users > 0) throw new Error(`${users} connection(s) of other processes on ${name}: choose another BENCH_DATABASE_URL`);
  const seeded = await freshSeededDatabase(DATABASE_URL);
  const { getDb } = await import("@/lib/platform/db");
  const { setCallbackUrl } = await import("@/lib/domain/callbacks/callback-config");
  const { freePort } = await import("../scripts/db.mjs");
  const db = getDb();
  const direct = await receiver();
  const forwarded = await receiver();
  await setCallbackUrl(db, { merchantId: seeded.merchantId, url: direct.url });
  await db.$disconnect();

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const service = spawn(process.execPath, ["--max-old-space-size=256", "server.mjs"], {
    cwd: root,
    env: benchServiceEnv(port, DATABASE_URL, { CALLBACK_ALLOW_LOOPBACK: "" }),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const children: ChildProcess[] = [service];
  process.once("exit", () => children.forEach((c) => c.kill("SIGTERM")));
  await waitForService(url, service);
  const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-soak-")), "state.json");
  const listener = spawn(
    process.execPath,
    [
      path.join(root, "bin", "sandpiper.mjs"),
      "listen",
      "--forward-to",
      forwarded.url,
      "--api-url",
      url,
      "--api-key",
      seeded.keys.full,
      "--state-file",
      stateFile,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  children.push(listener);
  let listenerOutput = "";
  listener.stdout!.setEncoding("utf8").on("data", (t: string) => (listenerOutput = (listenerOutput + t).slice(-4096)));
  const listenDeadline = Date.now() + 30_000;
  while (!/Ready: following/.test(listenerOutput)) {
    if (Date.now() > listenDeadline) throw new Error(`listener did not start: ${listenerOutput}`);
    await new Promise((r) => setTimeout(r, 50));
  }

  const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${seeded.keys.full}`, "content-type": "application/json", ...extra });
  const pending: string[] = [];
  const all: string[] = [];
  let latencies: number[] = [];
  let errors = 0;
  const errorKinds = new Map<string, number>();
  const call = async (method: "GET" | "POST", p: string, body?: unknown): Promise<unknown> => {
    const started = performance.now();
    try {
      const res = await fetch(url + p, {
        method,
        headers: method === "POST" ? headers({ "idempotency-key": `soak-${crypto.randomUUID()}` }) : headers(),
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const json: unknown = await res.json();
      latencies.push(performance.now() - started);
      // A completion or expiry that lost the race to the sweep or a clock move answers 409: expected.
      if (res.status >= 300 && res.status !== 409) {
        errors++;
        const kind = `${method} ${p.replace(/[0-9a-f-]{36}/g, "{id}")} ${res.status}`;
        errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
      }
      return json;
    } catch (error) {
      latencies.push(performance.now() - started);
      errors++;
      const kind = `${method} ${p.replace(/[0-9a-f-]{36}/g, "{id}")} ${(error as Error).name}`;
      errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
      return undefined;
    }
  };
  const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];
  const takePending = () => (pending.length === 0 ? undefined : pending.splice(Math.floor(Math.random() * pending.length), 1)[0]);
  const oneRequest = async (i: number) => {
    const r = (i * 7919) % 100; // a fixed, well-spread mix
    if (r < 35 || all.length < 10) {
      const created = (await call("POST", "/v1/payments", {
        reference: `soak-${crypto.randomUUID()}`,
        amount: `${10 + (i % 990)}.00`,
        currency: "USD",
        method: "GATEWAY",
        direction: "DEPOSIT",
      })) as { id?: string } | undefined;
      if (created?.id) {
        pending.push(created.id);
        all.push(created.id);
        if (all.length > 5_000) all.splice(0, 1_000);
        if (pending.length > 2_000) pending.splice(0, 500);
      }
    } else if (r < 60) await call("GET", `/v1/payments/${pick(all)}`);
    else if (r < 75) await call("GET", `/v1/payments?${pick(["status=SUCCEEDED", "status=PENDING", "status=EXPIRED", "limit=50", "currency=USD"])}`);
    else if (r < 90) {
      const id = takePending();
      if (id) await call("POST", `/v1/sandbox/payments/${id}/complete`, { outcome: r < 87 ? "SUCCEEDED" : "FAILED" });
    } else if (r < 95) await call("GET", "/v1/sandbox/clock");
    else {
      const id = takePending();
      if (id) await call("POST", `/v1/sandbox/payments/${id}/expire`, {});
    }
  };

  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  const samples: Sample[] = [];
  const start = performance.now();
  const totalRequests = MINUTES * 60 * RATE;
  const inFlight = new Set<Promise<void>>();
  let minute = 0;
  const sample = async () => {
    minute++;
    // Taken and reset before the first await: requests answered meanwhile count in the next minute.
    const sorted = latencies.sort((a, b) => a - b);
    const minuteErrors = errors;
    latencies = [];
    errors = 0;
    const dbRow = (
      await admin.query(
        "SELECT pg_database_size(current_database())::bigint AS size, (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database()) AS connections",
      )
    ).rows[0] as {
      size: string;
      connections: number;
    };
    const s: Sample = {
      minute,
      at: new Date().toISOString().slice(11, 19),
      requests: sorted.length,
      errors: minuteErrors,
      p50Ms: Math.round(percentile(sorted, 50) ?? 0),
      p99Ms: Math.round(percentile(sorted, 99) ?? 0),
      maxMs: Math.round(sorted[sorted.length - 1] ?? 0),
      serviceRssMiB: Math.round(treeRssMiB(service.pid!)),
      listenerRssMiB: Math.round(treeRssMiB(listener.pid!)),
      dbSizeMiB: Math.round((Number(dbRow.size) / 2 ** 20) * 10) / 10,
      connections: dbRow.connections - 1, // less this sampler's own
      directReceived: direct.events.size,
      forwardedReceived: forwarded.events.size,
      load1: Math.round(present(os.loadavg()[0], "the load average") * 10) / 10,
    };
    samples.push(s);
    console.log(JSON.stringify(s));
  };
  for (let i = 0; i < totalRequests; i++) {
    const at = start + (i * 1000) / RATE;
    if (at >= start + minute * 60_000 + 60_000) await sample();
    if (i > 0 && i % (RATE * 120) === 0) {
      const p = call("POST", "/v1/sandbox/clock/advance", { by: "1h" }).then(() => undefined);
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
    const wait = at - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const p = oneRequest(i);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }
  // Bounded: in the first 30-minute run one request never settled despite its 30 s abort signal, and the run hung here.
  const settled = await Promise.race([Promise.all(inFlight).then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 40_000))]);
  if (!settled) {
    errors += inFlight.size;
    errorKinds.set("unsettled after 40 s", inFlight.size);
  }
  await sample();
  const counts = (
    await admin.query(`SELECT status::text, count(*)::int AS n FROM payments WHERE merchant_id = $1 GROUP BY status ORDER BY status`, [seeded.merchantId])
  ).rows as { status: string; n: number }[];
  const deliveries = (await admin.query(`SELECT state::text, count(*)::int AS n FROM deliveries GROUP BY state ORDER BY state`)).rows as {
    state: string;
    n: number;
  }[];
  await admin.end();
  listener.kill("SIGTERM");
  service.kill("SIGTERM");
  direct.close();
  forwarded.close();
  const loadAfter = os.loadavg();
  const summary = {
    counts,
    deliveries,
    errorKinds: Object.fromEntries(errorKinds),
    directRequests: direct.requests(),
    forwardedRequests: forwarded.requests(),
  };
  console.log(JSON.stringify(summary));

  const window = Math.min(5, Math.floor(samples.length / 2)) || 1;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const first = samples.slice(0, window);
  const last = samples.slice(-window);
  const compare = (name: string, f: (s: Sample) => number, unit: string) =>
    `| ${name} | ${mean(first.map(f)).toFixed(1)} ${unit} | ${mean(last.map(f)).toFixed(1)} ${unit} | ${(((mean(last.map(f)) - mean(first.map(f))) / mean(first.map(f))) * 100).toFixed(1)}% |`;
  return [
    "## Real-time soak",
    "",
    `Command: \`node scripts/build.mjs && BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench_soak node --import tsx bench/soak-realtime.ts --minutes ${MINUTES} --rate ${RATE} --write\` (source: \`bench/soak-realtime.ts\`).`,
    "",
    `Machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, shared with other work; Node ${process.version}; load average (1/5/15 min) ${loadBefore.map((l) => l.toFixed(1)).join(" / ")} before, ${loadAfter.map((l) => l.toFixed(1)).join(" / ")} after; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC (end).`,
    "",
    `The service as \`npm start\` runs it (\`node --max-old-space-size=256 server.mjs\`, NODE_ENV=production, embedded job driver, defaults; rate limits raised), a \`sandpiper listen\` process forwarding to a local receiver, and the merchant's callback address on a second local receiver. ${RATE} requests/s open-loop: creates 35%, reads by id 25%, lists 15%, completions 15%, clock reads 5%, expiries by the test helper 5%, and a 1 h clock advance every 2 minutes. Per minute: resident memory of the service (server and descendants) and of the listener, \`pg_database_size\`, the database's connections in \`pg_stat_activity\` (less the sampler's), the minute's latency.`,
    "",
    "| minute | requests | errors | p50 | p99 | max | service RSS | listener RSS | database | connections | events at listener's receiver | load |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...samples.map(
      (s) =>
        `| ${s.minute} | ${s.requests} | ${s.errors} | ${s.p50Ms} ms | ${s.p99Ms} ms | ${s.maxMs} ms | ${s.serviceRssMiB} MiB | ${s.listenerRssMiB} MiB | ${s.dbSizeMiB} MiB | ${s.connections} | ${s.forwardedReceived} | ${s.load1} |`,
    ),
    "",
    `First ${window} minutes against the last ${window}:`,
    "",
    "| figure | first | last | change |",
    "|---|---|---|---|",
    compare("service RSS", (s) => s.serviceRssMiB, "MiB"),
    compare("listener RSS", (s) => s.listenerRssMiB, "MiB"),
    compare("p99 of a minute", (s) => s.p99Ms, "ms"),
    compare("p50 of a minute", (s) => s.p50Ms, "ms"),
    compare("connections", (s) => s.connections, ""),
    "",
    `At the end: payments ${counts.map((c) => `${c.status} ${c.n}`).join(", ")}; deliveries ${deliveries.map((d) => `${d.state} ${d.n}`).join(", ")}; requests at the configured (loopback) address ${direct.requests()}, events at the listener's receiver ${forwarded.events.size} (${forwarded.requests()} requests); failed requests ${JSON.stringify(Object.fromEntries(errorKinds))}.`,
    "",
  ].join("\n");
}

runBenchmark(main);
