// The built service as the tests and the benchmarks drive it from outside (docs/architecture.md "Layout",
// scripts/harness/): a database dropped and created, migrated and seeded, and `node server.mjs` started on a free
// port and stopped. The integration tests (test/support/global-setup.ts), the browser specs and bench/ import it;
// it imports nothing of test/ or bench/.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { waitUntil } from "./wait";

const root = path.resolve(__dirname, "../..");

/** Drops and creates the database of `url` (a local test or benchmark database; the caller checks it is local). */
export async function recreateDatabase(url: string): Promise<void> {
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

/** What `npm run seed -- --json` prints: the seeded merchants, their API keys and the console users. */
export type Seeded = {
  merchantId: string;
  secondMerchantId: string;
  keys: { full: string; readOnly: string; secondMerchant: string; amountEntry: string };
  users: Record<string, { username: string; password: string }>;
};

/**
 * Recreates the database of `url`, migrates it and seeds it (as `npm run seed -- --json`).
 * @returns what the seed printed: its merchants, keys and users
 */
export async function freshSeededDatabase(url: string): Promise<Seeded> {
  const { migrate, seed } = await import("../db.mjs");
  await recreateDatabase(url);
  await migrate(url);
  return JSON.parse(await seed(url, ["--json"])) as Seeded;
}

export type StartedService = { url: string; child: ChildProcess; port: number; output: string[] };

/**
 * Starts `node server.mjs` with the given env; resolves once it answers. NODE_ENV is "test" unless given:
 * the built service refuses CALLBACK_ALLOW_LOOPBACK=1 under NODE_ENV=production, and the tests need loopback
 * receivers. With `capture`, stdout and stderr are collected line by line in `output` (for log assertions)
 * instead of being inherited. `port` reuses a port (a restarted service at the same address). `npmStart` starts
 * `scripts/start.mjs --no-build` instead (what `npm start` runs: it migrates and seeds in the serving process first).
 * @throws Error when the process exits first, or does not answer within 60 s
 */
export async function startService(env: Record<string, string>, opts: { capture?: boolean; port?: number; npmStart?: boolean } = {}): Promise<StartedService> {
  const { freePort } = await import("../db.mjs");
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
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`service exited with code ${child.exitCode}`);
      const res = await fetch(`${url}/v1/health-check-probe`).catch(() => null); // null: not listening yet
      return res?.status === 404;
    },
    { what: "the service to answer", timeoutMs: 60_000, intervalMs: 200 },
  );
  return { url, child, port, output };
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
