import type { TestProject } from "vitest/node";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { assertLocalDatabase, TEST_DATABASE_URL } from "./env";

// Integration tests run over real HTTP against the built service on real PostgreSQL.
const root = path.resolve(__dirname, "../..");

/**
 * Refuses to test an old build: the integration and browser tests call the built service over HTTP but import the
 * current lib/ directly, so a build older than the sources would test code that is not the one in the tree.
 * @throws Error with one line naming the build and the newer sources (scripts/build-stamp.mjs `staleBuildReason`)
 */
export async function assertBuildCurrent(): Promise<void> {
  const { staleBuildReason } = await import("../../scripts/build-stamp.mjs");
  const reason = staleBuildReason(root);
  if (reason) throw new Error(`tests refuse to run against this build: ${reason}`);
}

/** Drops and creates the database of `url` (a local test database). */
export async function recreateDatabase(url: string) {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
}

export type StartedService = { url: string; child: ChildProcess; port: number; output: string[] };

/**
 * Starts `node server.mjs` with the given env; resolves once it answers. NODE_ENV is "test" unless given:
 * the built service refuses CALLBACK_ALLOW_LOOPBACK=1 under NODE_ENV=production, and the tests need loopback
 * receivers. With `capture`, stdout and stderr are collected line by line in `output` (for log assertions)
 * instead of being inherited. `port` reuses a port (a restarted service at the same address). `npmStart` starts
 * `scripts/start.mjs --no-build` instead (what `npm start` runs: it migrates and seeds in the serving process first).
 */
export async function startService(env: Record<string, string>, opts: { capture?: boolean; port?: number; npmStart?: boolean } = {}): Promise<StartedService> {
  const { freePort } = await import("../../scripts/db.mjs");
  const port = opts.port ?? (await freePort());
  const child = spawn(process.execPath, opts.npmStart ? ["scripts/start.mjs", "--no-build"] : ["server.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "test",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      // Console sessions: a fresh secret per test service (never the one kept in .data).
      NEXTAUTH_SECRET: randomBytes(32).toString("hex"),
      ...env,
    },
    stdio: opts.capture ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
  });
  const output: string[] = [];
  if (opts.capture) {
    for (const stream of [child.stdout!, child.stderr!]) {
      let partial = "";
      stream.setEncoding("utf8").on("data", (text: string) => {
        const lines = (partial + text).split("\n");
        partial = lines.pop() ?? "";
        output.push(...lines.filter((l) => l.length > 0));
      });
    }
  }
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/v1/health-check-probe`);
      if (res.status === 404) return { url, child, port, output };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("service did not start within 60 s");
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Stops a service started by startService (SIGTERM, then SIGKILL after `graceMs`); resolves with its exit code. */
export async function stopService(child: ChildProcess, graceMs = 15_000): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

let service: ChildProcess | undefined;

export default async function setup(project: TestProject) {
  assertLocalDatabase(TEST_DATABASE_URL);
  await assertBuildCurrent();
  const { migrate, seed } = await import("../../scripts/db.mjs");
  await recreateDatabase(TEST_DATABASE_URL);
  await migrate(TEST_DATABASE_URL);
  // The seed gives the shared parts (bank account, today's USD->AED rate, catalog) and proves npm run seed.
  const seeded = JSON.parse(await seed(TEST_DATABASE_URL, ["--json"]));
  project.provide("seed", seeded);
  const started = await startService({
    DATABASE_URL: TEST_DATABASE_URL,
    CALLBACK_ALLOW_LOOPBACK: "1",
    TRUSTED_PROXIES: "127.0.0.1,::1",
    EXPIRY_SWEEP_INTERVAL_MS: "500",
    DELIVERY_POLL_INTERVAL_MS: "200",
    DB_POOL_MAX: "20",
  });
  service = started.child;
  project.provide("baseUrl", started.url);
  return async () => {
    service?.kill("SIGTERM");
    await new Promise((r) => service?.once("exit", r));
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    seed: {
      merchantId: string;
      secondMerchantId: string;
      keys: { full: string; readOnly: string; secondMerchant: string; amountEntry: string };
      users: Record<string, { username: string; password: string }>;
    };
  }
}
