import { describe, expect, it } from "vitest";
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { TEST_DATABASE_URL } from "../support/env";
import { waitUntil } from "../../scripts/harness/wait";
import { spawnCollected, waitForOutput } from "../../scripts/harness/process";

const root = path.resolve(__dirname, "../..");

/** Runs a command to its exit; resolves with the exit code and the combined output. */
function run(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, DATABASE_URL: TEST_DATABASE_URL, NEXT_TELEMETRY_DISABLED: "1", ...env } });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`still running after ${timeoutMs} ms: ${output}`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** A developer's environment for a start on `databaseUrl` at `port`: NODE_ENV, loopback and npm's own variables unset. */
function startEnv(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    NEXT_TELEMETRY_DISABLED: "1",
    LOG_LEVEL: "warn",
    NEXTAUTH_SECRET: "local-test-secret-of-32-bytes-at-least",
  };
  for (const name of Object.keys(env)) if (name === "NODE_ENV" || name === "CALLBACK_ALLOW_LOOPBACK" || name.startsWith("npm_")) delete env[name];
  return env;
}

/** Spawns `cmd args` in the repository; `running()` resolves once it prints "Sandpiper is running" (rejects if it exits first). */
function launch(cmd: string, args: string[], env: NodeJS.ProcessEnv) {
  const started = spawnCollected(cmd, args, { cwd: root, env });
  const child = started.child;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  async function running() {
    await waitForOutput(started, /Sandpiper is running/, { what: `${cmd} ${args.join(" ")} to come up`, timeoutMs: 90_000 });
  }
  async function stop() {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    return exited;
  }
  return { child, output: started.output, running, stop, exited };
}

/** A recreated test database named after the suite's with `suffix`, and a free port: a start of its own. */
async function freshStart(suffix: string): Promise<{ url: string; port: number }> {
  const { freePort } = await import("../../scripts/db.mjs");
  const { recreateDatabase } = await import("../support/global-setup");
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `${url.pathname}${suffix}`;
  await recreateDatabase(url.toString());
  return { url: url.toString(), port: await freePort() };
}

const UNSAFE = { CALLBACK_ALLOW_LOOPBACK: "1", NODE_ENV: "production", PORT: "0" };
const MESSAGE =
  /refuses to start: CALLBACK_ALLOW_LOOPBACK=1 is (not allowed|refused) when NODE_ENV=production.*npm run start:local.*run `sandpiper listen --forward-to <local address>` there \(docs\/guides\/command-line\.md "The sandpiper command"\)/s;

describe("the service refuses CALLBACK_ALLOW_LOOPBACK=1 with NODE_ENV=production", () => {
  it("node server.mjs exits 1 with a clear message", async () => {
    const { code, output } = await run(["server.mjs"], UNSAFE);
    expect(code).toBe(1);
    expect(output).toMatch(MESSAGE);
    expect(output).not.toMatch(/listening/);
  });

  it("npm start (scripts/start.mjs) exits 1 before building or migrating", async () => {
    const { code, output } = await run(["scripts/start.mjs", "--no-build"], UNSAFE);
    expect(code).toBe(1);
    expect(output).toMatch(MESSAGE);
  });

  it("next start: the instrumentation hook exits 1 with a clear message", async () => {
    const { code, output } = await run([path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", "0", "-H", "127.0.0.1"], UNSAFE);
    expect(code).toBe(1);
    expect(output).toMatch(MESSAGE);
  });
});

describe("a value lib/platform/config.ts refuses stops the start with one line", () => {
  const refusalLines = (output: string) => output.split("\n").filter((line) => line.includes("refuses to start"));

  it("node server.mjs with DELIVERY_POLL_INTERVAL_MS=abc exits 1 naming the variable, the value and what it accepts", async () => {
    const { code, output } = await run(["server.mjs"], { DELIVERY_POLL_INTERVAL_MS: "abc", PORT: "0" });
    expect(code).toBe(1);
    expect(refusalLines(output)).toEqual([
      'Sandpiper refuses to start: DELIVERY_POLL_INTERVAL_MS: got "abc"; expected a whole number of milliseconds from 50 to 60000',
    ]);
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toMatch(/listening/);
  });

  it("npm start (scripts/start.mjs) exits 1 with the same line before building or migrating", async () => {
    const { code, output } = await run(["scripts/start.mjs", "--no-build"], { DELIVERY_POLL_INTERVAL_MS: "abc", PORT: "0" });
    expect(code).toBe(1);
    expect(refusalLines(output)).toEqual([
      'Sandpiper refuses to start: DELIVERY_POLL_INTERVAL_MS: got "abc"; expected a whole number of milliseconds from 50 to 60000',
    ]);
    expect(output).not.toMatch(/migrat|Embedded database/i);
  });

  it("node server.mjs with PORT=abc exits 1 naming PORT, the value and what it accepts, before Next.js loads", async () => {
    const { code, output } = await run(["server.mjs"], { PORT: "abc" });
    expect(code).toBe(1);
    expect(refusalLines(output)).toEqual(['Sandpiper refuses to start: PORT: got "abc"; expected a port number from 0 to 65535']);
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toMatch(/listening/);
  });

  it("node server.mjs with SANDPIPER_WORKERS=65 exits 1 with the configuration's line for it", async () => {
    const { code, output } = await run(["server.mjs"], { SANDPIPER_WORKERS: "65", PORT: "0" });
    expect(code).toBe(1);
    expect(refusalLines(output)).toEqual([
      'Sandpiper refuses to start: SANDPIPER_WORKERS: got "65"; expected a whole number of processes from 1 to 64, or "auto"',
    ]);
  });

  it("a refused secret is named without its value", async () => {
    const { code, output } = await run(["server.mjs"], { REDIS_URL: "http://:pa55word@redis:6379", PORT: "0" });
    expect(code).toBe(1);
    expect(refusalLines(output)).toEqual([
      "Sandpiper refuses to start: REDIS_URL: got an invalid value (not shown: it is a secret); expected an absolute redis or rediss URL",
    ]);
    expect(output).not.toContain("pa55word");
  });
});

describe("npm run start:local", () => {
  it("serves with loopback callback receivers allowed (NODE_ENV=development), for local work on the service", async () => {
    const { url, port } = await freshStart("_local");
    // start:local sets NODE_ENV and CALLBACK_ALLOW_LOOPBACK itself.
    const started = launch(process.execPath, ["scripts/start.mjs", "--local", "--no-build"], startEnv(url, port));
    try {
      await started.running();
      expect(started.output()).toMatch(/Local development: callbacks may go to http:\/\/localhost receivers/);
      const { PrismaPg } = await import("@prisma/adapter-pg");
      const { PrismaClient } = await import("@/lib/platform/generated/prisma/client");
      const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 1 }) });
      try {
        expect(await db.merchant.count()).toBeGreaterThan(0);
      } finally {
        await db.$disconnect();
      }
      expect((await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).status).toBe(200);
    } finally {
      await started.stop();
    }
  }, 120_000);
});

/** Every process below `pid` (children, their children, ...), from `ps`. */
function descendants(pid: number): number[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  for (let frontier = [pid]; frontier.length > 0;) {
    frontier = rows.flatMap(([child, ppid]) => (child !== undefined && ppid !== undefined && frontier.includes(ppid) ? [child] : []));
    found.push(...frontier);
  }
  return found;
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("npm run start:local and a SIGTERM to npm", () => {
  it("stops the server: the port stops answering and no process started by npm remains", async () => {
    const { url, port } = await freshStart("_npmlocal");
    const base = `http://127.0.0.1:${port}`;
    // What a developer types (the suite has built the service, so --no-build), and what a supervisor or Ctrl-C sends.
    const npm = launch("npm", ["run", "start:local", "--", "--no-build"], startEnv(url, port));
    let started: number[] = [];
    try {
      await npm.running();
      expect((await fetch(`${base}/v1/openapi.json`)).status).toBe(200);
      started = descendants(npm.child.pid!);
      expect(started.length, "npm started the server").toBeGreaterThan(0);
      void npm.stop();
      await waitUntil(() => npm.child.exitCode !== null || npm.child.signalCode !== null, { what: "npm to exit after SIGTERM", timeoutMs: 20_000 });
      await waitUntil(() => !started.some(alive), { what: "the processes npm started to end", timeoutMs: 15_000, intervalMs: 200 }).catch(() => undefined);
      expect(started.filter(alive), `processes left running: ${npm.output()}`).toEqual([]);
      const answer = await fetch(`${base}/v1/openapi.json`, { signal: AbortSignal.timeout(2_000) }).then(
        (r) => r.status,
        () => "no answer",
      );
      expect(answer, "the port stopped answering").toBe("no answer");
    } finally {
      for (const pid of [npm.child.pid!, ...started]) if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  }, 120_000);
});

describe("a DATABASE_URL that names a database that does not exist", () => {
  /** `url` with the database `name`, and `user` when given. */
  const withDatabase = (name: string, user?: string) => {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    if (user) url.username = user;
    return url.toString();
  };
  const missing = `${new URL(TEST_DATABASE_URL).pathname.slice(1)}_missing_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: withDatabase("postgres") });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  it("is created when the role may create databases (one line says so), then migrated, seeded and served", async () => {
    await admin(`DROP DATABASE IF EXISTS "${missing}" WITH (FORCE)`);
    const { freePort } = await import("../../scripts/db.mjs");
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-created-"));
    const started = launch(process.execPath, ["scripts/start.mjs", "--no-build"], {
      ...startEnv(withDatabase(missing), port),
      NODE_ENV: "production",
      SANDPIPER_DATA_DIR: dataDir,
    });
    try {
      await started.running();
      expect(started.output().match(/^Created the database .*$/gm)).toEqual([
        `Created the database "${missing}" on 127.0.0.1:5432 (DATABASE_URL named a database that did not exist); migrating it now.`,
      ]);
      // Under NODE_ENV=production outside a terminal the seeded keys go to a file (docs/operating.md "Credentials of the first start").
      expect(started.output()).not.toMatch(/sk_sandbox_/);
      expect(fs.readFileSync(path.join(dataDir, "seeded-credentials.txt"), "utf8")).toMatch(/API key \(all scopes\) sk_sandbox_/);
      expect((await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).status).toBe(200);
    } finally {
      expect(await started.stop()).toBe(0);
      await admin(`DROP DATABASE IF EXISTS "${missing}" WITH (FORCE)`);
    }
  }, 120_000);

  it("otherwise: npm start and npm run db:migrate print one line with what to run and exit 1, without a stack trace", async () => {
    const role = `sp_nocreatedb_${process.pid}`;
    await admin(`DROP ROLE IF EXISTS ${role}`);
    await admin(`CREATE ROLE ${role} LOGIN NOCREATEDB`);
    try {
      const url = withDatabase(missing, role).replace(`${role}@`, `${role}:not-a-secret-to-print@`);
      for (const script of [["scripts/start.mjs", "--no-build"], ["scripts/migrate.mjs"]]) {
        const { code, output } = await run(script, { DATABASE_URL: url, PORT: "0", NODE_ENV: "production", CALLBACK_ALLOW_LOOPBACK: "" });
        expect(code, output).toBe(1);
        const lines = output.split("\n").filter((l) => l.trim() && !/^npm warn/.test(l));
        expect(lines, output).toEqual([
          `Sandpiper cannot use DATABASE_URL: the database "${missing}" does not exist on 127.0.0.1:5432, and role "${role}" may not create databases. ` +
            `Create it as a role that may create databases, then start again: createdb -h 127.0.0.1 -p 5432 -U postgres -O ${role} ${missing} ` +
            `(or in SQL: CREATE DATABASE "${missing}" OWNER "${role}";)`,
        ]);
        expect(output).not.toMatch(/^\s+at /m);
        expect(output).not.toContain("not-a-secret-to-print");
      }
    } finally {
      await admin(`DROP ROLE IF EXISTS ${role}`);
    }
  });
});
