// Where a first start's time goes on the embedded database (docs/benchmarks.md "Sandbox package"): the configuration
// check, a new PGlite folder, the migrations, the seed, Next.js's prepare (with the instrumentation hook), the first
// request; then opening the folder again and a new in-memory PGlite database. In a temporary data folder, removed
// at the end. Not a test: it prints figures.
//   node bench/embedded-start.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-embedded-start-"));
Object.assign(process.env, { SANDPIPER_DATA_DIR: dir, NODE_ENV: "production", SANDPIPER_EMBEDDED: "1", DB_POOL_MAX: "1", PORT: "0", LOG_LEVEL: "warn" });
let t = performance.now();
const lap = (name) => {
  console.log(`| ${name} | ${Math.round(performance.now() - t)} ms |`);
  t = performance.now();
};
console.log("| step | time |\n|---|---|");
const db = await import("../scripts/db.mjs");
const server = await import("../server.mjs");
lap("load scripts/db.mjs and server.mjs");
server.settings();
lap("configuration check (compiled, in this process)");
const embedded = await db.startEmbeddedDb(path.join(dir, "pglite"));
server.setChecked("DATABASE_URL", embedded.url, embedded.url);
lap("PGlite: a new data folder (initdb) and its socket");
await db.migrate(embedded.url, { lockHeld: true });
lap("migrations (scripts/db.mjs, node-postgres)");
await db.seed(embedded.url);
lap("seed (prisma/seed.ts)");
const service = await server.startServer({ port: await db.freePort() });
lap("Next.js prepare, instrumentation hook, listen");
await fetch(`${service.url}/v1/payments`);
lap("first request (GET /v1/payments)");
await service.close();
await embedded.stop();
t = performance.now();
const again = await db.startEmbeddedDb(path.join(dir, "pglite"));
lap("PGlite: open the existing folder again");
await again.stop();
t = performance.now();
const { PGlite } = await import("@electric-sql/pglite");
await (await PGlite.create()).close();
lap("PGlite: a new in-memory database (initdb)");
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
