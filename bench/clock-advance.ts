// Clock advance at size: a merchant with N pending payments moves its sandbox clock 72 h ahead.
//
//   node scripts/build.mjs
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench_clock \
//     node --import tsx bench/clock-advance.ts [--sizes 10000,100000] [--max-wait 900] [--write]
//
// The database is recreated, migrated and seeded; the built service runs as `npm start` runs it
// (`node --max-old-space-size=256 server.mjs`, NODE_ENV=production, embedded job driver, defaults). For each size N,
// in turn: the merchant's clock is reset, N pending payments are inserted in bulk as copies of one made through the
// API (their amounts added to the limit counters as creates would), then `POST /v1/sandbox/clock/advance
// {"by":"72h"}` with an Idempotency-Key is timed to its answer, and the payments are polled every 250 ms until none
// of them is PENDING (at most --max-wait seconds). Then every one is checked: EXPIRED, exactly one payment.expired
// event each, no payment with two. The merchant has no callback address (deliveries NOT_CONFIGURED).
// --write replaces the "## Clock advance at size" section of docs/benchmarks.md.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { addCopiesToLimitCounters, benchDatabaseUrl, freshSeededDatabase, numberArg, pollUntilNonePending, runBenchmark, benchServiceEnv } from "./support";

const root = path.resolve(__dirname, "..");
const arg = process.argv.indexOf("--sizes");
const SIZES = (arg >= 0 ? (process.argv[arg + 1] ?? "") : "10000,100000").split(",").map(Number);
const MAX_WAIT_S = numberArg("max-wait", 900);
const DATABASE_URL = benchDatabaseUrl();
process.env.LOG_LEVEL ??= "warn";
const log = (s: string) => console.log(`[clock] ${new Date().toISOString().slice(11, 19)} ${s}`);

type Result = {
  n: number;
  status: number;
  answerMs: number;
  due: unknown;
  allExpiredMs: number | null;
  expired: number;
  pendingLeft: number;
  withoutEvent: number;
  withTwoEvents: number;
  insertMs: number;
};

async function main(): Promise<string> {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("no production build: run `node scripts/build.mjs` first");
  const loadBefore = os.loadavg();
  const seeded = await freshSeededDatabase(DATABASE_URL);
  const { freePort } = await import("../scripts/db.mjs");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const service = spawn(process.execPath, ["--max-old-space-size=256", "server.mjs"], {
    cwd: root,
    env: benchServiceEnv(port, DATABASE_URL),
    stdio: ["ignore", "ignore", "inherit"],
  });
  process.once("exit", () => service.kill("SIGTERM"));
  for (const deadline = Date.now() + 60_000; ;) {
    try {
      if ((await fetch(`${url}/v1/health-check-probe`)).status === 404) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("service did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  const post = async (p: string, body: unknown) => {
    const res = await fetch(url + p, {
      method: "POST",
      headers: { authorization: `Bearer ${seeded.keys.full}`, "content-type": "application/json", "idempotency-key": `clock-${randomUUID()}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();

  const results: Result[] = [];
  for (const n of SIZES) {
    const reset = await post("/v1/sandbox/clock/reset", {});
    if (reset.status !== 200) throw new Error(`reset: ${reset.status} ${JSON.stringify(reset.json)}`);
    const template = await post("/v1/payments", {
      reference: `template-${randomUUID()}`,
      amount: "112.35",
      currency: "USD",
      method: "GATEWAY",
      direction: "DEPOSIT",
    });
    if (template.status !== 201) throw new Error(`template: ${template.status} ${JSON.stringify(template.json)}`);
    const templateId = String(template.json.id);
    const batch = `size-${n}-${randomUUID().slice(0, 8)}`;
    const inserted = performance.now();
    await db.query("BEGIN");
    await db.query(
      `INSERT INTO payments
       SELECT (jsonb_populate_record(NULL::payments, to_jsonb(t) || jsonb_build_object('id', gen_random_uuid(), 'reference', $3 || '-' || i))).*
       FROM payments t, generate_series(1, $2::int) AS i WHERE t.id = $1`,
      [templateId, n - 1, batch],
    );
    await addCopiesToLimitCounters(db, templateId, n - 1);
    await db.query("UPDATE payments SET reference = $2 || '-0' WHERE id = $1", [templateId, batch]);
    await db.query("COMMIT");
    await db.query("ANALYZE payments");
    const insertMs = performance.now() - inserted;
    log(`${n} pending payments in place (${Math.round(insertMs)} ms); advancing 72h`);

    const sent = performance.now();
    const advanced = await post("/v1/sandbox/clock/advance", { by: "72h" });
    const answerMs = performance.now() - sent;
    log(`answer ${advanced.status} in ${Math.round(answerMs)} ms: due ${JSON.stringify(advanced.json.due)}`);
    const { ms: allExpiredMs, left: pendingLeft } = await pollUntilNonePending(db, batch, sent, MAX_WAIT_S);
    log(`all expired: ${allExpiredMs === null ? `no, ${pendingLeft} left after ${MAX_WAIT_S} s` : `${Math.round(allExpiredMs)} ms`}`);
    const check = (
      await db.query(
        `SELECT count(*) FILTER (WHERE p.status = 'EXPIRED')::int AS expired,
                count(*) FILTER (WHERE p.status = 'EXPIRED' AND coalesce(e.n, 0) = 0)::int AS without_event,
                count(*) FILTER (WHERE e.n > 1)::int AS with_two
         FROM payments p LEFT JOIN (SELECT payment_id, count(*) AS n FROM events WHERE type = 'payment.expired' GROUP BY payment_id) e ON e.payment_id = p.id
         WHERE p.reference LIKE $1 || '-%'`,
        [batch],
      )
    ).rows[0] as { expired: number; without_event: number; with_two: number };
    results.push({
      n,
      status: advanced.status,
      answerMs,
      due: advanced.json.due,
      allExpiredMs,
      expired: check.expired,
      pendingLeft,
      withoutEvent: check.without_event,
      withTwoEvents: check.with_two,
      insertMs,
    });
    log(JSON.stringify(results.at(-1)));
  }
  await db.end();
  service.kill("SIGTERM");
  const loadAfter = os.loadavg();

  const s = (ms: number | null) => (ms === null ? "not within the wait" : `${(ms / 1000).toFixed(1)} s`);
  const ten = results.find((r) => r.n === 10_000);
  return [
    "## Clock advance at size",
    "",
    `Command: \`node scripts/build.mjs && BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench_clock node --import tsx bench/clock-advance.ts --sizes ${SIZES.join(",")} --max-wait ${MAX_WAIT_S} --write\` (source: \`bench/clock-advance.ts\`).`,
    "",
    `Machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, shared with other work; Node ${process.version}; load average (1/5/15 min) ${loadBefore.map((l) => l.toFixed(1)).join(" / ")} before, ${loadAfter.map((l) => l.toFixed(1)).join(" / ")} after; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.`,
    "",
    'The built service as `npm start` runs it (NODE_ENV=production, embedded job driver, defaults: the move expires at most 100 payments itself and wakes the expiry sweep, batches of 50, JOBS_DB_POOL_MAX 2). N pending payments of the seeded merchant (bulk copies of one made through the API), then one `POST /v1/sandbox/clock/advance {"by":"72h"}`. "All expired" is from sending the advance to the first poll (every 250 ms) that finds none of the N pending.',
    "",
    "| N | answer | time to answer | `due` in the answer | all expired | EXPIRED | without a payment.expired event | with two or more |",
    "|---|---|---|---|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${r.n.toLocaleString("en-US")} | ${r.status} | ${(r.answerMs / 1000).toFixed(2)} s | \`${JSON.stringify(r.due)}\` | ${s(r.allExpiredMs)} | ${r.expired} | ${r.withoutEvent} | ${r.withTwoEvents} |`,
    ),
    "",
    ten
      ? `Targets for 10,000: 200 within 2 s ${ten.status === 200 && ten.answerMs <= 2000 ? "met" : "MISSED"}; all expired within a minute ${ten.allExpiredMs !== null && ten.allExpiredMs <= 60_000 ? "met" : "MISSED"}; each expired once with one event ${ten.withoutEvent === 0 && ten.withTwoEvents === 0 && ten.pendingLeft === 0 ? "met" : "MISSED"}.`
      : "",
    "",
  ].join("\n");
}

runBenchmark(main);
