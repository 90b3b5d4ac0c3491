// The process of one sandbox (docs/guides/test-in-your-own-suite.md "How it works"), started by startSandpiper
// (index.ts) over an IPC channel: the database prepared when the package was packed, written into a temporary folder (PGlite),
// served on a loopback port, and the built service (server.mjs) on another. It ends by itself when its parent
// goes away (the IPC channel or standard input closes, or it is handed to another parent process), so a test
// runner killed with SIGKILL leaves nothing running.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import pg from "pg";
import { checkedValues } from "@/lib/platform/config-values";
import { processState } from "@/lib/platform/process-state";
import type { ChildReply, ChildRequest, Prepared, ResolvedOptions, SandboxInfo } from "./protocol";

/** The package's folders: this file is `<package>/dist/app/sandbox-child.mjs`. */
const app = path.dirname(fileURLToPath(import.meta.url));
const packageRoot = path.dirname(app);
/** Where the sandbox keeps its copies of the seeded rows that reset() puts back. */
const SNAPSHOT_SCHEMA = "sandbox_snapshot";
/**
 * The jobs (lib/application/jobs/registry.ts) whose runs reset() need not wait for: each of their statements stands
 * alone (a fold of counters and a VACUUM, prunes, the seeded rates), so the reset's TRUNCATE just waits for the one
 * under way. Every other job claims rows and records its work on them later (a callback attempt, a conclusion, an
 * expiry, a handoff): its run under way ends before the tables are emptied. A job not named here is waited for.
 */
const STANDALONE_JOBS = new Set(["compact-payment-counts", "prune-risk-counters", "prune-request-log", "prune-events", "extend-seeded-rates"]);
/** The longest reset() waits for the job runs under way (ms): a callback attempt's timeout and a margin. */
const JOBS_IDLE_WAIT_MS = 6_000;

/** A free port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The file in a sandbox's temporary folder that names the process owning it (its pid, decimal). */
const OWNER_FILE = "owner.pid";
/** A folder without {@link OWNER_FILE} this old (ms) is left by an earlier version or a start that died at once. */
const UNOWNED_AFTER_MS = 60_000;

/** Whether a process of id `pid` runs (one of another user's counts). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the temporary folders of sandboxes whose process is gone (killed with SIGKILL, or the machine stopped, so its
 * exit hook never ran): `sandpiper-sandbox-*` folders whose owner file names no running process, or that have none
 * and are older than a minute. A folder another user owns, or that goes meanwhile, is left alone.
 */
function removeAbandonedFolders(): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!/^sandpiper-sandbox-[A-Za-z0-9]{6}$/.test(name)) continue;
    const dir = path.join(os.tmpdir(), name);
    try {
      const owner = fs.existsSync(path.join(dir, OWNER_FILE)) ? Number(fs.readFileSync(path.join(dir, OWNER_FILE), "utf8")) : null;
      const abandoned = owner === null ? Date.now() - fs.statSync(dir).mtimeMs > UNOWNED_AFTER_MS : !running(owner);
      if (abandoned) fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // another user's folder, or removed by another start meanwhile
    }
  }
}

/** This sandbox's temporary folder (the database's files), made on first use and removed when the process ends. */
let work: string | null = null;
function workDir(): string {
  if (!work) {
    removeAbandonedFolders();
    work = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-sandbox-"));
    fs.writeFileSync(path.join(work, OWNER_FILE), String(process.pid));
    const folder = work;
    process.once("exit", () => fs.rmSync(folder, { recursive: true, force: true }));
  }
  return work;
}

/**
 * Refuses a `port` that another process holds on 127.0.0.1, before anything starts, with what to do instead.
 * @throws Error "port N on 127.0.0.1 is in use by another process; pass `port: 0` or another port"
 */
async function refuseTakenPort(port: number): Promise<void> {
  const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    const probe = net.createServer();
    probe.once("error", resolve);
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(null)));
  });
  if (error?.code === "EADDRINUSE") throw new Error(`port ${port} on 127.0.0.1 is in use by another process; pass \`port: 0\` or another port`);
  if (error) throw new Error(`cannot listen on port ${port} of 127.0.0.1 (${error.code ?? error.message}); pass \`port: 0\` or another port`);
}

/**
 * Writes the files and folders of `tar` (an uncompressed ustar archive, as PGlite's dumpDataDir makes it: regular files
 * and folders with short names) under `dir`. Loaded into a folder on disk rather than into PGlite's memory (its
 * loadDataDir): a start then takes about half the CPU time and 120 MiB less memory (docs/benchmarks.md "Sandbox package").
 * @throws Error on an entry of another kind
 */
function extractTar(tar: Buffer, dir: string): void {
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const text = (from: number, length: number) => header.toString("latin1", from, from + length).replace(/\0.*$/s, "");
    const name = path.join(text(345, 155), text(0, 100));
    const size = parseInt(text(124, 12).trim() || "0", 8);
    const type = text(156, 1) || "0";
    const target = path.join(dir, name);
    if (!target.startsWith(dir)) throw new Error(`the database dump names a file outside its folder: ${name}`);
    if (type === "5") fs.mkdirSync(target, { recursive: true });
    else if (type === "0") {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, tar.subarray(at + 512, at + 512 + size));
    } else throw new Error(`the database dump has an entry of type ${type} (${name})`);
    at += 512 + Math.ceil(size / 512) * 512;
  }
}

/** Sends one reply to the parent; does nothing once the channel is gone. */
function reply(message: ChildReply): void {
  if (process.connected) process.send?.(message);
}

/** The sandbox's API and customer-page limits per address and per key, a window (a minute): out of a suite's reach. */
const SANDBOX_RATE_LIMIT = 1_000_000_000;

/**
 * The service's environment: only what the sandbox sets (nothing of the caller's environment reaches the service,
 * so a DATABASE_URL or PORT of the merchant's own project changes nothing).
 */
function serviceEnv(options: ResolvedOptions, databaseUrl: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TZ: process.env.TZ,
    NODE_ENV: "test",
    __NEXT_PRIVATE_STANDALONE_CONFIG: JSON.stringify(nextConfig()),
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: databaseUrl,
    SANDPIPER_EMBEDDED: "1",
    DB_POOL_MAX: "1",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: options.logLevel,
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    CALLBACK_ALLOW_LOOPBACK: "1",
    // A test suite sends every request from one address, thousands a minute: the API's limits per address and per key
    // and the customer pages' per address would answer it 429 (docs/guides/test-in-your-own-suite.md "Options",
    // what the sandbox permits that production refuses). A checkout link keeps its own limit.
    RATE_LIMIT_PER_IP: String(SANDBOX_RATE_LIMIT),
    RATE_LIMIT_PER_KEY: String(SANDBOX_RATE_LIMIT),
    CUSTOMER_RATE_LIMIT_PER_IP: String(SANDBOX_RATE_LIMIT),
    // Expiries and callbacks noticed within a fraction of a second, as the service's own tests run it.
    EXPIRY_SWEEP_INTERVAL_MS: "250",
    DELIVERY_POLL_INTERVAL_MS: "200",
    SCENARIO_POLL_INTERVAL_MS: "200",
    STORE_HANDOFF_POLL_INTERVAL_MS: "200",
  };
}

/**
 * The build's own configuration, as Next.js's standalone server passes it (next.config.mjs is not loaded again), with
 * one change: the routes' modules load when first asked for instead of all at start (a sandbox's tests use a few
 * routes; loading all of them took seconds of the start and memory it then kept).
 */
function nextConfig(): unknown {
  const { config } = JSON.parse(fs.readFileSync(path.join(app, ".next", "required-server-files.json"), "utf8")) as {
    config: { experimental?: Record<string, unknown> };
  };
  return { ...config, experimental: { ...config.experimental, preloadEntriesOnStart: false } };
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Copies the rows of every table that has any (the seeded state with this sandbox's callback address, fast retries
 * and scenario rules; every table but Prisma's migration record) into SNAPSHOT_SCHEMA, in one statement, and
 * returns the one statement reset() runs: every table emptied and the copies put back, in one transaction with
 * triggers and foreign keys off while it runs.
 */
async function takeSnapshot(client: pg.Client): Promise<string> {
  await client.query(`CREATE SCHEMA ${SNAPSHOT_SCHEMA}; DO $$
DECLARE t text; n bigint;
BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' LOOP
    EXECUTE format('SELECT count(*) FROM public.%I', t) INTO n;
    IF n > 0 THEN EXECUTE format('CREATE TABLE ${SNAPSHOT_SCHEMA}.%I AS TABLE public.%I', t, t); END IF;
  END LOOP;
END $$`);
  const { rows } = await client.query<{ name: string; kept: boolean }>(
    `SELECT p.tablename AS name, s.tablename IS NOT NULL AS kept FROM pg_tables p
       LEFT JOIN pg_tables s ON s.schemaname = '${SNAPSHOT_SCHEMA}' AND s.tablename = p.tablename
      WHERE p.schemaname = 'public' AND p.tablename <> '_prisma_migrations' ORDER BY p.tablename`,
  );
  return [
    "BEGIN",
    "SET LOCAL session_replication_role = replica",
    `TRUNCATE ${rows.map((t) => `public.${ident(t.name)}`).join(", ")}`,
    ...rows.filter((t) => t.kept).map((t) => `INSERT INTO public.${ident(t.name)} SELECT * FROM ${SNAPSHOT_SCHEMA}.${ident(t.name)}`),
    "COMMIT",
  ].join(";\n");
}

/** One call of the sandbox's own API as its merchant (`PUT`/`POST` with a JSON body and an Idempotency-Key). */
async function call(info: SandboxInfo, method: string, route: string, body?: unknown): Promise<void> {
  const res = await fetch(info.url + route, {
    method,
    headers: {
      authorization: `Bearer ${info.apiKey}`,
      "content-type": "application/json",
      "idempotency-key": `sandbox-start-${randomBytes(8).toString("hex")}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
}

/** Starts the sandbox as `options` say and tells the parent; afterwards answers its requests until it stops. */
async function start(options: ResolvedOptions): Promise<void> {
  if (options.port !== 0) await refuseTakenPort(options.port);
  const prepared = JSON.parse(fs.readFileSync(path.join(packageRoot, "db", "seed.json"), "utf8")) as Prepared;
  const dataDir = path.join(workDir(), "pglite");
  extractTar(zlib.gunzipSync(fs.readFileSync(path.join(packageRoot, "db", "seed.tar.gz"))), dataDir);
  // Smaller buffers than PostgreSQL's defaults: a test sandbox holds little data, and each one is a process of its own.
  const db = await PGlite.create({ dataDir, relaxedDurability: true, postgresqlconf: ["shared_buffers = 16MB", "wal_buffers = 1MB"] });
  const dbPort = await freePort();
  const dbServer = new PGLiteSocketServer({ db, port: dbPort, host: "127.0.0.1", maxConnections: 8 });
  await dbServer.start();
  const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres?sslmode=disable`;
  const port = options.port === 0 ? await freePort() : options.port;
  process.env = serviceEnv(options, databaseUrl, port);
  const url = `http://127.0.0.1:${port}`;

  let callbackSecret: string | null = null;
  if (options.callbackUrl) {
    // Loaded only here: most of a start's time is loading modules.
    const [{ PrismaPg }, { PrismaClient }, { setCallbackUrl }] = await Promise.all([
      import("@prisma/adapter-pg"),
      import("@/lib/platform/generated/prisma/client"),
      import("@/lib/domain/callbacks/callback-config"),
    ]);
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max: 1 }) });
    try {
      callbackSecret = (await setCallbackUrl(prisma, { merchantId: prepared.merchantId, url: options.callbackUrl })).secret;
    } finally {
      await prisma.$disconnect();
    }
  }

  // The bearer token of POST /v1/sandbox/merchants, new at each start; the route answers 404 in any process without one.
  const sandboxToken = `sbt_${randomBytes(32).toString("base64url")}`;
  processState().sandboxToken = sandboxToken;
  const server = await import(/* webpackIgnore: true */ path.join(app, "server.mjs"));
  server.useConfigCheck(checkedValues);
  const service = await server.startServer({ port, hostname: "127.0.0.1" });
  const info: SandboxInfo = {
    url,
    apiKey: prepared.keys.full,
    keys: prepared.keys,
    merchantId: prepared.merchantId,
    callbackSecret,
    sandboxToken,
    console: { url: `${url}/console`, users: prepared.users },
  };
  // The packed database has fast retries on (clients/sandbox/src/prepare.ts).
  if (!options.fastRetries) await call(info, "PUT", "/v1/sandbox/settings", { fastRetries: false });
  if (options.scenarioRules === "standard") await call(info, "POST", "/v1/sandbox/scenario-rules/standard");

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const resetStatement = await takeSnapshot(client);

  /**
   * Empties the tables and puts the start's rows back, with the job driver paused and the runs under way of the jobs
   * that claim rows ended first (at most a callback's 5 s timeout): a run that had claimed a row the reset removes
   * would fail recording it.
   */
  const reset = async () => {
    const state = processState();
    state.jobsPaused = true;
    try {
      const claiming = (state.jobStates ?? []).filter((job) => !STANDALONE_JOBS.has(job.id)).map((job) => job.running);
      await Promise.race([Promise.all(claiming), new Promise((resolve) => setTimeout(resolve, JOBS_IDLE_WAIT_MS))]);
      await client.query(resetStatement);
    } finally {
      state.jobsPaused = false;
    }
  };

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      // The test that stops its sandbox sends nothing more: its kept-alive connections close now rather than after the
      // service's drain wait for an idle connection (docs/operating.md "Stopping"), so stop() takes well under a second.
      service.server.closeIdleConnections();
      await service.close();
      await client.end().catch(() => {});
      await dbServer.stop();
      await db.close();
    })());
  process.on("message", async (message: ChildRequest) => {
    try {
      if (message.type === "reset") await reset();
      if (message.type === "stop") await stop();
      reply({ type: "done", id: message.id });
    } catch (error) {
      reply({ type: "failed", id: message.id, message: error instanceof Error ? error.message : String(error) });
    }
    if (message.type === "stop") process.exit(0);
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void stop().finally(() => process.exit(0)));
  // The dump's copies and the start's garbage go before the tests begin (the process runs with --expose-gc).
  (globalThis as { gc?: () => void }).gc?.();
  reply({ type: "ready", info });
}

/**
 * Ends this process as soon as the process that started it is gone: the IPC channel closes (also when the parent
 * was killed with SIGKILL), standard input reaches its end, or the parent process id changes.
 */
function endWithParent(): void {
  const parent = process.ppid;
  const end = () => process.exit(0);
  process.on("disconnect", end);
  process.stdin.on("end", end).on("close", end).resume();
  setInterval(() => process.ppid !== parent && end(), 500).unref();
}

endWithParent();
process.once("message", (message: ChildRequest) => {
  if (message.type !== "start") return;
  start(message.options).catch((error: unknown) => {
    reply({ type: "failed", id: 0, message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  });
});
