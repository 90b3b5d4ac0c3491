// The @sandpiper/sandbox package (docs/guides/test-in-your-own-suite.md "How it works"), built by
// `npm run pack:clients` (scripts/pack-clients.mjs) into a tarball that installs with no registry at all:
//   dist/      what the package carries (built by buildSandbox, into clients/sandbox/dist for a plain npm pack):
//   app/       the production build (.next, built first when stale) with the files Node.js loads to serve it, found by
//              tracing (Next.js's own .nft.json traces, and @vercel/nft from server.mjs and the sandbox's process):
//              the same selection as Next.js's standalone output, minus what a sandbox never loads (image
//              optimisation, source maps, type declarations, Prisma's other databases); app/sandbox-child.mjs is the
//              sandbox's process (clients/sandbox/src/child.ts bundled with the lib/ modules it uses)
//   db/        the database, migrated and seeded here (PGlite, in memory) and dumped (seed.tar.gz), with the keys and
//              console users the seed made (seed.json): a start loads it instead of migrating and seeding
//   client/    @sandpiper/client as its package has it (dist), with its two npm dependencies
//   index.js   startSandpiper (clients/sandbox/src/index.ts), index.cjs the same as CommonJS (with its own copy of
//              the client), cli.js the sandpiper-sandbox command, types/ (index.d.ts and index.d.cts)
// npm run pack:clients changes nothing in the clone except .next when it was stale.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { isBuildCurrent } from "./build-stamp.mjs";
import { freePort, migrate, seed } from "./db.mjs";

const root = path.resolve(fileURLToPath(new URL("..", import.meta.url)));
const sandboxDir = path.join(root, "clients", "sandbox");
const require = createRequire(import.meta.url);

/** Files no sandbox loads: source maps, type declarations, Markdown, image optimisation, Prisma's other databases, esbuild. */
const NEVER = [
  /\.map$/,
  /\.d\.[cm]?ts$/,
  /\.md$/i,
  /(^|\/)node_modules\/(@img|sharp|@next\/swc-[^/]+|typescript|@types)\//,
  // server.mjs compiles the clone's configuration check with esbuild; the sandbox's process brings its own check.
  /(^|\/)node_modules\/(esbuild|@esbuild)\//,
  // The native argon2 binding: the sandbox hashes passwords in WebAssembly (lib/domain/users/password-hash.ts), so the
  // tarball carries no native binary and installs on every platform.
  /(^|\/)node_modules\/@node-rs\//,
  /(^|\/)node_modules\/next\/dist\/docs\//,
  /(^|\/)node_modules\/@prisma\/client\/runtime\/.*(cockroachdb|mysql|sqlserver|sqlite)/,
  /(^|\/)node_modules\/@prisma\/client\/runtime\/(query_engine|binary|library|edge|wasm-engine|react-native)/,
  /(^|\/)node_modules\/@electric-sql\/pglite\/dist\/(?!pglite\.(wasm|data)$)[^/]+\.tar\.gz$/,
];
const never = (rel) => NEVER.some((re) => re.test(rel));
/** What of .next the server never reads (caches, build traces, dev files); its node_modules links are copied below. */
const NEXT_SKIP = new Set(["cache", "trace", "trace-build", "diagnostics", "types", "turbopack", "dev", "node_modules"]);

/** Copies `from` (a file) to `to`, creating folders. */
function copyFile(from, to) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
}

/** Every file of Next.js's own traces (.next/**\/*.nft.json), as absolute real paths. */
function nextTraces() {
  const files = new Set();
  const next = path.join(root, ".next");
  for (const rel of fs.readdirSync(next, { recursive: true })) {
    if (!rel.endsWith(".nft.json") || rel.split(path.sep)[0] === "cache") continue;
    const nft = path.join(next, rel);
    for (const file of JSON.parse(fs.readFileSync(nft, "utf8")).files) {
      const full = path.resolve(path.dirname(nft), file);
      if (fs.existsSync(full) && fs.statSync(full).isFile()) files.add(fs.realpathSync(full));
    }
  }
  return files;
}

/** The files `entries` load, traced by @vercel/nft (as Next.js traces its server), as absolute real paths. */
async function traceEntries(entries) {
  const { nodeFileTrace } = require("next/dist/compiled/@vercel/nft");
  const { fileList } = await nodeFileTrace(entries, {
    base: root,
    ignore: (p) => never(p) || /next\/dist\/compiled\/(webpack|babel|babel-packages|jest-worker)\//.test(p),
  });
  const files = new Set();
  for (const rel of fileList) {
    const full = path.join(root, rel);
    if (fs.existsSync(full) && fs.statSync(full).isFile()) files.add(fs.realpathSync(full));
  }
  return files;
}

/**
 * The built service under `app`: .next (its hashed links to external packages, .next/node_modules/<name>-<hash>,
 * become copies of the traced files of the package they point to), the traced files under node_modules, server.mjs
 * and the rest of the clone's files it loads.
 */
function copyApp(files, app) {
  const next = path.join(root, ".next");
  for (const rel of fs.readdirSync(next)) {
    if (NEXT_SKIP.has(rel)) continue;
    fs.cpSync(path.join(next, rel), path.join(app, ".next", rel), { recursive: true, filter: (src) => !never(path.relative(root, src)) });
  }
  const links = path.join(next, "node_modules");
  for (const top of fs.existsSync(links) ? fs.readdirSync(links) : []) {
    const names = top.startsWith("@") ? fs.readdirSync(path.join(links, top)).map((n) => path.join(top, n)) : [top];
    for (const name of names) {
      // A link to a package no sandbox ships (the native argon2 binding) is left out whole: loading it fails and
      // the service falls back (lib/domain/users/password-hash.ts).
      if (never(path.join("node_modules", name, "package.json"))) continue;
      const target = fs.realpathSync(path.join(links, name));
      for (const file of files) {
        if (file.startsWith(target + path.sep) && !never(path.relative(root, file)))
          copyFile(file, path.join(app, ".next", "node_modules", name, path.relative(target, file)));
      }
      copyFile(path.join(target, "package.json"), path.join(app, ".next", "node_modules", name, "package.json"));
    }
  }
  for (const file of files) {
    const rel = path.relative(root, file);
    if (rel.startsWith("..") || rel.startsWith(`.next${path.sep}`) || never(rel)) continue;
    copyFile(file, path.join(app, rel));
  }
  fs.cpSync(path.join(root, "public"), path.join(app, "public"), { recursive: true });
  // The app's own package.json: no "type" (the build's .js files are CommonJS, as in the clone).
  fs.writeFileSync(path.join(app, "package.json"), `${JSON.stringify({ name: "sandpiper-sandbox-app", private: true }, null, 2)}\n`);
}

/**
 * Copies a whole package from the clone's node_modules into `dest`/node_modules, less what no sandbox loads.
 * `declarations`: keep its type declarations (.d.ts), for the packages the typed client's own declarations import (a
 * merchant's strict project type-checks them: docs/guides/test-in-your-own-suite.md "Install").
 */
function copyPackage(name, dest, { declarations = false } = {}) {
  const from = fs.realpathSync(path.join(root, "node_modules", name));
  const skip = (rel) => (declarations && /\.d\.[cm]?ts$/.test(rel) ? false : never(rel));
  fs.cpSync(from, path.join(dest, "node_modules", name), { recursive: true, filter: (src) => !skip(path.relative(root, src)) });
}

/**
 * esbuild options shared by the packages' bundles (ESM for Node.js 20.9, the clone's tsconfig for `@/`): the sandbox's
 * modules and the `sandpiper` command (scripts/pack-clients.mjs).
 */
export const esbuildBase = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.9",
  tsconfig: path.join(root, "tsconfig.json"),
  // A CommonJS package inside the ESM bundle may call require() for Node's own modules.
  banner: { js: 'import { createRequire as __sandpiperRequire } from "node:module";\nconst require = __sandpiperRequire(import.meta.url);' },
  legalComments: "inline",
  logLevel: "warning",
};

/** The package's modules: the sandbox's process in app/, startSandpiper and the command at the package root. */
async function bundle(stage) {
  await build({
    ...esbuildBase,
    entryPoints: [path.join(sandboxDir, "src", "child.ts")],
    outfile: path.join(stage, "app", "sandbox-child.mjs"),
    // Loaded from app/node_modules: the database (its .wasm and .data files), Prisma's runtime (its query compiler), pg.
    external: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "@prisma/client", "@prisma/client/*", "pg", "pg-native"],
  });
  const toClient = {
    name: "sandpiper-client",
    setup(b) {
      b.onResolve({ filter: /typescript\/src\/index$/ }, () => ({ path: "./client/index.js", external: true }));
      b.onResolve({ filter: /^\.\/index$/ }, (args) => (args.importer.endsWith("cli.ts") ? { path: "./index.js", external: true } : undefined));
    },
  };
  await build({ ...esbuildBase, entryPoints: [path.join(sandboxDir, "src", "index.ts")], outfile: path.join(stage, "index.js"), plugins: [toClient] });
  // The same entry as CommonJS, for a test file that require()s the package (Jest's default configuration: its
  // module loader runs CommonJS only, docs/guides/test-in-your-own-suite.md "One sandbox for the run in Jest"). It
  // carries its own copy of the typed client (with openapi-fetch), since require() cannot load client/index.js (ESM)
  // in every test runner; its `import.meta.url` is this file's URL.
  await build({
    ...esbuildBase,
    format: "cjs",
    entryPoints: [path.join(sandboxDir, "src", "index.ts")],
    outfile: path.join(stage, "index.cjs"),
    banner: { js: 'const __sandpiperFileUrl = require("node:url").pathToFileURL(__filename).href;' },
    define: { "import.meta.url": "__sandpiperFileUrl" },
  });
  await build({ ...esbuildBase, entryPoints: [path.join(sandboxDir, "src", "cli.ts")], outfile: path.join(stage, "cli.js"), plugins: [toClient] });
  fs.writeFileSync(path.join(stage, "cli.js"), `#!/usr/bin/env node\n${fs.readFileSync(path.join(stage, "cli.js"), "utf8")}`, { mode: 0o755 });
  const types = fs.readFileSync(path.join(sandboxDir, "types", "index.d.ts"), "utf8").replace('"../../typescript/src/index"', '"../client/index.js"');
  fs.mkdirSync(path.join(stage, "types"), { recursive: true });
  fs.writeFileSync(path.join(stage, "types", "index.d.ts"), types);
  // The same declarations for the CommonJS entry (`require` condition): a .d.cts is read as CommonJS's types.
  fs.writeFileSync(path.join(stage, "types", "index.d.cts"), types);
}

/**
 * Migrates and seeds a new in-memory PGlite database (served on a loopback port for the Prisma CLI and the seed, as
 * `npm start` serves its embedded one) and writes its dump and what the seed printed into `dir`.
 * @returns the milliseconds each step took, for docs/benchmarks.md
 */
export async function prepareDatabase(dir) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const times = {};
  let t = performance.now();
  const lap = (name) => {
    times[name] = Math.round(performance.now() - t);
    t = performance.now();
  };
  const db = await PGlite.create();
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1", maxConnections: 8 });
  await server.start();
  lap("create");
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
  try {
    await migrate(url, { lockHeld: true });
    lap("migrate");
    const seeded = JSON.parse(await seed(url, ["--json"], { DB_POOL_MAX: "1", SANDPIPER_EMBEDDED: "1", SEED_CALLBACK_URL: "" }));
    await runAsync(process.execPath, ["--import", "tsx", path.join(sandboxDir, "src", "prepare.ts"), seeded.merchantId], {
      DATABASE_URL: url,
      DB_POOL_MAX: "1",
      SANDPIPER_EMBEDDED: "1",
    });
    lap("seed");
    fs.mkdirSync(dir, { recursive: true });
    const prepared = { merchantId: seeded.merchantId, keys: seeded.keys, users: seeded.users };
    fs.writeFileSync(path.join(dir, "seed.json"), `${JSON.stringify(prepared, null, 2)}\n`);
  } finally {
    await server.stop();
  }
  await db.query("CHECKPOINT");
  const dump = await db.dumpDataDir("gzip");
  fs.writeFileSync(path.join(dir, "seed.tar.gz"), Buffer.from(await dump.arrayBuffer()));
  await db.close();
  lap("dump");
  return times;
}

/** Runs a command in the clone without blocking this process (it serves the database the command uses). */
function runAsync(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(undefined) : reject(new Error(`${path.basename(args[2] ?? cmd)} failed with exit code ${code}`))));
  });
}

/** The package.json of the tarball (without the prepack script: the staged files are built already). */
function packageJson(version) {
  const pkg = JSON.parse(fs.readFileSync(path.join(sandboxDir, "package.json"), "utf8"));
  return { ...pkg, version, scripts: undefined };
}

/**
 * What a built package folder holds (the package.json's main, types, bin and exports name files among these): checked
 * after each build, and by test/unit/npm-pack.test.ts against the package.json.
 */
export const SANDBOX_BUILT = [
  "dist/index.js",
  "dist/index.cjs",
  "dist/cli.js",
  "dist/types/index.d.ts",
  "dist/types/index.d.cts",
  "dist/app/sandbox-child.mjs",
  "dist/app/server.mjs",
  "dist/client/index.js",
  "dist/db/seed.json",
  "dist/db/seed.tar.gz",
];

/**
 * Builds the package's files into `<dir>/dist` (what package.json's `files` names besides README.md and LICENSE): the
 * production build first when stale. `clientDir`: clients/typescript with its dist built.
 * @throws Error when the build, a trace or the database preparation fails, or a file of {@link SANDBOX_BUILT} is missing
 */
export async function buildSandbox(dir, clientDir) {
  if (!isBuildCurrent(root)) {
    const built = spawnSync(process.execPath, [path.join(root, "scripts", "build.mjs")], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
    if (built.status !== 0) throw new Error("the production build failed");
  }
  const dist = path.join(dir, "dist");
  fs.rmSync(dist, { recursive: true, force: true });
  fs.mkdirSync(dist, { recursive: true });
  await bundle(dist);
  const traced = await traceEntries([path.join(root, "server.mjs"), path.join(dist, "app", "sandbox-child.mjs")]);
  for (const file of nextTraces()) traced.add(file);
  copyApp(traced, path.join(dist, "app"));
  for (const name of ["@electric-sql/pglite", "@electric-sql/pglite-socket"]) copyPackage(name, path.join(dist, "app"));
  fs.cpSync(path.join(clientDir, "dist"), path.join(dist, "client"), { recursive: true });
  for (const name of ["openapi-fetch", "openapi-typescript-helpers"]) copyPackage(name, path.join(dist, "client"), { declarations: true });
  await prepareDatabase(path.join(dist, "db"));
  const missing = SANDBOX_BUILT.filter((file) => !fs.existsSync(path.join(dir, file)));
  if (missing.length > 0) throw new Error(`the sandbox build made no ${missing.join(", ")}`);
}

/**
 * Builds @sandpiper/sandbox `version` into a tarball in `out`. `clientDir`: clients/typescript with its dist built.
 * @returns the tarball's absolute path
 * @throws Error when the build, a trace or the database preparation fails
 */
export async function packSandbox(out, version, clientDir) {
  // A tarball packed from the same inputs before is reused (a test run packs once).
  const inputs = isBuildCurrent(root) ? sandboxInputsHash() : null;
  const cached = inputs && path.join(root, "node_modules", ".cache", "sandpiper-sandbox", `${version}-${inputs}.tgz`);
  const tarball = path.join(out, `sandpiper-sandbox-${version}.tgz`);
  const reuse = () => {
    fs.mkdirSync(out, { recursive: true });
    fs.copyFileSync(cached, tarball);
    return tarball;
  };
  if (cached && fs.existsSync(cached)) return reuse();
  // One process packs the same inputs at a time (test files of one run start side by side): the others wait for its
  // tarball instead of packing it again beside it.
  const release = cached ? await packLock(`${cached}.lock`, "the sandbox tarball another process is packing") : () => undefined;
  try {
    if (cached && fs.existsSync(cached)) return reuse();
    return await packAnew(out, version, clientDir);
  } finally {
    release();
  }
}

/**
 * Takes the lock file `file` (created exclusively, holding this process's pid), waiting while a live process holds it;
 * a lock left by a process that is gone is taken over. While it waits it says so once on stderr:
 * `waiting for <what>: process <pid> holds <file>`.
 * @returns the function that gives it back
 */
export async function packLock(file, what = "another pack") {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let said = false;
  let emptyPolls = 0;
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      return () => fs.rmSync(file, { force: true });
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    let holder;
    try {
      holder = Number(fs.readFileSync(file, "utf8")) || 0;
    } catch (error) {
      if (error.code === "ENOENT") continue; // given back between the two calls
      throw error;
    }
    // An empty lock file is being written by its taker this instant; one that stays empty was left by a crash.
    emptyPolls = holder === 0 ? emptyPolls + 1 : 0;
    if (holder === 0 ? emptyPolls > 3 : !processAlive(holder)) {
      fs.rmSync(file, { force: true });
      continue;
    }
    if (!said && holder !== 0) process.stderr.write(`waiting for ${what}: process ${holder} holds ${file}\n`);
    said ||= holder !== 0;
    // waits on purpose: another process is packing; its lock file going away is what is awaited, polled each second
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** Whether a process with id `pid` runs (signal 0 checks without sending anything). */
function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM"; // it runs, as another user
  }
}

/** Packs the sandbox tarball from scratch into `out` (see {@link packSandbox}); keeps a copy for reuse. */
async function packAnew(out, version, clientDir) {
  const stage = path.join(out, ".stage", "sandbox");
  fs.rmSync(stage, { recursive: true, force: true });
  fs.mkdirSync(stage, { recursive: true });
  await buildSandbox(stage, clientDir);
  for (const name of ["README.md", "LICENSE"]) fs.copyFileSync(path.join(sandboxDir, name), path.join(stage, name));
  fs.writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(packageJson(version), null, 2)}\n`);
  const json = execFileSync("npm", ["pack", "--json", "--pack-destination", out], {
    cwd: stage,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
  fs.rmSync(path.join(out, ".stage"), { recursive: true, force: true });
  const packed = path.join(out, JSON.parse(json)[0].filename);
  const kept = path.join(root, "node_modules", ".cache", "sandpiper-sandbox", `${version}-${sandboxInputsHash()}.tgz`);
  fs.mkdirSync(path.dirname(kept), { recursive: true });
  // Written whole under another name first: a process that finds the kept tarball finds it complete.
  fs.copyFileSync(packed, `${kept}.${process.pid}`);
  fs.renameSync(`${kept}.${process.pid}`, kept);
  return packed;
}

/** A hash of what a sandbox tarball is made from, for a test run that packs once and reuses it (hex). */
export function sandboxInputsHash() {
  const hash = createHash("sha256");
  for (const file of [".next/BUILD_ID", ".next/sandpiper-build-stamp"])
    if (fs.existsSync(path.join(root, file))) hash.update(fs.readFileSync(path.join(root, file)));
  for (const dir of [
    "clients/sandbox/src",
    "clients/sandbox/types",
    "clients/sandbox/package.json",
    "clients/sandbox/README.md",
    "clients/typescript/src",
    "prisma/migrations",
    "prisma/seed.ts",
    "scripts/pack-sandbox.mjs",
    "server.mjs",
  ]) {
    const full = path.join(root, dir);
    const files = fs.statSync(full).isDirectory()
      ? fs
          .readdirSync(full, { recursive: true })
          .map((f) => path.join(dir, f))
          .sort()
      : [dir];
    for (const file of files) if (fs.statSync(path.join(root, file)).isFile()) hash.update(file).update(fs.readFileSync(path.join(root, file)));
  }
  return hash.digest("hex").slice(0, 16);
}
