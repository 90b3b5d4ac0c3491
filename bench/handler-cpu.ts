// Handler CPU without the framework ("Load targets: causes and fixes"): the merchant API's route
// handlers called in this process with a Web Request, no HTTP server and no Next.js, so the figures are what
// the pipeline and the handler cost (authentication, rate limits, validation, idempotency, SQL through Prisma,
// serialisation), to set beside the load benchmark's per-request cost through the service.
//
//   node --import tsx bench/handler-cpu.ts [--reads 2000] [--creates 400] [--concurrency 16]
//
// Uses the load benchmark's database (BENCH_DATABASE_URL, default sandpiper_bench_7; run bench/load.ts once
// first: it creates the 1,000,000 payments). Writes the "## Handler CPU without the framework" section of
// docs/benchmarks.md.
import os from "node:os";
import { randomUUID } from "node:crypto";
import { numberArg, writeBenchmarkSection } from "./support";
import { present } from "../scripts/harness/present";

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sandpiper_bench_7";
const READS = numberArg("reads", 2000);
const CREATES = numberArg("creates", 400);
const CONCURRENCY = numberArg("concurrency", 16);

type Handler = (request: Request, route: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Row = { name: string; calls: number; cpuMs: number; wallMs: number };

/** Calls `make()` `n` times, CONCURRENCY at a time; each response must have `status`. CPU and wall ms per call. */
async function measure(name: string, n: number, status: number, make: () => Promise<Response>): Promise<Row> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = 0; i < n / CONCURRENCY; i++) {
        const res = await make();
        if (res.status !== status) throw new Error(`${name}: ${res.status} ${await res.text()}`);
        await res.text();
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { name, calls: n, cpuMs: (used.user + used.system) / 1000 / n, wallMs: (performance.now() - wall) / n };
}

async function main() {
  Object.assign(process.env, { DATABASE_URL, LOG_LEVEL: "silent", RATE_LIMIT_PER_KEY: "100000000", RATE_LIMIT_PER_IP: "100000000" });
  const { prepareDataset } = await import("./dataset");
  const data = await prepareDataset(DATABASE_URL, 1_000_000, () => undefined);
  const read = (await import("../app/v1/payments/[id]/route")).GET as Handler;
  const payments = await import("../app/v1/payments/route");
  const [create, list] = [payments.POST as Handler, payments.GET as Handler];
  // The socket address server.mjs would set; the seeded allow-list has 127.0.0.1.
  const headers = { authorization: `Bearer ${data.key}`, "x-sandpiper-peer": "127.0.0.1", "content-type": "application/json" };
  let n = 0;
  const runs = [
    () =>
      measure("read by id", READS, 200, () => {
        const id = present(data.sampleIds[n++ % data.sampleIds.length], "a sample payment id");
        return read(new Request(`http://bench/v1/payments/${id}`, { headers }), { params: Promise.resolve({ id }) });
      }),
    () =>
      measure("list, status=SUCCEEDED&currency=EUR", READS / 4, 200, () =>
        list(new Request("http://bench/v1/payments?status=SUCCEEDED&currency=EUR", { headers }), { params: Promise.resolve({}) }),
      ),
    () =>
      measure("create (USD gateway deposit, distinct keys)", CREATES, 201, () => {
        const key = `cpu-${randomUUID()}`;
        const body = JSON.stringify({ reference: key, amount: "1123.52", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" });
        return create(new Request("http://bench/v1/payments", { method: "POST", headers: { ...headers, "idempotency-key": key }, body }), {
          params: Promise.resolve({}),
        });
      }),
  ];
  for (const run of runs) await run(); // warm-up
  const rows: Row[] = [];
  for (const run of runs) rows.push(await run());

  const section = [
    "## Handler CPU without the framework",
    "",
    `Command: \`node --import tsx bench/handler-cpu.ts --reads ${READS} --creates ${CREATES} --concurrency ${CONCURRENCY}\` (source: \`bench/handler-cpu.ts\`; the load benchmark's database).`,
    `Machine: ${os.cpus().length} vCPU ${present(os.cpus()[0], "os.cpus()[0]").model}, Node ${process.version}. Date: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC. One-minute load average ${present(os.loadavg()[0], "os.loadavg()[0]").toFixed(2)} after the run.`,
    "",
    `Method: the route handlers of \`app/v1/payments\` called in one process with a Web Request (the one request pipeline and the handler; no HTTP server, no Next.js, modules run from source by tsx), ${CONCURRENCY} at a time, after one warm-up round of the same size; CPU is this process's user + system time per call (PostgreSQL's own work is not in it). Compare with the load benchmark, where the service process is CPU-bound: its CPU per request is about (cores it uses) / (requests per second).`,
    "",
    "| handler | calls | CPU per call | wall per call |",
    "|---|---|---|---|",
    ...rows.map((r) => `| ${r.name} | ${r.calls} | ${r.cpuMs.toFixed(2)} ms | ${r.wallMs.toFixed(2)} ms |`),
    "",
  ].join("\n");
  writeBenchmarkSection(section);
  console.log(section);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
