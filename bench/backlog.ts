// Backlog and the API: create throughput and p99 with and without a backlog of due background work, side by
// side with the floor server in one run.
//
//   node scripts/build.mjs
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench_backlog \
//     node --import tsx bench/backlog.ts [--rounds 2] [--seconds 20] [--backlog 10000] [--cpu-prof-dir DIR] [--write]
//
// The database is recreated, migrated and seeded. The built service (`node --max-old-space-size=256 server.mjs`,
// embedded job driver with its defaults, DB_POOL_MAX 10 and JOBS_DB_POOL_MAX 2; NODE_ENV=test with
// CALLBACK_ALLOW_LOOPBACK=1, since production refuses a loopback callback address) and bench/floor-server.mjs.
// The merchant's callback address is a local receiver that answers after 100 to 600 ms and 500 to one request
// in ten. Each round runs, 32 connections of POST /v1/payments (distinct keys) for `seconds` each: the floor
// server; (a) the service with no backlog; (b) the service right after `backlog` pending payments of the same
// merchant have come due for expiry and `backlog` callback deliveries of it have come due. The backlog rows are
// copies of rows made through the API (a created payment, a completed payment's event and delivery), inserted in
// bulk; their amounts are added to the limit counters as a create would have. In (b) the load starts once the
// sweep has begun (the due count falls). While (b) runs, pg_stat_activity of the database is sampled every
// 100 ms (state and wait event of each backend, with its statement's first words). After each round the backlog
// drains for at most 240 s; what is left then (deliveries to the slow receiver) is ended as FAILED so that the next
// round's (a) runs without a backlog. --write replaces the
// "## Backlog and the API" section of docs/benchmarks.md.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import {
  addCopiesToLimitCounters,
  benchDatabaseUrl,
  freshSeededDatabase,
  numberArg,
  insertDueDeliveryCopies,
  runBenchmark,
  sampleBackends,
  startServiceBesideFloor,
} from "./support";

const root = path.resolve(__dirname, "..");
const ROUNDS = numberArg("rounds", 2);
const SECONDS = numberArg("seconds", 20);
const BACKLOG = numberArg("backlog", 10_000);
const CONNECTIONS = 32;
/** --cpu-prof-dir DIR: the service writes a V8 CPU profile there when it stops (node --cpu-prof). */
const CPU_PROF_DIR = process.argv.includes("--cpu-prof-dir") ? process.argv[process.argv.indexOf("--cpu-prof-dir") + 1] : undefined;
const DATABASE_URL = benchDatabaseUrl();
process.env.CALLBACK_ALLOW_LOOPBACK = "1";
process.env.LOG_LEVEL ??= "warn";
const log = (s: string) => console.log(`[backlog] ${new Date().toISOString().slice(11, 19)} ${s}`);

type Row = { round: number; name: string; rps: number; p50: number; p99: number; max: number; non2xx: number; dueBefore?: Due; dueAfter?: Due };
type Due = { payments: number; deliveries: number };

/** A receiver that answers slowly (100 to 600 ms) and fails one request in ten with 500. */
async function slowReceiver() {
  let requests = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const n = ++requests;
      setTimeout(
        () => res.writeHead(n % 10 === 0 ? 500 : 200, { "content-type": "application/json" }).end('{"received":true}'),
        100 + Math.floor(Math.random() * 500),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, requests: () => requests, close: () => server.close() };
}

async function main(): Promise<string> {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("no production build: run `node scripts/build.mjs` first");
  const loadBefore = os.loadavg();
  const seeded = await freshSeededDatabase(DATABASE_URL);
  const { getDb } = await import("@/lib/platform/db");
  const { setCallbackUrl } = await import("@/lib/domain/callbacks/callback-config");
  const receiver = await slowReceiver();
  await setCallbackUrl(getDb(), { merchantId: seeded.merchantId, url: receiver.url });
  await getDb().$disconnect();

  const { service, floor, bases } = await startServiceBesideFloor(DATABASE_URL, seeded.merchantId, CPU_PROF_DIR);

  const auth = { authorization: `Bearer ${seeded.keys.full}`, "content-type": "application/json" };
  const body = (reference: string) => JSON.stringify({ reference, amount: "112.35", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" });
  const post = async (p: string, payload: string) => {
    const res = await fetch(bases.service + p, { method: "POST", headers: { ...auth, "idempotency-key": `t-${randomUUID()}` }, body: payload });
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  // Templates made through the API: a pending payment, and a completed payment's event and delivery.
  const pendingTemplate = await post("/v1/payments", body(`template-${randomUUID()}`));
  const completed = await post("/v1/payments", body(`template-${randomUUID()}`));
  await post(`/v1/sandbox/payments/${completed.id}/complete`, JSON.stringify({ outcome: "SUCCEEDED" }));

  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  const due = async (): Promise<Due> => {
    const r = (
      await db.query(
        `SELECT (SELECT count(*)::int FROM payments WHERE merchant_id = $1 AND status = 'PENDING' AND expires_at <= now()) AS payments,
                (SELECT count(*)::int FROM deliveries WHERE merchant_id = $1 AND state = 'PENDING' AND next_attempt_at <= now()) AS deliveries`,
        [seeded.merchantId],
      )
    ).rows[0] as Due;
    return r;
  };
  let templateDelivery: string | undefined;
  for (let i = 0; i < 100 && !templateDelivery; i++) {
    templateDelivery = (await db.query(`SELECT d.id FROM deliveries d JOIN events e ON e.id = d.event_id WHERE e.payment_id = $1`, [completed.id])).rows[0]
      ?.id as string | undefined;
    if (!templateDelivery) await new Promise((r) => setTimeout(r, 100));
  }
  if (!templateDelivery) throw new Error("the template payment's delivery did not appear");

  /** Inserts the backlog: BACKLOG due expiries and BACKLOG due deliveries, copies of the templates. */
  const seedBacklog = async () => {
    await db.query("BEGIN");
    await db.query(
      `INSERT INTO payments
       SELECT (jsonb_populate_record(NULL::payments, to_jsonb(t) || jsonb_build_object(
                 'id', gen_random_uuid(), 'reference', 'backlog-' || gen_random_uuid(), 'expires_at', now() - interval '1 second'))).*
       FROM payments t, generate_series(1, $2::int) WHERE t.id = $1`,
      [pendingTemplate.id, BACKLOG],
    );
    await addCopiesToLimitCounters(db, pendingTemplate.id, BACKLOG);
    await insertDueDeliveryCopies(db, templateDelivery!, BACKLOG);
    await db.query("COMMIT");
  };

  const fresh = (headers: Record<string, string>) => (req: autocannon.Request) => {
    const id = randomUUID();
    return { ...req, headers: { ...headers, "idempotency-key": `bench-${id}` }, body: body(`bench-${id}`) };
  };
  const load = async (base: string, path_: string, headers: Record<string, string>, duration: number) => {
    const r = await autocannon({ url: base, connections: CONNECTIONS, duration, requests: [{ method: "POST", path: path_, setupRequest: fresh(headers) }] });
    return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, non2xx: r.non2xx + r.errors + r.timeouts };
  };

  // Profile of (b): every 100 ms, what each backend of the database is doing.
  const waits = new Map<string, number>();
  let profileSamples = 0;
  const sampler = new pg.Client({ connectionString: DATABASE_URL });
  await sampler.connect();

  log("warm-up");
  await load(bases.floor, "/payments", { "content-type": "application/json" }, 3);
  await load(bases.service, "/v1/payments", auth, 5);
  const rows: Row[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    rows.push({ round, name: "floor server: create", ...(await load(bases.floor, "/payments", { "content-type": "application/json" }, SECONDS)) });
    log(JSON.stringify(rows.at(-1)));
    const before = await due();
    rows.push({
      round,
      name: "(a) service: create, no backlog",
      ...(await load(bases.service, "/v1/payments", auth, SECONDS)),
      dueBefore: before,
      dueAfter: await due(),
    });
    log(JSON.stringify(rows.at(-1)));
    await seedBacklog();
    const seededDue = await due();
    log(`backlog seeded: ${JSON.stringify(seededDue)}; waiting for the sweep to start`);
    const deadline = Date.now() + 45_000;
    while ((await due()).payments >= seededDue.payments && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const dueBefore = await due();
    const sampling = sampleBackends(sampler, waits);
    const result = await load(bases.service, "/v1/payments", auth, SECONDS);
    profileSamples += await sampling.stop();
    rows.push({ round, name: "(b) service: create, with the backlog", ...result, dueBefore, dueAfter: await due() });
    log(JSON.stringify(rows.at(-1)));
    // Let the backlog drain before the next round (bounded).
    const drain = Date.now() + 240_000;
    while (Date.now() < drain) {
      const d = await due();
      if (d.payments === 0 && d.deliveries === 0) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const left = await due();
    // What the drain left (deliveries to the slow receiver, retries) is set aside, so the next round's (a) runs
    // without a backlog: the merchant's pending deliveries are ended as FAILED.
    await db.query(`UPDATE deliveries SET state = 'FAILED', lease_until = NULL, next_attempt_at = NULL WHERE merchant_id = $1 AND state = 'PENDING'`, [
      seeded.merchantId,
    ]);
    log(`after the round: due ${JSON.stringify(left)} (set aside)`);
  }
  await sampler.end();
  await db.end();
  const serviceExited = new Promise((ok) => service.once("exit", ok));
  service.kill("SIGTERM");
  floor.kill("SIGTERM");
  await serviceExited;
  receiver.close();
  const loadAfter = os.loadavg();

  const ratio = (round: number) => {
    const a = rows.find((r) => r.round === round && r.name.startsWith("(a)"))!;
    const b = rows.find((r) => r.round === round && r.name.startsWith("(b)"))!;
    return b.rps / a.rps;
  };
  const ratios = Array.from({ length: ROUNDS }, (_, i) => ratio(i + 1));
  const topWaits = [...waits.entries()].sort((x, y) => y[1] - x[1]).slice(0, 15);
  const dueText = (d?: Due) => (d ? `${d.payments} / ${d.deliveries}` : "-");
  return [
    "## Backlog and the API",
    "",
    `Command: \`node scripts/build.mjs && BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench_backlog node --import tsx bench/backlog.ts --rounds ${ROUNDS} --seconds ${SECONDS} --backlog ${BACKLOG} --write\` (source: \`bench/backlog.ts\`).`,
    "",
    `Machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, shared with other work; Node ${process.version}; load average (1/5/15 min) ${loadBefore.map((l) => l.toFixed(1)).join(" / ")} before, ${loadAfter.map((l) => l.toFixed(1)).join(" / ")} after; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.`,
    "",
    `The built service (embedded job driver, defaults: expiry sweep every 30 s in batches of 50, delivery poll every 1 s, DB_POOL_MAX 10, JOBS_DB_POOL_MAX 2) and the floor server, ${CONNECTIONS} connections of creates for ${SECONDS} s per row, ${ROUNDS} rounds in the order floor, (a), (b). (b) starts once the sweep has begun on ${BACKLOG.toLocaleString("en-US")} due expiries and ${BACKLOG.toLocaleString("en-US")} due deliveries of the same merchant (receiver: 100 to 600 ms, one in ten answered 500). "Due" is the count of due expiries / due deliveries at the start and end of the row.`,
    "",
    "| round | row | requests/s | p50 | p99 | max | non-2xx or errors | due at start | due at end |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.round} | ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} ms | ${r.p99} ms | ${r.max} ms | ${r.non2xx} | ${dueText(r.dueBefore)} | ${dueText(r.dueAfter)} |`,
    ),
    "",
    `With the backlog, creates ran at ${ratios.map((x) => `${(x * 100).toFixed(0)}%`).join(" and ")} of their rate without it (goal: at least 80%): ${ratios.every((x) => x >= 0.8) ? "met" : "MISSED"}.`,
    "",
    `Database backends during (b), sampled every 100 ms (${profileSamples} samples; count = samples in which a backend was in that state):`,
    "",
    "| state, wait event, statement | count |",
    "|---|---|",
    ...topWaits.map(([k, n]) => `| ${k.replace(/\|/g, "\\|").replace(/ \\\| /g, " / ")} | ${n} |`),
    "",
  ].join("\n");
}

runBenchmark(main);
