// npm start: build, migrate, seed (on an empty database) and serve on http://localhost:3000.
// Without DATABASE_URL the embedded PGlite database in .data/ (SANDPIPER_DATA_DIR) is used.
// First of all: with traces on, the pg instrumentation must see `pg` load, which ./db.mjs does (docs/operating.md "Traces").
import "./trace-pg-first.mjs";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { isBuildCurrent } from "./build-stamp.mjs";
import { EmbeddedFolderInUseError, ensureDatabaseOrExit, isEmpty, lockEmbeddedFolder, migrate, root, seed, startEmbeddedDb, withStartupLock } from "./db.mjs";

process.env.NEXT_TELEMETRY_DISABLED = "1";
// `npm run start:local` (--local): local development of the service, with http receivers on this machine allowed.
if (process.argv.includes("--local")) {
  process.env.NODE_ENV = "development";
  process.env.CALLBACK_ALLOW_LOOPBACK = "1";
  console.log("Local development: callbacks may go to http://localhost receivers (never use this in production).");
}
process.env.NODE_ENV ??= "production";
// In a terminal the screen is for a person: warnings and errors only, unless LOG_LEVEL asks for more (one line per
// request at info). Under a process manager (stdout not a terminal) logs stay JSON lines at LOG_LEVEL (default info).
const terminal = Boolean(process.stdout.isTTY);
if (terminal && !process.env.LOG_LEVEL) process.env.LOG_LEVEL = "warn";
// Without DATABASE_URL the embedded database serves, over one connection: said before the configuration is checked,
// which then runs once (lib/platform/compiled.mjs: in this process). Only whether it is set is looked at here
// (empty counts as unset, as in lib/platform/config.ts); its value is read through the check below.
if (!process.env.DATABASE_URL) {
  process.env.DB_POOL_MAX = "1";
  process.env.SANDPIPER_EMBEDDED = "1";
}
const { dataDirectory, refuseTakenPort, refuseUnsafeStart, serve, setChecked, settings, workerCount } = await import("../server.mjs");
// A variable lib/platform/config.ts refuses stops the start here, before building or migrating (one line per variable; the
// service process checks again in instrumentation.ts). server.mjs checks it in this process (lib/platform/config.ts compiled by lib/platform/compiled.mjs).
refuseUnsafeStart();
/** The checked DATABASE_URL (docs/operating.md "Environment"); the embedded database's once it runs. */
let databaseUrl = settings().DATABASE_URL;
workerCount(); // refuses SANDPIPER_WORKERS above 1 on the embedded database before anything starts
// What fails fast, before anything is built, migrated or seeded (one line each, exit code 1): a port in use, an
// embedded data folder that another process holds.
await refuseTakenPort();
const embeddedDir = databaseUrl ? null : path.join(dataDirectory(), "pglite");
let folderLock = null;
if (embeddedDir) {
  try {
    folderLock = await lockEmbeddedFolder(embeddedDir);
  } catch (error) {
    if (!(error instanceof EmbeddedFolderInUseError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

// The build generates the Prisma client. It runs only when the sources changed since the last build (a restart
// takes seconds); `--build` forces it, `--no-build` serves the existing build and client as they are.
// In a terminal the build's own output (about 70 lines of Next.js progress) is kept back and shown only if it fails,
// so the screen holds what the README says: warnings, then the credentials and the address.
if (process.argv.includes("--build") || (!process.argv.includes("--no-build") && !isBuildCurrent(root))) {
  const script = path.join(root, "scripts", "build.mjs");
  if (terminal) console.log("Building (a few minutes the first time; the build's output is shown only if it fails)...");
  const build = terminal
    ? spawnSync(process.execPath, [script], { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 })
    : spawnSync(process.execPath, [script], { stdio: "inherit", cwd: root });
  if (build.status !== 0) {
    if (terminal) process.stderr.write(`${build.stdout ?? ""}${build.stderr ?? ""}The build failed (its output is above).\n`);
    process.exit(build.status ?? 1);
  }
} else if (!process.argv.includes("--no-build")) {
  console.log("The build is up to date (no source changed since the last build); `npm start -- --build` rebuilds anyway.");
}

let embedded = null;
if (embeddedDir) {
  embedded = await startEmbeddedDb(embeddedDir, { lock: folderLock });
  databaseUrl = embedded.url;
  setChecked("DATABASE_URL", embedded.url, embedded.url);
  console.log(`Embedded database (PGlite) in ${path.relative(root, embeddedDir) || "."}; set DATABASE_URL to use PostgreSQL.`);
} else {
  // A DATABASE_URL that names a database not created yet: created when its role may, else one line says how. Nothing
  // listening, a refused role or password: one line naming host, port and database (docs/operating.md "Environment").
  await ensureDatabaseOrExit(databaseUrl);
}
const credentialsFile = path.join(dataDirectory(), "credentials.txt");
/**
 * The credentials kept from the seeding start, as a restart prints them: headed as kept, not as just seeded (nothing
 * was seeded now).
 */
function keptCredentials(text) {
  const kept = `The sandbox was seeded at its first start; its credentials (kept in ${path.relative(root, credentialsFile)}):`;
  return text.replace(/^Seeded the sandbox.*$/m, kept);
}
let credentials = "";
// docs/operating.md "Credentials of the first start": on PostgreSQL under NODE_ENV=production with stdout not a
// terminal (a process manager keeps stdout in the system log), the seeded passwords and keys go to
// seeded-credentials.txt, readable by this user only, and only its path is printed. The embedded database and a
// terminal keep printing them.
const credentialsToFile = !embedded && process.env.NODE_ENV === "production" && !terminal;
const seededFile = path.join(dataDirectory(), "seeded-credentials.txt");
// Instances started together take turns: one migrates and seeds, the others wait, then find the work done. A restart
// with nothing changed skips each step: no migration pending, seeded already.
await withStartupLock(databaseUrl, { skip: Boolean(embedded) }, async () => {
  const applied = await migrate(databaseUrl, { lockHeld: true });
  if (applied > 0) console.log(`Applied ${applied} migration${applied === 1 ? "" : "s"}.`);
  if (await isEmpty(databaseUrl)) {
    credentials = await seed(databaseUrl);
    if (embedded) fs.writeFileSync(credentialsFile, credentials, { mode: 0o600 });
    if (credentialsToFile) {
      fs.mkdirSync(path.dirname(seededFile), { recursive: true, mode: 0o700 });
      fs.writeFileSync(seededFile, credentials, { mode: 0o600 });
      fs.chmodSync(seededFile, 0o600); // a file left from before keeps its mode otherwise
      credentials = `The seeded sandbox's console passwords and API keys are in ${seededFile} (readable by this user only; not printed under NODE_ENV=production outside a terminal).`;
    }
  } else {
    // The seeded USD->AED rates are extended by the service itself at each start (instrumentation.ts).
    if (embedded && fs.existsSync(credentialsFile)) credentials = keptCredentials(fs.readFileSync(credentialsFile, "utf8"));
  }
});

const { close, url } = await serve();
// Last, once it serves: the credentials and the address, in one write (nothing prints after them in a terminal).
const address = `http://localhost:${new URL(url).port}`;
const quiet = terminal && !["info", "debug", "trace"].includes(process.env.LOG_LEVEL ?? "");
process.stdout.write(
  `${credentials.trimEnd() ? `${credentials.trimEnd()}\n\n` : ""}` +
    `Sandpiper is running on ${address} (health ${address}/healthz, readiness ${address}/readyz)` +
    (quiet ? "\nRequests are not logged in this terminal: LOG_LEVEL=info npm start prints them, LOG_FORMAT=pretty readably." : "") +
    "\n",
);
// One stop, whatever signals follow the first (server.mjs does the same in each worker): the drain goes on to its end.
let stopped;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => {
    stopped ??= close(signal).then(async () => {
      if (embedded) await embedded.stop();
      process.exit(0);
    });
  });
}
