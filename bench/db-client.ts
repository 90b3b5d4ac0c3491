// Database client cost ("Load targets: causes and fixes"): what one statement costs the service's
// own process through each client it could use, measured in CPU time of this process per statement.
//
//   BENCH_DATABASE_URL=... node --import tsx bench/db-client.ts [--n 4000] [--concurrency 16]
//
// Runs against a migrated, seeded database (default sandpiper_bench_7, the load benchmark's; it is created,
// migrated and seeded when missing). The same primary-key read of one merchant row goes through (1) the Prisma
// ORM (findUnique, and findFirst with a second condition: the WASM query compiler plans the query), (2) Prisma $queryRaw (no ORM plan, but the client's
// request pipeline and the driver adapter), (3) node-postgres directly; and (4) an interactive Prisma transaction
// holding one $queryRaw (the BEGIN/COMMIT overhead a create pays). Writes the "## Database client cost" section of
// docs/benchmarks.md.
import os from "node:os";
import pg from "pg";
import { numberArg, writeBenchmarkSection } from "./support";
import { present } from "../scripts/harness/present";

const N = numberArg("n", 4000);
const CONCURRENCY = numberArg("concurrency", 16);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/sandpiper_bench_7";

type Row = { client: string; wallMs: number; cpuMs: number };

/** Runs `op` N times, CONCURRENCY at a time; returns wall and CPU (user + system) milliseconds per call. */
async function measure(client: string, n: number, op: () => Promise<unknown>): Promise<Row> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = 0; i < n / CONCURRENCY; i++) await op();
    }),
  );
  const used = process.cpuUsage(cpu);
  return { client, wallMs: (performance.now() - wall) / n, cpuMs: (used.user + used.system) / 1000 / n };
}

async function main() {
  process.env.DATABASE_URL = DATABASE_URL;
  const { readyDatabase } = await import("./dataset");
  await readyDatabase(DATABASE_URL, false);
  const { getDb } = await import("@/lib/platform/db");
  const db = getDb();
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
  const merchant = await db.merchant.findFirstOrThrow({ select: { id: true } });
  const id = merchant.id;
  const runs = {
    "Prisma ORM `merchant.findUnique`": () => db.merchant.findUnique({ where: { id } }),
    "Prisma ORM `merchant.findFirst` (id and status)": () => db.merchant.findFirst({ where: { id, status: "ACTIVE" } }),
    "Prisma `$queryRaw` (same SQL as below)": () => db.$queryRaw`SELECT * FROM merchants WHERE id = ${id}::uuid`,
    "node-postgres `pool.query`": () => pool.query("SELECT * FROM merchants WHERE id = $1::uuid", [id]),
    "Prisma interactive transaction with one `$queryRaw`": () => db.$transaction(async (tx) => tx.$queryRaw`SELECT * FROM merchants WHERE id = ${id}::uuid`),
  };
  let rows: Row[] = [];
  for (const round of ["warm-up", "measured"]) {
    rows = [];
    for (const [client, op] of Object.entries(runs)) rows.push(await measure(client, round === "warm-up" ? N / 4 : N, op));
  }
  await pool.end();
  await db.$disconnect();

  const pgCpu = rows.find((r) => r.client.startsWith("node-postgres"))!.cpuMs;
  const section = [
    "## Database client cost",
    "",
    `Command: \`BENCH_DATABASE_URL=... node --import tsx bench/db-client.ts --n ${N} --concurrency ${CONCURRENCY}\` (source: \`bench/db-client.ts\`).`,
    `Machine: ${os.cpus().length} vCPU ${present(os.cpus()[0], "os.cpus()[0]").model}, Node ${process.version}. Date: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC. One-minute load average ${present(os.loadavg()[0], "os.loadavg()[0]").toFixed(2)} after the run.`,
    "",
    `Method: the same primary-key read of one merchant row, ${N} times, ${CONCURRENCY} at a time, after a warm-up of ${N / 4}; CPU is this process's user + system time per call (the database server's own work is not in it).`,
    "",
    "| client | CPU per call | wall per call | CPU vs node-postgres |",
    "|---|---|---|---|",
    ...rows.map((r) => `| ${r.client} | ${r.cpuMs.toFixed(3)} ms | ${r.wallMs.toFixed(3)} ms | ${(r.cpuMs / pgCpu).toFixed(1)}x |`),
    "",
  ].join("\n");
  writeBenchmarkSection(section);
  console.log(section);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
