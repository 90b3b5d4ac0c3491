// Stopping under load (docs/operating.md "Stopping"): SIGTERM to an instance under create load on kept-alive
// connections, five times per setting.
//
//   node scripts/build.mjs
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench node --import tsx bench/drain.ts [--stops 5] [--clients 32] [--delays 0,2000] [--write]
//
// Two instances of the built service (`node server.mjs`) on one fresh seeded database, as behind a load balancer. For
// each stop a new first instance is started; `clients` clients create payments on it over as many kept-alive
// connections (a node:http Agent); after 4 s it gets SIGTERM. A client that gets no answer there, or a 5xx, retries
// the same Idempotency-Key and body on the second (scripts/harness/drain-load.ts, shared with the suite's
// test/integration/drain.test.ts). Counted per stop: resets (a request sent on a connection that closed without an
// answer), 5xx, answers cut mid-way, refused connections (retried: nothing was sent), and payments against keys.
// --write replaces the "## Stopping under load" section of docs/benchmarks.md (other sections are kept).
import http from "node:http";
import os from "node:os";
import { randomUUID } from "node:crypto";
import { startService, stopService, type StartedService } from "../scripts/harness/service";
import { createsUntilStopped } from "../scripts/harness/drain-load";
import { benchDatabaseUrl, freshSeededDatabase, numberArg, writeBenchmarkSection } from "./support";

const STOPS = numberArg("stops", 5);
const CLIENTS = numberArg("clients", 32);
const delaysArg = process.argv.indexOf("--delays");
const DELAYS = (delaysArg >= 0 ? (process.argv[delaysArg + 1] ?? "") : "0,2000").split(",").map(Number);
const DATABASE_URL = benchDatabaseUrl();
process.env.LOG_LEVEL ??= "warn";

type Row = { delay: number; stop: number; figures: Record<string, number>; payments: number; stoppedLine: string };

async function main() {
  const loadAtStart = os.loadavg();
  const seeded = await freshSeededDatabase(DATABASE_URL);
  const { getDb } = await import("@/lib/platform/db");
  const db = getDb();
  const env = { DATABASE_URL, LOG_LEVEL: "warn", RATE_LIMIT_PER_KEY: "100000000", RATE_LIMIT_PER_IP: "100000000" };
  const second = await startService(env);
  const rows: Row[] = [];
  try {
    for (const delay of DELAYS) {
      for (let stop = 1; stop <= STOPS; stop++) {
        const first: StartedService = await startService({ ...env, SHUTDOWN_DELAY_MS: String(delay) }, { capture: true });
        const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
        const prefix = `drain-${randomUUID().slice(0, 8)}-`;
        try {
          const run = await createsUntilStopped({
            clients: CLIENTS,
            agent,
            first: first.url,
            second: second.url,
            headers: { authorization: `Bearer ${seeded.keys.full}` },
            body: () => ({ reference: `${prefix}${randomUUID()}`, amount: "100.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" }),
            key: () => randomUUID(),
            stop: () => {
              const exited = new Promise<number | null>((resolve) => first.child.once("exit", (code) => resolve(code)));
              first.child.kill("SIGTERM");
              return exited;
            },
          });
          const payments = await db.payment.count({ where: { merchantId: seeded.merchantId, reference: { startsWith: prefix } } });
          const stoppedLine = first.output.find((l) => l.startsWith("Sandpiper stopped: ")) ?? "(no line)";
          rows.push({ delay, stop, figures: run.figures, payments, stoppedLine });
          console.log(`SHUTDOWN_DELAY_MS=${delay} stop ${stop}: ${JSON.stringify({ ...run.figures, payments })}\n  ${stoppedLine}`);
        } finally {
          agent.destroy();
          await stopService(first.child);
        }
      }
    }
  } finally {
    await stopService(second.child);
    await db.$disconnect();
  }

  const table = [
    "| `SHUTDOWN_DELAY_MS` | stop | creates answered by the stopped instance (after SIGTERM) | resets | 5xx | cut | refused, retried on the other | keys = payments | SIGTERM to exit |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.delay} | ${r.stop} | ${r.figures.answeredByFirst} (${r.figures.answeredByFirstAfterSigterm}) | ${r.figures.resets} | ${r.figures.answered5xx} | ${r.figures.cutMidAnswer} | ${r.figures.refusedThenRetried} | ${r.figures.keys} = ${r.payments} | ${r.figures.stopMs} ms |`,
    ),
  ];
  const total = (k: string) => rows.reduce((n, r) => n + (r.figures[k] ?? 0), 0);
  const section = [
    "## Stopping under load",
    "",
    `Command: \`node scripts/build.mjs && BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sandpiper_bench node --import tsx bench/drain.ts --stops ${STOPS} --clients ${CLIENTS} --delays ${DELAYS.join(",")} --write\``,
    "(the suite's `test/integration/drain.test.ts` runs one such stop and fails on any reset, 5xx, cut answer, lost or",
    "doubled payment).",
    "",
    `Two instances of the built service (\`node server.mjs\`, \`SHUTDOWN_DRAIN_MS=10000\`) on one fresh seeded database, as`,
    `behind a load balancer; for each stop a new first instance, ${CLIENTS} clients creating payments on it over ${CLIENTS} kept-alive`,
    "connections (node:http Agent), SIGTERM after 4 s. A client that gets no answer there retries the same key and body on",
    "the second. A reset is a request sent on a connection that closed without an answer (the client cannot know whether",
    "it was read); a refused connection carried nothing. Machine: " +
      `${os.cpus().length} x ${os.cpus()[0]?.model ?? "CPU"}, shared with other work (load average ${loadAtStart.map((l) => l.toFixed(1)).join(" / ")} before); ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.`,
    "",
    ...table,
    "",
    `In all: ${total("resets")} resets, ${total("answered5xx")} answered 5xx, ${total("cutMidAnswer")} cut, ${rows.every((r) => r.figures.keys === r.payments) ? "every key one payment" : "KEYS AND PAYMENTS DIFFER"} over ${rows.length} stops.`,
    "Each stop's last log line, e.g.: `" + (rows[0]?.stoppedLine ?? "") + "`.",
    "",
    "Before this drain (the listener closed with `http.Server#close`, which also closes every idle kept-alive connection,",
    "and idle connections closed again every 50 ms; `Connection: close` on every answer from SIGTERM on), the suite's",
    "stop with the same client counted 2 and 2 resets in two runs, and the operators' trial 4 and 7 (27 with",
    "`SHUTDOWN_DELAY_MS=2000`). Now the listener closes without touching idle connections, just after the event loop",
    "accepted what the kernel had queued; each answer from then on closes its connection; a connection is closed for",
    "being idle only once it has had no request for 1 s (5 s before its first request); and during `SHUTDOWN_DELAY_MS`",
    "connections stay kept alive, so no client reconnects just before the listener closes.",
  ].join("\n");
  console.log(`\n${section}`);
  if (process.argv.includes("--write")) console.log(`written to ${writeBenchmarkSection(section)}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
