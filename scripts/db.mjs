// Database helpers shared by start, tests and benchmarks: prisma generate/migrate, guards, embedded PGlite.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
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

/** Thrown by ensureDatabase when the database is missing and cannot be created here; `message` is one line to print. */
export class MissingDatabaseError extends Error {}

/**
 * Makes sure the database `databaseUrl` names exists (README "Quick start": `DATABASE_URL` may name a database
 * not created yet). When it does not and the url's role may create databases (connected to the cluster's
 * `postgres` database), it is created, owned by that role, and `log` gets one line saying so. Otherwise throws a
 * MissingDatabaseError whose message is one line with the command and the SQL to run; the password is never in it.
 * Any other connection error is rethrown as it is.
 * @returns true when it created the database, false when it existed.
 */
export async function ensureDatabase(databaseUrl, log = console.log) {
  const probe = new pg.Client({ connectionString: databaseUrl });
  try {
    await probe.connect();
    return false;
  } catch (error) {
    if (error.code !== "3D000") throw error; // 3D000 invalid_catalog_name: the database does not exist
  } finally {
    await probe.end().catch(() => {});
  }
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  const user = decodeURIComponent(url.username) || process.env.PGUSER || os.userInfo().username;
  const host = url.hostname || "localhost";
  const port = url.port || "5432";
  const admin = new URL(databaseUrl);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  let why;
  try {
    await client.connect();
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    log(`Created the database "${name}" on ${host}:${port} (DATABASE_URL named a database that did not exist); migrating it now.`);
    return true;
  } catch (error) {
    if (error.code === "42P04") return false; // duplicate_database: another instance created it a moment ago
    why = error.code === "42501" ? `role "${user}" may not create databases` : `it could not be created (${error.message})`;
  } finally {
    await client.end().catch(() => {});
  }
  const ident = (text) => `"${text.replaceAll('"', '""')}"`;
  throw new MissingDatabaseError(
    `Sandpiper cannot use DATABASE_URL: the database "${name}" does not exist on ${host}:${port}, and ${why}. ` +
      `Create it as a role that may create databases, then start again: createdb -h ${host} -p ${port} -U postgres -O ${user} ${name} ` +
      `(or in SQL: CREATE DATABASE ${ident(name)} OWNER ${ident(user)};)`,
  );
}

/** ensureDatabase for a command line (`npm start`, `npm run db:migrate`): on a MissingDatabaseError prints its one line and exits 1. */
export async function ensureDatabaseOrExit(databaseUrl) {
  try {
    await ensureDatabase(databaseUrl);
  } catch (error) {
    if (!(error instanceof MissingDatabaseError)) throw error;
    console.error(error.message);
    process.exit(1);
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
 * Applies the committed migrations (`prisma migrate deploy`; the database guards are migrations too), under the
 * start-up lock unless the caller holds it (`lockHeld`).
 */
export async function migrate(databaseUrl, { lockHeld = false } = {}) {
  if (!lockHeld) return withStartupLock(databaseUrl, {}, () => migrate(databaseUrl, { lockHeld: true }));
  await run(prismaBin, ["migrate", "deploy"], { DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" });
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

/** Where a running embedded database announces itself: `<data folder>/embedded-db.json` ({url, pid}). */
export function embeddedEndpointFile(dataDir) {
  return path.join(path.dirname(dataDir), "embedded-db.json");
}

/**
 * Starts the embedded database (docs/architecture.md "Stack"): PGlite with its data folder on disk,
 * served on a free loopback port (never 5432) by pglite-socket, and announced in `embedded-db.json` beside the
 * folder so that `npm run seed` and other tools reach it while the service runs (PGlite is one session: the
 * socket server queues the queries of up to 8 connections and keeps a transaction's queries together).
 * Returns { url, stop() }.
 */
export async function startEmbeddedDb(dataDir = path.join(root, ".data", "pglite")) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  fs.mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir });
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1", maxConnections: 8 });
  await server.start();
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
  const endpoint = embeddedEndpointFile(dataDir);
  fs.writeFileSync(endpoint, JSON.stringify({ url, pid: process.pid }), { mode: 0o600 });
  return {
    url,
    async stop() {
      fs.rmSync(endpoint, { force: true });
      await server.stop();
      await db.close();
    },
  };
}

/**
 * The url of the embedded database that a running process serves from `dataDir`, or null when none runs (a
 * left-over announcement of a process that is gone is removed).
 * @throws Error when the announcing process is alive but its database does not answer: opening the folder a
 *   second time would damage it.
 */
export async function runningEmbeddedDb(dataDir) {
  const endpoint = embeddedEndpointFile(dataDir);
  if (!fs.existsSync(endpoint)) return null;
  const { url, pid } = JSON.parse(fs.readFileSync(endpoint, "utf8"));
  try {
    process.kill(pid, 0);
  } catch {
    fs.rmSync(endpoint, { force: true });
    return null;
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return url;
  } catch (error) {
    throw new Error(`process ${pid} holds the embedded database in ${dataDir} but it does not answer (${error.message}); stop that process and try again`);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Runs a command's work on its database (`npm run seed`, `npm run console:reset-password`): DATABASE_URL when set;
 * otherwise the embedded database, through the running service when one serves it (runningEmbeddedDb), or opened
 * here, migrated first and closed afterwards. `fn(url, env)` gets the url and the environment the database needs
 * (`{}` on PostgreSQL; one connection, embedded mode on PGlite) and `dataDir`, the embedded install's data folder.
 * @returns what `fn` returns.
 */
export async function withCommandDatabase(fn) {
  const { dataDirectory } = await import("../server.mjs");
  if (process.env.DATABASE_URL) return fn(process.env.DATABASE_URL, {}, dataDirectory());
  const dataDir = path.join(dataDirectory(), "pglite");
  const running = await runningEmbeddedDb(dataDir);
  const embedded = running ? null : await startEmbeddedDb(dataDir);
  const url = running ?? embedded.url;
  try {
    if (embedded) await migrate(url, { lockHeld: true });
    return await fn(url, { DB_POOL_MAX: "1", SANDPIPER_EMBEDDED: "1" }, dataDirectory());
  } finally {
    await embedded?.stop();
  }
}
