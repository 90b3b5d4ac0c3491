// The expiry sweep and the API: creates of one merchant at 32 connections while a 72 h sandbox clock advance expires
// N of its pending payments, with the merchant's callbacks received, then with a backlog of due callbacks to an
// address that refuses connections.
//
//   node scripts/build.mjs
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench_sweep \
//     node --import tsx bench/sweep.ts [--pending 15000] [--refused 50000] [--before 10] [--max-wait 120] \
//       [--phases=A,B] [--cpu-prof-dir DIR] [--write]
//
// Each phase runs on a database of its own, recreated, migrated and seeded (so one phase's payments and callbacks
// are not the next one's work), with a service of its own. The built service (`node --max-old-space-size=256 server.mjs`,
// embedded job driver with its defaults; NODE_ENV=test with CALLBACK_ALLOW_LOOPBACK=1, since production refuses a
// loopback callback address) and bench/floor-server.mjs (5 s of creates first, for reference). Two phases:
// (A) receiving: the merchant's callback address is a local receiver that answers 200 at once;
// (B) refusing: its address is a loopback port nothing listens on (connections refused), and `--refused` due
//     deliveries are pending to it (copies of a completed payment's event and delivery, inserted in bulk).
// In each phase `--pending` pending payments of the merchant (bulk copies of one made through the API, their
// amounts added to the limit counters as creates would, expiring an hour before the merchant's other pending
// payments, so that the sweep, oldest first, takes them first) are in place; 32 connections of POST /v1/payments (distinct
// keys) run for `--before` seconds, then, with the load still running, `POST /v1/sandbox/clock/advance {"by":"72h"}`
// is sent, and the N payments are polled every 250 ms until none is PENDING ("sweep": from sending the advance to
// that poll, at most --max-wait s). The load stops there. "Before" is the creates answered in the `--before` s just
// before the advance was sent, "during" those answered within the sweep; each request counts at its answer's time.
// Then every payment is checked: EXPIRED, exactly one payment.expired event and one delivery each. While the sweep
// runs pg_stat_activity is sampled every 100 ms, and the service's event-loop delay (GET /metrics, prom-client's
// nodejs_eventloop_lag_*) is logged for the "before" window and for the sweep. --write replaces the "## Sweep and the
// API" section of docs/benchmarks.md.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import {
  addCopiesToLimitCounters,
  benchDatabaseUrl,
  eventLoopLag,
  freshSeededDatabase,
  insertDueDeliveryCopies,
  numberArg,
  percentile,
  pollUntilNonePending,
  runBenchmark,
  sampleBackends,
  startServiceBesideFloor,
} from "./support";

const root = path.resolve(__dirname, "..");
const PENDING = numberArg("pending", 15_000);
const REFUSED = numberArg("refused", 50_000);
const BEFORE_S = numberArg("before", 10);
const MAX_WAIT_S = numberArg("max-wait", 120);
const CONNECTIONS = 32;
/** --statements-only: skip the two phases, run only the statement count (after one pending payment and one delivery are made through the API). */
const STATEMENTS_ONLY = process.argv.includes("--statements-only");
/** --phases A,B (the default): which phases run, each on a fresh database. */
const PHASES = (["(A) receiving", "(B) refusing"] as const).filter((name) =>
  (process.argv.find((a) => a.startsWith("--phases="))?.split("=")[1] ?? "A,B").split(",").includes(name.charAt(1)),
);
/** --cpu-prof-dir DIR: the service writes a V8 CPU profile there when it stops (node --cpu-prof). */
const CPU_PROF_DIR = process.argv.includes("--cpu-prof-dir") ? process.argv[process.argv.indexOf("--cpu-prof-dir") + 1] : undefined;
const DATABASE_URL = benchDatabaseUrl();
process.env.CALLBACK_ALLOW_LOOPBACK = "1";
process.env.LOG_LEVEL ??= "warn";
const log = (s: string) => console.log(`[sweep] ${new Date().toISOString().slice(11, 19)} ${s}`);

/** The callback receiver of phase (A): answers 200 at once, counts what it received (GET /count), prints its port. */
const RECEIVER_SOURCE = `
const http = require("node:http");
let received = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.url === "/count") return res.end(String(received));
    received++;
    res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
  });
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

/** Creates answered in a window: rate, latency percentiles, non-2xx. */
type Window = { count: number; seconds: number; rps: number; p50: number; p99: number; non2xx: number };
type Phase = {
  name: string;
  before: Window;
  during: Window;
  advanceStatus: number;
  advanceMs: number;
  sweepMs: number | null;
  pendingLeft: number;
  expired: number;
  withoutOne: number;
  deliveriesDueBefore: number;
  deliveriesDueAfter: number;
  attemptsDuring: number;
  waits: [string, number][];
  samples: number;
};

/** The answers of a window [from, to) (performance.now() times). */
function window(answers: { at: number; ms: number; ok: boolean }[], from: number, to: number): Window {
  const inside = answers.filter((a) => a.at >= from && a.at < to);
  const sorted = inside.map((a) => a.ms).sort((x, y) => x - y);
  const seconds = (to - from) / 1000;
  return {
    count: inside.length,
    seconds,
    rps: inside.length / seconds,
    p50: sorted.length ? percentile(sorted, 50) : 0,
    p99: sorted.length ? percentile(sorted, 99) : 0,
    non2xx: inside.filter((a) => !a.ok).length,
  };
}

async function main(): Promise<string> {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("no production build: run `node scripts/build.mjs` first");
  const loadBefore = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" / ");
  const { getDb } = await import("@/lib/platform/db");
  const { setCallbackUrl } = await import("@/lib/domain/callbacks/callback-config");
  const { freePort } = await import("../scripts/db.mjs");
  // (A)'s receiver runs in a process of its own, as a merchant's server would: inside this process it would answer only
  // when autocannon's load generation let its event loop, and its slowness would be counted as the service's.
  const receiver = spawn(process.execPath, ["-e", RECEIVER_SOURCE], { stdio: ["ignore", "pipe", "inherit"] });
  process.once("exit", () => receiver.kill("SIGTERM"));
  const receiverPort = await new Promise<number>((ok) => receiver.stdout?.once("data", (d: Buffer) => ok(Number(String(d).trim()))));
  const receiverUrl = `http://127.0.0.1:${receiverPort}/hook`;
  const refusingUrl = `http://127.0.0.1:${await freePort()}/hook`; // nothing listens there

  // Each phase on a database of its own, so that one phase's payments and callbacks are not the next one's work.
  let seeded!: Awaited<ReturnType<typeof freshSeededDatabase>>;
  let running!: Awaited<ReturnType<typeof startServiceBesideFloor>>;
  let db: pg.Client | null = null;
  const begin = async () => {
    if (db) await db.end();
    await getDb().$disconnect();
    seeded = await freshSeededDatabase(DATABASE_URL);
    await setCallbackUrl(getDb(), { merchantId: seeded.merchantId, url: receiverUrl });
    running = await startServiceBesideFloor(DATABASE_URL, seeded.merchantId, CPU_PROF_DIR);
    db = new pg.Client({ connectionString: DATABASE_URL });
    await db.connect();
    return db;
  };
  const stopService = async () => {
    const serviceExited = new Promise((ok) => running.service.once("exit", ok));
    running.service.kill("SIGTERM");
    running.floor.kill("SIGTERM");
    await serviceExited;
  };

  const auth = () => ({ authorization: `Bearer ${seeded.keys.full}`, "content-type": "application/json" });
  const body = (reference: string) => JSON.stringify({ reference, amount: "112.35", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" });
  const post = async (p: string, payload: string) => {
    const res = await fetch(running.bases.service + p, { method: "POST", headers: { ...auth(), "idempotency-key": `t-${randomUUID()}` }, body: payload });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const phaseDb = () => {
    if (!db) throw new Error("no phase database");
    return db;
  };
  const query = (text: string, values?: unknown[]) => phaseDb().query(text, values);
  const dueDeliveries = async () =>
    Number(
      (await query(`SELECT count(*)::int AS n FROM deliveries WHERE merchant_id = $1 AND state = 'PENDING' AND next_attempt_at <= now()`, [seeded.merchantId]))
        .rows[0].n,
    );
  const attempts = async () => Number((await query(`SELECT count(*)::int AS n FROM delivery_attempts`)).rows[0].n);

  const fresh = (headers: Record<string, string>) => (req: autocannon.Request) => {
    const id = randomUUID();
    return { ...req, headers: { ...headers, "idempotency-key": `bench-${id}` }, body: body(`bench-${id}`) };
  };
  const run = (base: string, path_: string, headers: Record<string, string>, duration: number) => {
    const answers: { at: number; ms: number; ok: boolean }[] = [];
    let finished!: () => void;
    const done = new Promise<void>((ok) => (finished = ok));
    const instance = autocannon(
      { url: base, connections: CONNECTIONS, duration, requests: [{ method: "POST", path: path_, setupRequest: fresh(headers) }] },
      () => finished(),
    );
    instance.on("response", (_c: unknown, status: number, _b: unknown, ms: number) => answers.push({ at: performance.now(), ms, ok: status < 300 }));
    return { instance, answers, done };
  };

  log("warm-up and floor");
  await begin();
  const floorRun = run(running.bases.floor, "/payments", { "content-type": "application/json" }, STATEMENTS_ONLY ? 1 : 5);
  const floorStarted = performance.now();
  await floorRun.done;
  const floorWindow = window(floorRun.answers, floorStarted, performance.now());

  const phases: Phase[] = [];
  if (STATEMENTS_ONLY) {
    await setCallbackUrl(getDb(), { merchantId: seeded.merchantId, url: refusingUrl });
    const completed = await post("/v1/payments", body(`template-${randomUUID()}`));
    await post(`/v1/sandbox/payments/${String(completed.json.id)}/complete`, JSON.stringify({ outcome: "SUCCEEDED" }));
    await post("/v1/payments", body(`template-${randomUUID()}`));
  }
  for (const name of STATEMENTS_ONLY ? [] : PHASES) {
    if (phases.length > 0) {
      await stopService();
      await begin();
    }
    const db = phaseDb();
    await run(running.bases.service, "/v1/payments", auth(), 5).done; // warm-up
    if (name.startsWith("(B)")) {
      await setCallbackUrl(getDb(), { merchantId: seeded.merchantId, url: refusingUrl });
      // A completed payment's event and delivery, copied REFUSED times as due deliveries to the refusing address.
      const completed = await post("/v1/payments", body(`template-${randomUUID()}`));
      await post(`/v1/sandbox/payments/${String(completed.json.id)}/complete`, JSON.stringify({ outcome: "SUCCEEDED" }));
      const template = (await db.query(`SELECT d.id FROM deliveries d JOIN events e ON e.id = d.event_id WHERE e.payment_id = $1`, [completed.json.id])).rows[0]
        ?.id as string;
      // In transactions of 1,000: each new event takes its feed position at COMMIT, one row at a time.
      for (let done = 0; done < REFUSED; done += 1_000) {
        await db.query("BEGIN");
        await insertDueDeliveryCopies(db, template, Math.min(1_000, REFUSED - done));
        await db.query("COMMIT");
      }
    }
    const template = await post("/v1/payments", body(`template-${randomUUID()}`));
    if (template.status !== 201) throw new Error(`template: ${template.status} ${JSON.stringify(template.json)}`);
    const batch = `sweep-${randomUUID().slice(0, 8)}`;
    await db.query("BEGIN");
    await db.query(
      `INSERT INTO payments
       SELECT (jsonb_populate_record(NULL::payments, to_jsonb(t) || jsonb_build_object('id', gen_random_uuid(), 'reference', $3 || '-' || i,
                 'expires_at', to_jsonb(t.expires_at - interval '1 hour')))).*
       FROM payments t, generate_series(1, $2::int) AS i WHERE t.id = $1`,
      [template.json.id, PENDING - 1, batch],
    );
    await addCopiesToLimitCounters(db, String(template.json.id), PENDING - 1);
    await db.query("UPDATE payments SET reference = $2 || '-0', expires_at = expires_at - interval '1 hour' WHERE id = $1", [template.json.id, batch]);
    await db.query("COMMIT");
    await db.query("ANALYZE payments");
    await db.query("ANALYZE deliveries");
    const deliveriesDueBefore = await dueDeliveries();
    log(`${name}: ${PENDING} pending payments in place, ${deliveriesDueBefore} deliveries due; load for ${BEFORE_S} s, then the advance`);

    const load = run(running.bases.service, "/v1/payments", auth(), BEFORE_S + MAX_WAIT_S + 5);
    const loadStarted = performance.now();
    await eventLoopLag(running.bases.service);
    await new Promise((r) => setTimeout(r, BEFORE_S * 1000));
    const lagBefore = await eventLoopLag(running.bases.service);
    const attemptsBefore = await attempts();
    const sent = performance.now();
    const advanced = await post("/v1/sandbox/clock/advance", JSON.stringify({ by: "72h" }));
    const advanceMs = performance.now() - sent;
    log(`${name}: advance ${advanced.status} in ${Math.round(advanceMs)} ms: ${JSON.stringify(advanced.json.due)}`);

    // pg_stat_activity every 100 ms while the sweep runs.
    const waits = new Map<string, number>();
    const sampler = new pg.Client({ connectionString: DATABASE_URL });
    await sampler.connect();
    const sampling = sampleBackends(sampler, waits);

    const { ms: sweepMs, left: pendingLeft } = await pollUntilNonePending(db, batch, sent, MAX_WAIT_S);
    const ended = performance.now();
    const lagDuring = await eventLoopLag(running.bases.service);
    log(
      `${name}: event-loop delay p50/p99/max before ${[lagBefore.p50, lagBefore.p99, lagBefore.max].map((v) => v.toFixed(1)).join("/")} ms, during ${[lagDuring.p50, lagDuring.p99, lagDuring.max].map((v) => v.toFixed(1)).join("/")} ms`,
    );
    const samples = await sampling.stop();
    await sampler.end();
    load.instance.stop();
    await load.done;
    const attemptsDuring = (await attempts()) - attemptsBefore;
    const deliveriesDueAfter = await dueDeliveries();
    log(`${name}: sweep ${sweepMs === null ? `not done, ${pendingLeft} left` : `${Math.round(sweepMs)} ms`}`);
    const check = (
      await db.query(
        `SELECT count(*) FILTER (WHERE p.status = 'EXPIRED')::int AS expired,
                count(*) FILTER (WHERE p.status <> 'EXPIRED' OR coalesce(e.events, 0) <> 1 OR coalesce(e.deliveries, 0) <> 1)::int AS without_one
         FROM payments p LEFT JOIN (
           SELECT ev.payment_id, count(DISTINCT ev.id) AS events, count(d.id) AS deliveries
           FROM events ev LEFT JOIN deliveries d ON d.event_id = ev.id WHERE ev.type = 'payment.expired' GROUP BY ev.payment_id
         ) e ON e.payment_id = p.id
         WHERE p.reference LIKE $1 || '-%'`,
        [batch],
      )
    ).rows[0] as { expired: number; without_one: number };
    phases.push({
      name,
      before: window(load.answers, sent - BEFORE_S * 1000 + 1000, sent),
      during: window(load.answers, sent, ended),
      advanceStatus: advanced.status,
      advanceMs,
      sweepMs,
      pendingLeft,
      expired: check.expired,
      withoutOne: check.without_one,
      deliveriesDueBefore,
      deliveriesDueAfter,
      attemptsDuring,
      waits: [...waits.entries()].sort((x, y) => y[1] - x[1]).slice(0, 12),
      samples,
    });
    void loadStarted;
    log(JSON.stringify({ ...phases.at(-1), waits: undefined }));
  }
  await stopService();
  const received = Number(await (await fetch(`http://127.0.0.1:${receiverPort}/count`)).text());
  receiver.kill("SIGTERM");
  const statements = await statementProfile(phaseDb(), seeded.merchantId);
  await phaseDb().end();
  await getDb().$disconnect();
  const loadAfter = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" / ");

  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const verdict = (p: Phase) => {
    const rate = p.during.rps / p.before.rps;
    const p99 = p.during.p99 / p.before.p99;
    const ok = rate >= 0.8 && p99 <= 1.5 && p.sweepMs !== null && p.sweepMs <= 60_000 && p.withoutOne === 0;
    return `${p.name}: creates at ${pct(rate)} of their rate just before (goal at least 80%), p99 ${p99.toFixed(2)}x (goal at most 1.5x), sweep ${p.sweepMs === null ? "not done" : `${(p.sweepMs / 1000).toFixed(1)} s`} (goal within 60 s), every payment EXPIRED with one event and one delivery: ${p.withoutOne === 0 && p.expired === PENDING ? "yes" : `NO (${p.withoutOne} not)`}: ${ok ? "met" : "MISSED"}.`;
  };
  const cell = (w: Window) => `${w.rps.toFixed(0)} | ${Math.round(w.p50)} ms | ${Math.round(w.p99)} ms | ${w.non2xx}`;
  return [
    "## Sweep and the API",
    "",
    `Command: \`node scripts/build.mjs && BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench_sweep node --import tsx bench/sweep.ts --pending ${PENDING} --refused ${REFUSED} --before ${BEFORE_S} --max-wait ${MAX_WAIT_S} --write\` (source: \`bench/sweep.ts\`).`,
    "",
    `Machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, shared with other work; Node ${process.version}; load average (1/5/15 min) ${loadBefore} before, ${loadAfter} after; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.`,
    "",
    `The built service (embedded job driver, its defaults) and the floor server (5 s of creates: ${floorWindow.rps.toFixed(0)} req/s, p99 ${Math.round(floorWindow.p99)} ms). ${PENDING.toLocaleString("en-US")} pending payments of the seeded merchant, ${CONNECTIONS} connections of its creates; after ${BEFORE_S} s a 72 h clock advance; "before" is the ${BEFORE_S - 1} s just before it, "during" the sweep (from the advance to the first poll that finds none of the ${PENDING.toLocaleString("en-US")} pending). (A): callbacks to a receiver that answers 200 at once. (B): callbacks to a loopback port that refuses connections, with ${REFUSED.toLocaleString("en-US")} due deliveries there before the load starts.`,
    "",
    "| phase | advance answer | sweep | before: req/s | p50 | p99 | non-2xx | during: req/s | p50 | p99 | non-2xx | deliveries due at start / end | attempts during |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...phases.map(
      (p) =>
        `| ${p.name} | ${p.advanceStatus} in ${(p.advanceMs / 1000).toFixed(2)} s | ${p.sweepMs === null ? `not done (${p.pendingLeft} left)` : `${(p.sweepMs / 1000).toFixed(1)} s`} | ${cell(p.before)} | ${cell(p.during)} | ${p.deliveriesDueBefore} / ${p.deliveriesDueAfter} | ${p.attemptsDuring} |`,
    ),
    "",
    ...phases.map((p) => `- ${verdict(p)}`),
    "",
    ...phases.flatMap((p) => [
      `Database backends during the sweep of ${p.name}, sampled every 100 ms (${p.samples} samples):`,
      "",
      "| state, wait event, statement | count |",
      "|---|---|",
      ...p.waits.map(([k, n]) => `| ${k.replace(/\|/g, "\\|").replace(/ \\\| /g, " / ")} | ${n} |`),
      "",
    ]),
    `Callbacks received by (A)'s receiver: ${received}.`,
    "",
    `Statements per batch, counted in this process after the service stopped (${STATEMENT_PROFILE_N.toLocaleString("en-US")} due payments expired by \`expireDuePayments\`, then ${STATEMENT_PROFILE_N.toLocaleString("en-US")} due deliveries to the refusing address by \`deliverDueCallbacks\`; time is from sending a statement to its answer, on an otherwise idle service):`,
    "",
    "| work | statements | per item | ms per item (wall) | statement time per item | by kind (count, ms) |",
    "|---|---|---|---|---|---|",
    ...statements.map(
      (s) =>
        `| ${s.work} | ${s.statements} | ${(s.statements / s.items).toFixed(2)} | ${(s.wallMs / s.items).toFixed(2)} | ${(s.statementMs / s.items).toFixed(2)} | ${s.kinds.map(([k, n, ms]) => `${k} ${n}, ${ms.toFixed(0)}`).join("; ")} |`,
    ),
    "",
  ].join("\n");
}

/** Items of each kind the statement profile runs. */
const STATEMENT_PROFILE_N = 2_000;
type StatementProfile = { work: string; items: number; statements: number; wallMs: number; statementMs: number; kinds: [string, number, number][] };

/**
 * Counts the statements (and their time from send to answer) the expiry sweep and the delivery catch-up send, run in
 * this process as background work: STATEMENT_PROFILE_N due payments of the merchant (copies of its latest pending
 * one, due now), then as many due deliveries (copies of its latest delivery) to its current address.
 */
async function statementProfile(db: pg.Client, merchantId: string): Promise<StatementProfile[]> {
  const { runAsBackgroundWork } = await import("@/lib/platform/db");
  const { expireDuePayments } = await import("@/lib/domain/payments/expire");
  const { deliverDueCallbacks } = await import("@/lib/domain/callbacks/deliver");
  const template = (await db.query(`SELECT id FROM payments WHERE merchant_id = $1 AND status = 'PENDING' ORDER BY created_at DESC LIMIT 1`, [merchantId]))
    .rows[0]?.id as string;
  await db.query(
    `INSERT INTO payments
     SELECT (jsonb_populate_record(NULL::payments, to_jsonb(t) || jsonb_build_object('id', gen_random_uuid(), 'reference', 'profile-' || i, 'expires_at', now() - interval '1 second', 'clock_offset_ms', 0))).*
     FROM payments t, generate_series(1, $2::int) AS i WHERE t.id = $1`,
    [template, STATEMENT_PROFILE_N],
  );
  await db.query(`UPDATE merchants SET clock_offset_ms = 0 WHERE id = $1`, [merchantId]);
  await db.query(
    `INSERT INTO deliveries
     SELECT (jsonb_populate_record(NULL::deliveries, to_jsonb(d) || jsonb_build_object('id', gen_random_uuid(), 'state', 'PENDING', 'attempt_count', 0,
               'next_attempt_at', now() + interval '1 hour', 'lease_until', NULL, 'delivered_at', NULL, 'last_error', NULL))).*
     FROM (SELECT * FROM deliveries WHERE merchant_id = $1 ORDER BY created_at DESC LIMIT 1) d, generate_series(1, $2::int)`,
    [merchantId, STATEMENT_PROFILE_N],
  );
  // Only the copies are due for the delivery part: everything else of the merchant's is set aside.
  await db.query(`UPDATE deliveries SET state = 'FAILED', next_attempt_at = NULL WHERE merchant_id = $1 AND state = 'PENDING' AND next_attempt_at <= now()`, [
    merchantId,
  ]);
  const sent: { text: string; ms: number }[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === "string" ? first : (first?.text ?? "");
    const started = performance.now();
    const result = (original as (...a: unknown[]) => unknown).apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === "function")
      void (result as Promise<unknown>).then(
        () => sent.push({ text, ms: performance.now() - started }),
        () => sent.push({ text, ms: performance.now() - started }),
      );
    return result;
  } as typeof original;
  const measure = async (work: string, items: number, run: () => Promise<unknown>): Promise<StatementProfile> => {
    sent.length = 0;
    const started = performance.now();
    await runAsBackgroundWork(run);
    const wallMs = performance.now() - started;
    const kinds = new Map<string, [number, number]>();
    for (const s of sent) {
      const kind = s.text
        .replace(/\s+/g, " ")
        .trim()
        .split(" ")
        .slice(0, 3)
        .join(" ")
        .replace(/"public"\./g, "")
        .slice(0, 40);
      const k = kinds.get(kind) ?? [0, 0];
      kinds.set(kind, [k[0] + 1, k[1] + s.ms]);
    }
    return {
      work,
      items,
      statements: sent.length,
      wallMs,
      statementMs: sent.reduce((a, s) => a + s.ms, 0),
      kinds: [...kinds.entries()].map(([k, [n, ms]]) => [k, n, ms] as [string, number, number]).sort((x, y) => y[2] - x[2]),
    };
  };
  const expired = await measure("expiry sweep", STATEMENT_PROFILE_N, () => expireDuePayments({ merchantId }));
  await db.query(`UPDATE deliveries SET next_attempt_at = now() - interval '1 second' WHERE merchant_id = $1 AND state = 'PENDING'`, [merchantId]);
  const due = Number((await db.query(`SELECT count(*)::int AS n FROM deliveries WHERE merchant_id = $1 AND state = 'PENDING'`, [merchantId])).rows[0].n);
  const delivered = await measure("deliveries to the refusing address", due, () => deliverDueCallbacks({ merchantId }));
  pg.Client.prototype.query = original;
  return [expired, delivered];
}

runBenchmark(main);
