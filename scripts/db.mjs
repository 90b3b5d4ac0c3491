// Database helpers shared by start, tests and benchmarks: prisma generate/migrate, guards, embedded PGlite.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const prismaBin = path.join(root, "node_modules", ".bin", "prisma");

/**
 * Runs a command without blocking the event loop (the embedded database is served by this process, so a
 * synchronous child would deadlock on it). Resolves with stdout; rejects on a non-zero exit.
 */
function run(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) return resolve(stdout);
      process.stderr.write(stdout + stderr);
      reject(new Error(`${path.basename(cmd)} ${args.join(" ")} failed with exit code ${code}`));
    });
  });
}

/** Generates the Prisma client (the CLI needs some DATABASE_URL even to generate). */
export function generateClient() {
  const result = spawnSync(prismaBin, ["generate"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error("prisma generate failed");
  }
}

/** Advisory lock key of start-up work (migrations, first seed): the text "sandpiper-startup" hashed by PostgreSQL. */
const STARTUP_LOCK = "SELECT pg_advisory_lock(hashtext('sandpiper-startup'))";

/**
 * Runs `fn` while holding the database's start-up lock (a session advisory lock on a connection of its own), so
 * instances started at the same moment migrate and seed one after the other instead of failing on Prisma's
 * 10-second migration lock. Waits as long as another instance holds it. `skip` runs `fn` without the lock (the
 * embedded database: one process, one connection).
 */
export async function withStartupLock(databaseUrl, { skip = false } = {}, fn) {
  if (skip) return fn();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(STARTUP_LOCK);
    return await fn();
  } finally {
    await client.end(); // ends the session, and with it the lock
  }
}

/**
 * Applies the committed migrations (`prisma migrate deploy`) and then the database guards, under the start-up
 * lock unless the caller holds it (`lockHeld`).
 */
export async function migrate(databaseUrl, { lockHeld = false } = {}) {
  if (!lockHeld) return withStartupLock(databaseUrl, {}, () => migrate(databaseUrl, { lockHeld: true }));
  await run(prismaBin, ["migrate", "deploy"], { DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(fs.readFileSync(path.join(root, "prisma", "sql", "guards.sql"), "utf8"));
  } finally {
    await client.end();
  }
}

/** True when the database has no merchant yet (a fresh database to seed). */
export async function isEmpty(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT count(*)::int AS n FROM merchants");
    return rows[0].n === 0;
  } finally {
    await client.end();
  }
}

/** Runs the seed script; resolves with its stdout. */
export function seed(databaseUrl, args = [], env = {}) {
  return run(process.execPath, ["--import", "tsx", "prisma/seed.ts", ...args], { DATABASE_URL: databaseUrl, ...env });
}

/** A free loopback TCP port. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts the embedded database (DESIGN "Embedded default database"): PGlite with its data folder on disk,
 * served on a free loopback port (never 5432) by pglite-socket. Returns { url, stop() }.
 */
export async function startEmbeddedDb(dataDir = path.join(root, ".data", "pglite")) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  fs.mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir });
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1" });
  await server.start();
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
