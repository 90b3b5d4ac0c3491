import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { TEST_DATABASE_URL } from "../support/env";
import { present } from "../../scripts/harness/present";

// docs/operating.md "Start-up failures": a start that cannot work ends within seconds with one line that says why
// and what to do, exit code 1 and no stack trace, before anything is built, migrated or seeded. Each case starts the
// real `npm start` (node scripts/start.mjs; the suite has built the service).

const root = path.resolve(__dirname, "../..");

/** `node scripts/start.mjs` with `env` to its exit: the exit code, what it printed on stderr and stdout, how long it took. */
function start(env: Record<string, string | undefined>) {
  return runScript(["scripts/start.mjs", "--no-build"], env);
}

/** `node <args>` (a script of scripts/) with `env` to its exit, as {@link start}. */
function runScript(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stderr: string; stdout: string; ms: number }> {
  const full: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "warn", ...env };
  for (const name of ["CALLBACK_ALLOW_LOOPBACK", "DB_POOL_MAX", "SANDPIPER_EMBEDDED", "JOBS_DISABLED"]) delete full[name];
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete full[name];
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env: full });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`still running after 30 s: ${stdout}${stderr}`));
    }, 30_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout, ms: Date.now() - started });
    });
  });
}

/**
 * The run ended as a refusal should: exit 1 promptly, stderr exactly `line`, no stack trace, nothing migrated. About
 * 1 s on an idle machine (docs/benchmarks.md "Restart"); the bound is 30 s so that a loaded test machine (several
 * test files starting processes at once) does not fail it, while a start that hangs still does.
 */
function expectOneLine(run: Awaited<ReturnType<typeof start>>, line: string | RegExp) {
  const lines = run.stderr.split("\n").filter((l) => l.trim());
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(lines).toHaveLength(1);
  if (typeof line === "string") expect(lines[0]).toBe(line);
  else expect(lines[0]).toMatch(line);
  expect(run.stdout + run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stdout).not.toMatch(/migrat|Seeded|Embedded database/i);
  expect(run.ms, "exit within 30 s").toBeLessThan(30_000);
}

const url = (mutate: (u: URL) => void) => {
  const u = new URL(TEST_DATABASE_URL);
  mutate(u);
  return u.toString();
};

describe("a start that cannot work ends with one line and exit code 1 at once", () => {
  it("the port is in use: names the port and how to pick another", async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const run = await start({ DATABASE_URL: TEST_DATABASE_URL, PORT: String(port) });
      expectOneLine(
        run,
        `Sandpiper cannot start: port ${port} on 127.0.0.1 is in use by another process. Stop that process, or pick another port: PORT=<port> npm start (PORT=0 takes any free port and prints it).`,
      );
    } finally {
      holder.close();
    }
  }, 40_000);

  it("a second start on an embedded data folder that a process holds: names that process; a crashed holder leaves nothing stuck", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-lock-"));
    // The holder: another process that took the folder the way npm start does (scripts/db.mjs lockEmbeddedFolder).
    const holder = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { lockEmbeddedFolder } = await import("./scripts/db.mjs"); await lockEmbeddedFolder(process.argv[1]); console.log("held"); setInterval(() => {}, 1000);`,
        path.join(dataDir, "pglite"),
      ],
      { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      await new Promise<void>((resolve) => holder.stdout!.once("data", () => resolve()));
      const run = await start({ DATABASE_URL: undefined, SANDPIPER_DATA_DIR: dataDir, PORT: "0" });
      expectOneLine(
        run,
        new RegExp(
          `^Sandpiper cannot start: the embedded database in ${path.join(dataDir, "pglite").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is in use by process ${holder.pid} \\(node, running since \\S+\\)\\. Stop that process first, or give this one its own folder \\(SANDPIPER_DATA_DIR=<folder>\\) or PostgreSQL \\(DATABASE_URL\\)\\.$`,
        ),
      );
      expect(fs.existsSync(path.join(dataDir, "embedded-db.json")), "the refused start announced nothing").toBe(false);
    } finally {
      const exited = new Promise((resolve) => holder.once("exit", resolve));
      holder.kill("SIGKILL"); // a crash: no clean-up runs
      await exited;
    }
    const { lockEmbeddedFolder } = await import("../../scripts/db.mjs");
    const lock = await lockEmbeddedFolder(path.join(dataDir, "pglite"));
    await lock.release();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 40_000);

  it("nothing listens at the database's address: names host, port and database", async () => {
    const { freePort } = await import("../../scripts/db.mjs");
    const port = await freePort();
    const run = await start({ DATABASE_URL: url((u) => (u.port = String(port))), PORT: "0" });
    const name = new URL(TEST_DATABASE_URL).pathname.slice(1);
    expectOneLine(
      run,
      `Sandpiper cannot use DATABASE_URL: nothing accepts connections on 127.0.0.1:${port} (database "${name}"). Start PostgreSQL there, or correct the host and port in DATABASE_URL.`,
    );
  }, 40_000);

  it("an unknown role (with a password that is never printed): names host, port, database and role", async () => {
    const role = `sp_no_such_role_${process.pid}`;
    const run = await start({
      DATABASE_URL: url((u) => {
        u.username = role;
        u.password = "not-a-secret-to-print";
      }),
      PORT: "0",
    });
    const name = new URL(TEST_DATABASE_URL).pathname.slice(1);
    expectOneLine(
      run,
      `Sandpiper cannot use DATABASE_URL: PostgreSQL on 127.0.0.1:5432 has no role "${role}" (database "${name}"). Correct the user in DATABASE_URL, or create the role: createuser -h 127.0.0.1 -p 5432 -U postgres --login ${role}`,
    );
    expect(run.stdout + run.stderr).not.toContain("not-a-secret-to-print");
  }, 40_000);
});

describe('docs/operating.md "Refused settings": unsafe or silently-off settings stop the start with one line', () => {
  it("INNGEST_DEV under NODE_ENV=production, an event key without a signing key, a short NEXTAUTH_SECRET or METRICS_TOKEN", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ INNGEST_DEV: "1" }, "Sandpiper refuses to start: INNGEST_DEV: refused with NODE_ENV=production"],
      [{ INNGEST_EVENT_KEY: "evt-key" }, "Sandpiper refuses to start: INNGEST_EVENT_KEY: set without INNGEST_SIGNING_KEY"],
      [{ NEXTAUTH_SECRET: "short" }, "Sandpiper refuses to start: NEXTAUTH_SECRET: got an invalid value (not shown: it is a secret); expected a key"],
      [{ METRICS_TOKEN: "xyz-token" }, "Sandpiper refuses to start: METRICS_TOKEN: got an invalid value (not shown: it is a secret); expected a key"],
    ];
    const runs = await Promise.all(cases.map(([env]) => start({ DATABASE_URL: TEST_DATABASE_URL, PORT: "0", ...env })));
    runs.forEach((run, n) => {
      expectOneLine(run, new RegExp(`^${present(present(cases[n], "cases[n]")[1], "cases[n][1]").replace(/[()]/g, "\\$&")}`));
      expect(run.stderr).not.toMatch(/\bshort\b|xyz-token/);
    });
  }, 60_000);
});

describe("the scripts read DATABASE_URL through the configuration", () => {
  it("npm run db:migrate and npm run seed with a DATABASE_URL the configuration refuses: one line naming it, never its password", async () => {
    const refused =
      "Sandpiper refuses to start: DATABASE_URL: got an invalid value (not shown: it is a secret); expected an absolute postgresql or postgres URL";
    const [migrate, seed] = await Promise.all([
      runScript(["scripts/migrate.mjs"], { DATABASE_URL: "mysql://app:hunter2@db.internal/payments" }),
      runScript(["scripts/seed.mjs"], { DATABASE_URL: "postgresql://app:hunt%zz@db.internal/payments" }),
    ]);
    for (const run of [migrate, seed]) {
      expectOneLine(run, refused);
      expect(run.stdout + run.stderr).not.toMatch(/hunter2|hunt%zz/);
    }
  }, 40_000);
});

describe("the one line of each connection failure (scripts/db.mjs connectionProblem)", () => {
  it("a wrong password and an address that does not answer name host, port, database and role, never the password", async () => {
    const { connectionProblem } = await import("../../scripts/db.mjs");
    const target = "postgresql://app:hunter2@db.internal:6543/payments";
    const wrongPassword = connectionProblem(Object.assign(new Error('password authentication failed for user "app"'), { code: "28P01" }), target);
    expect(wrongPassword).toBe(
      `Sandpiper cannot use DATABASE_URL: PostgreSQL on db.internal:6543 refused the password of role "app" (database "payments"). Correct the password in DATABASE_URL, or set the role's: ALTER ROLE "app" PASSWORD '...';`,
    );
    const silent = connectionProblem(new Error("Connection terminated due to connection timeout"), target);
    expect(silent).toMatch(/^Sandpiper cannot use DATABASE_URL: db\.internal:6543 did not answer within 5 s \(database "payments"\)/);
    const other = connectionProblem(Object.assign(new Error("odd failure mentioning hunter2"), { code: "XX000" }), target);
    for (const line of [wrongPassword, silent, other]) expect(line).not.toContain("hunter2");
  });
});
