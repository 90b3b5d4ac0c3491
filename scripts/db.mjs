// Database helpers shared by start, tests and benchmarks: prisma generate, migrations, embedded PGlite.
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { COMPILED, compiled } from "../lib/platform/compiled.mjs";
import { CONNECT_TIMEOUT_MS, connectionProblem, DatabaseUnusableError, databaseTarget, MissingDatabaseError } from "../lib/platform/db-connection.mjs";

// What a start needs to reach a database and read the shared console secret, without this module (server.mjs reads
// them there: this module imports server.mjs).
export { connectionProblem, DatabaseUnusableError, databaseTarget, MissingDatabaseError, sharedAuthSecret } from "../lib/platform/db-connection.mjs";

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

/** Generates the Prisma client (the CLI needs some DATABASE_URL even to generate; it connects to none). */
export function generateClient() {
  const result = spawnSync(prismaBin, ["generate"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/postgres", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error("prisma generate failed");
  }
}

/**
 * Makes sure the database `databaseUrl` names exists and answers (README "Quick start": `DATABASE_URL` may name a
 * database not created yet). When it does not exist and the url's role may create databases (connected to the
 * cluster's `postgres` database), it is created, owned by that role, and `log` gets one line saying so. Otherwise
 * throws a MissingDatabaseError whose message is one line with the command and the SQL to run. A connection that
 * fails for another reason (nothing listening, no answer within 5 s, wrong password, unknown role) throws a
 * DatabaseUnusableError with the one line of {@link connectionProblem}. The password is never in a message.
 * @returns true when it created the database, false when it existed.
 */
export async function ensureDatabase(databaseUrl, log = console.log) {
  const probe = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await probe.connect();
    return false;
  } catch (error) {
    // 3D000 invalid_catalog_name: the database does not exist (created below when the role may)
    if (error.code !== "3D000") throw new DatabaseUnusableError(connectionProblem(error, databaseUrl));
  } finally {
    await probe.end().catch(() => {});
  }
  const { host, port, name, user } = databaseTarget(databaseUrl);
  const admin = new URL(databaseUrl);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
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

/**
 * ensureDatabase for a command line (`npm start`, `npm run db:migrate`): on a DatabaseUnusableError (a missing
 * database, nothing listening, a refused role or password) prints its one line and exits 1, without a stack trace.
 */
export async function ensureDatabaseOrExit(databaseUrl) {
  try {
    await ensureDatabase(databaseUrl);
  } catch (error) {
    if (!(error instanceof DatabaseUnusableError)) throw error;
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

/** The committed migrations: the folder names under prisma/migrations, in order. */
export function committedMigrations() {
  const dir = path.join(root, "prisma", "migrations");
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/**
 * Prisma's record of applied migrations, created as `prisma migrate` creates it, so that a database migrated here and
 * one migrated by the Prisma CLI read the same (docs/operating.md "Migrations").
 */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/**
 * The committed migrations that the database has not applied yet (none recorded as finished and not rolled back in
 * Prisma's `_prisma_migrations`; all of them when that table does not exist). One query.
 * @returns the folder names, in order; empty when the database is current
 * @throws Error naming a migration that started and never finished (a failed one: it is not run again until an
 *   operator has repaired the database and marked it rolled back, as `prisma migrate deploy` refuses it too)
 */
export async function pendingMigrations(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT migration_name, finished_at FROM _prisma_migrations WHERE rolled_back_at IS NULL");
    const failed = rows.find((r) => r.finished_at === null);
    if (failed)
      throw new Error(
        `migration ${failed.migration_name} failed earlier (its error is in _prisma_migrations.logs); repair the database, then ` +
          `UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = '${failed.migration_name}' AND finished_at IS NULL, and migrate again`,
      );
    const applied = new Set(rows.map((r) => r.migration_name));
    return committedMigrations().filter((name) => !applied.has(name));
  } catch (error) {
    if (error.code === "42P01") return committedMigrations(); // undefined_table: a database never migrated
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Applies one committed migration `name` on `client`: its migration.sql sent whole, as one simple-protocol query
 * (PL/pgSQL bodies and any ";" in a comment or string stay intact: docs/architecture.md "Consistency"), in one
 * transaction with its `_prisma_migrations` row (checksum: SHA-256 of the file, as Prisma records it), so it applies
 * and is recorded entirely or not at all. A refused script is recorded as a failed migration (its error in `logs`)
 * and thrown.
 * @throws the driver's error, its message prefixed with the migration's name
 */
async function applyMigration(client, name) {
  const script = fs.readFileSync(path.join(root, "prisma", "migrations", name, "migration.sql"), "utf8");
  const checksum = createHash("sha256").update(script).digest("hex");
  const record = `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
    VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`;
  await client.query("BEGIN");
  try {
    await client.query(script);
    await client.query(record, [randomUUID(), checksum, name]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    await client.query("INSERT INTO _prisma_migrations (id, checksum, migration_name, logs) VALUES ($1, $2, $3, $4)", [
      randomUUID(),
      checksum,
      name,
      error.message,
    ]);
    error.message = `migration ${name} failed: ${error.message}`;
    throw error;
  }
}

/**
 * Applies the committed migrations not applied yet ({@link pendingMigrations}; the database guards are migrations
 * too), one after the other in folder order ({@link applyMigration}), under the start-up lock unless the caller holds
 * it (`lockHeld`). node-postgres only, no Prisma CLI: a start with nothing pending makes one query.
 * @returns the number of migrations applied (0: nothing ran)
 * @throws the first failed migration's error ({@link applyMigration}); the ones before it stay applied
 */
export async function migrate(databaseUrl, { lockHeld = false } = {}) {
  if (!lockHeld) return withStartupLock(databaseUrl, {}, () => migrate(databaseUrl, { lockHeld: true }));
  const pending = await pendingMigrations(databaseUrl);
  if (pending.length === 0) return 0;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(MIGRATIONS_TABLE);
    for (const name of pending) await applyMigration(client, name);
  } finally {
    await client.end().catch(() => {});
  }
  return pending.length;
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

/** Runs the seed script (prisma/seed.ts as compiled by lib/platform/compiled.mjs: no tsx); resolves with its stdout. */
export async function seed(databaseUrl, args = [], env = {}) {
  return run(process.execPath, [await compiled(COMPILED.seed), ...args], { DATABASE_URL: databaseUrl, ...env });
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

/** A second process on an embedded data folder that another process holds; `message` is one line to print. */
export class EmbeddedFolderInUseError extends Error {}

/**
 * Where the holder of the embedded data folder `dataDir` listens: on Linux an abstract Unix socket (no file; the
 * kernel frees it when the process ends, crashed or not), elsewhere a socket file in the temporary folder. Named by
 * a hash of the folder's real path, so two spellings of one folder meet.
 */
function folderLockAddress(dataDir) {
  const id = createHash("sha256").update(fs.realpathSync(dataDir)).digest("hex").slice(0, 24);
  return process.platform === "linux" ? `\0sandpiper-embedded-${id}` : path.join(os.tmpdir(), `sandpiper-embedded-${id}.sock`);
}

/** What the holder at `address` says about itself (`{ pid, command, since }`), or null when nothing answers there. */
function askHolder(address) {
  return new Promise((resolve) => {
    let text = "";
    const socket = net.connect(address);
    socket.setTimeout(2_000, () => socket.destroy());
    socket.on("data", (d) => (text += d));
    socket.on("error", () => resolve(null));
    socket.on("close", () => {
      try {
        resolve(JSON.parse(text));
      } catch {
        resolve(null);
      }
    });
  });
}

/**
 * Takes the embedded data folder `dataDir` for this process (README "Quick start": one process per folder; PGlite
 * damages a folder that two processes write). The lock is a listening local socket that answers who holds it,
 * so a process that crashed leaves nothing stuck: the kernel closes its socket.
 * @returns `{ release() }`, to call when the folder is closed
 * @throws EmbeddedFolderInUseError, whose message is one line naming the running process, when another holds it
 */
export async function lockEmbeddedFolder(dataDir) {
  fs.mkdirSync(dataDir, { recursive: true });
  const address = folderLockAddress(dataDir);
  const script = process.argv[1] ?? "";
  const command = /\.(m?js|ts)$/.test(script) ? path.relative(root, script) : "node";
  const info = JSON.stringify({ pid: process.pid, command, since: new Date().toISOString() });
  for (let attempt = 0; ; attempt++) {
    const server = net.createServer((socket) => socket.end(info));
    const error = await new Promise((resolve) => {
      server.once("error", resolve);
      server.listen(address, () => resolve(null));
    });
    if (!error) {
      server.unref();
      return { release: () => new Promise((resolve) => server.close(() => resolve(undefined))) };
    }
    if (error.code !== "EADDRINUSE") throw error;
    const holder = await askHolder(address);
    if (holder) {
      const relative = path.relative(process.cwd(), dataDir);
      const folder = relative.startsWith("..") || path.isAbsolute(relative) ? dataDir : relative || ".";
      throw new EmbeddedFolderInUseError(
        `Sandpiper cannot start: the embedded database in ${folder} is in use by process ${holder.pid} (${holder.command}, running since ${holder.since}). ` +
          `Stop that process first, or give this one its own folder (SANDPIPER_DATA_DIR=<folder>) or PostgreSQL (DATABASE_URL).`,
      );
    }
    // A socket file left by a process that ended (not on Linux, whose abstract sockets leave none): removed, tried again.
    if (attempt > 0 || process.platform === "linux") throw error;
    fs.rmSync(address, { force: true });
  }
}

/**
 * Starts the embedded database (docs/architecture.md "Stack"): PGlite with its data folder on disk,
 * served on a free loopback port (never 5432) by pglite-socket, and announced in `embedded-db.json` beside the
 * folder so that `npm run seed` and other tools reach it while the service runs (PGlite is one session: the
 * socket server queues the queries of up to 8 connections and keeps a transaction's queries together).
 * The folder is held by this process ({@link lockEmbeddedFolder}): `lock` when the caller took it already, else taken here.
 * Returns { url, stop() }; stop() closes the database and releases the folder.
 * @throws EmbeddedFolderInUseError when another process holds the folder
 */
export async function startEmbeddedDb(dataDir = path.join(root, ".data", "pglite"), { lock } = {}) {
  const held = lock ?? (await lockEmbeddedFolder(dataDir));
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
      await held.release();
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
 * Runs a command's work on its database (`npm run seed`, `npm run console:reset-password`): DATABASE_URL when set
 * (read through the configuration check: a refused value ends the command with one line);
 * otherwise the embedded database, through the running service when one serves it (runningEmbeddedDb), or opened
 * here, migrated first and closed afterwards. `fn(url, env)` gets the url and the environment the database needs
 * (`{}` on PostgreSQL; one connection, embedded mode on PGlite) and `dataDir`, the embedded install's data folder.
 * A service starting on the folder at that moment holds it: one line says so ({@link lockEmbeddedFolder}), exit 1.
 * @returns what `fn` returns.
 */
export async function withCommandDatabase(fn) {
  const { dataDirectory, settings } = await import("../server.mjs");
  // DATABASE_URL through the one configuration (a refused value: one line, exit code 1).
  const databaseUrl = settings().DATABASE_URL;
  if (databaseUrl) return fn(databaseUrl, {}, dataDirectory());
  const dataDir = path.join(dataDirectory(), "pglite");
  const running = await runningEmbeddedDb(dataDir);
  let embedded = null;
  try {
    embedded = running ? null : await startEmbeddedDb(dataDir);
  } catch (error) {
    if (!(error instanceof EmbeddedFolderInUseError)) throw error;
    console.error(error.message); // a service starting on the folder right now
    process.exit(1);
  }
  const url = running ?? embedded.url;
  try {
    if (embedded) await migrate(url, { lockHeld: true });
    return await fn(url, { DB_POOL_MAX: "1", SANDPIPER_EMBEDDED: "1" }, dataDirectory());
  } finally {
    await embedded?.stop();
  }
}
