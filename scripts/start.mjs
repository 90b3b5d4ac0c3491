// npm start: build, migrate, seed (on an empty database) and serve on http://localhost:3000.
// Without DATABASE_URL the embedded PGlite database in .data/ (SANDPIPER_DATA_DIR) is used.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { isBuildCurrent } from "./build-stamp.mjs";
import { ensureDatabaseOrExit, isEmpty, migrate, root, seed, startEmbeddedDb, withStartupLock } from "./db.mjs";

process.env.NEXT_TELEMETRY_DISABLED = "1";
// `npm run start:local` (--local): local development of the service, with http receivers on this machine allowed.
if (process.argv.includes("--local")) {
  process.env.NODE_ENV = "development";
  process.env.CALLBACK_ALLOW_LOOPBACK = "1";
  console.log("Local development: callbacks may go to http://localhost receivers (never use this in production).");
}
process.env.NODE_ENV ??= "production";
const { dataDirectory, refuseUnsafeStart, serve, settings, workerCount } = await import("../server.mjs");
// A variable lib/config.ts refuses stops the start here, before building or migrating (one line per variable; the
// service process checks again in instrumentation.ts). server.mjs checks it in a child process (scripts/check-config.mjs).
refuseUnsafeStart();
settings();

// The build generates the Prisma client. It runs only when the sources changed since the last build (a restart
// takes seconds); `--build` forces it, `--no-build` serves the existing build and client as they are.
if (process.argv.includes("--build") || (!process.argv.includes("--no-build") && !isBuildCurrent(root))) {
  const build = spawnSync(process.execPath, [path.join(root, "scripts", "build.mjs")], { stdio: "inherit", cwd: root });
  if (build.status !== 0) process.exit(build.status ?? 1);
} else if (!process.argv.includes("--no-build")) {
  console.log("The build is up to date (no source changed since the last build); `npm start -- --build` rebuilds anyway.");
}

let embedded = null;
if (!process.env.DATABASE_URL) {
  embedded = await startEmbeddedDb(path.join(dataDirectory(), "pglite"));
  process.env.DATABASE_URL = embedded.url;
  process.env.DB_POOL_MAX = "1";
  process.env.SANDPIPER_EMBEDDED = "1";
  workerCount(); // refuses SANDPIPER_WORKERS above 1 before anything starts
  console.log(`Embedded database (PGlite) in ${path.relative(root, path.join(dataDirectory(), "pglite")) || "."}; set DATABASE_URL to use PostgreSQL.`);
} else {
  // A DATABASE_URL that names a database not created yet: created when its role may, else one line says how.
  await ensureDatabaseOrExit(process.env.DATABASE_URL);
}
const credentialsFile = path.join(dataDirectory(), "credentials.txt");
// Instances started together take turns: one migrates and seeds, the others wait, then find the work done.
await withStartupLock(process.env.DATABASE_URL, { skip: Boolean(embedded) }, async () => {
  await migrate(process.env.DATABASE_URL, { lockHeld: true });
  if (await isEmpty(process.env.DATABASE_URL)) {
    const out = await seed(process.env.DATABASE_URL);
    process.stdout.write(out);
    if (embedded) fs.writeFileSync(credentialsFile, out, { mode: 0o600 });
  } else {
    // A sandbox seeded on an earlier day gets today's seeded USD->AED rate (an operator's own rate is kept).
    await seed(process.env.DATABASE_URL, ["--refresh-rates"]);
    if (embedded && fs.existsSync(credentialsFile)) process.stdout.write(fs.readFileSync(credentialsFile, "utf8"));
  }
});

const { close, url } = await serve();
console.log(`Sandpiper is running on http://localhost:${new URL(url).port}`);
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, async () => {
    await close();
    if (embedded) await embedded.stop();
    process.exit(0);
  });
}
