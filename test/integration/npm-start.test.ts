import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isBuildCurrent } from "../../scripts/build-stamp.mjs";
import { spawnCollected, waitForOutput } from "../../scripts/harness/process";
import { waitUntil } from "../../scripts/harness/wait";

// README "Quick start" and "Seeded sandbox" as a developer and a process manager meet them: `npm start` skips the
// build when no source changed since the last one, `npm run seed` works on the embedded database with the service
// running and without it, and a SIGTERM to the npm process (what a supervisor sends) stops the server.

const root = path.resolve(__dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-npm-start-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** The environment of a developer's shell: no database url, nothing test-only. */
function devEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SANDPIPER_DATA_DIR: dataDir,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    LOG_LEVEL: "warn",
    ...extra,
  };
  for (const name of [
    "DATABASE_URL",
    "CALLBACK_ALLOW_LOOPBACK",
    "DB_POOL_MAX",
    "NEXTAUTH_SECRET",
    "TRUSTED_PROXIES",
    "JOBS_DISABLED",
    "npm_lifecycle_event",
    "npm_lifecycle_script",
  ])
    delete env[name];
  return env;
}

/** `npm run seed` with `args` to its end; its output (stdout and stderr). Rejects when it exits non-zero. */
function runSeed(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "seed", ...(args.length ? ["--", ...args] : [])], { cwd: root, env: devEnv() });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`npm run seed ${args.join(" ")} exited ${code}: ${out}`))));
  });
}

/** `npm run seed -- --json` to its end; the parsed JSON line. */
async function seedJson(): Promise<{ keys: Record<string, string>; amountEntryMerchantId: string }> {
  const out = await runSeed(["--json"]);
  const line = out.split("\n").find((l) => l.startsWith("{"));
  if (!line) throw new Error(`npm run seed -- --json printed no JSON: ${out}`);
  return JSON.parse(line);
}

async function answers(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/v1/openapi.json`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

describe("npm start, npm run seed and a supervisor's SIGTERM", () => {
  it("a restart does not rebuild; seeding works beside the running service and without it; SIGTERM to npm stops the server", async () => {
    // The suite built the service just before: npm start must find the build current and never build here.
    expect(isBuildCurrent(root), "the build in .next is current (the suite builds before the tests)").toBe(true);
    const { freePort } = await import("../../scripts/db.mjs");
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const run = spawnCollected("npm", ["start"], { cwd: root, env: devEnv({ PORT: String(port) }) });
    const npm: ChildProcess = run.child;
    try {
      await waitForOutput(run, /Sandpiper is running on/, { what: "npm start to come up", timeoutMs: 120_000 });
      const output = run.output();
      expect(output).toMatch(/The build is up to date/);
      expect(output).not.toMatch(/Creating an optimized production build|next build/);
      expect(output).toMatch(/amount-entry key\s+sk_sandbox_/);

      // A second start on the same data folder is refused with one line naming the running one, and changes nothing.
      const announced = fs.readFileSync(path.join(dataDir, "embedded-db.json"), "utf8");
      const second = spawn(process.execPath, ["scripts/start.mjs", "--no-build"], { cwd: root, env: devEnv({ PORT: "0" }) });
      let secondOutput = "";
      second.stdout.on("data", (d) => (secondOutput += d));
      second.stderr.on("data", (d) => (secondOutput += d));
      const secondCode = await new Promise((resolve) => second.once("exit", resolve));
      expect(secondCode, secondOutput).toBe(1);
      expect(secondOutput.trim().split("\n")).toEqual([
        expect.stringMatching(
          new RegExp(`^Sandpiper cannot start: the embedded database in .* is in use by process \\d+ \\(scripts/start\\.mjs, running since `),
        ),
      ]);
      expect(fs.readFileSync(path.join(dataDir, "embedded-db.json"), "utf8"), "the running start's announcement is kept").toBe(announced);

      // Seeding while the service holds the embedded database: fresh keys that the running service accepts.
      const seeded = await seedJson();
      expect(Object.keys(seeded.keys).sort()).toEqual(["amountEntry", "full", "readOnly", "secondMerchant"]);
      const session = await fetch(`${base}/v1/checkout-sessions`, {
        method: "POST",
        headers: { authorization: `Bearer ${seeded.keys.amountEntry}`, "content-type": "application/json", "idempotency-key": "order-2001-session" },
        body: JSON.stringify({
          reference: "order-2001",
          customer: { id: "cust-42", firstName: "Layla", lastName: "Haddad", email: "layla@example.com", phone: "+971501234567" },
        }),
      });
      expect(session.status, await session.clone().text()).toBe(201);
      expect(await session.json()).toMatchObject({ state: "AWAITING_AMOUNT", customerCheckout: { url: expect.stringContaining("/checkout/") } });
      // The first merchant has no amount-entry; the error says where it is switched on.
      const refused = await fetch(`${base}/v1/checkout-sessions`, {
        method: "POST",
        headers: { authorization: `Bearer ${seeded.keys.full}`, "content-type": "application/json", "idempotency-key": "order-2002-session" },
        body: JSON.stringify({
          reference: "order-2002",
          customer: { id: "cust-42", firstName: "Layla", lastName: "Haddad", email: "layla@example.com", phone: "+971501234567" },
        }),
      });
      expect(refused.status).toBe(403);
      expect((await refused.json()).error).toMatchObject({ code: "AMOUNT_ENTRY_NOT_ENABLED", message: expect.stringMatching(/console/i) });

      // What a supervisor does: SIGTERM to the process it started (npm).
      npm.kill("SIGTERM");
      await waitUntil(async () => !(await answers(base)), { what: "the server to stop after SIGTERM to npm", timeoutMs: 15_000, intervalMs: 250 });
      // The drain then ends (a kept-alive connection gets a second without a request before it is closed:
      // docs/operating.md "Stopping"), the embedded database is closed, and npm exits.
      await waitUntil(() => npm.exitCode !== null || npm.signalCode !== null, { what: "npm to exit after SIGTERM", timeoutMs: 15_000 });
      expect(fs.existsSync(path.join(dataDir, "embedded-db.json")), "the embedded database was closed").toBe(false);
    } finally {
      if (npm.exitCode === null) npm.kill("SIGKILL");
    }

    // Without the service: the seed opens the embedded database itself.
    const offline = await seedJson();
    expect(offline.keys.full).toMatch(/^sk_sandbox_/);
    expect(offline.keys.full).not.toBe((await seedJson()).keys.full);
    // Plain `npm run seed` (as the README shows it) prints the new keys for people.
    expect(await runSeed([])).toMatch(/sk_sandbox_[A-Za-z0-9]+/);

    // docs/guides/operate-sandpiper.md "Seeded sandbox": a new console password on the embedded database; credentials.txt (printed again by
    // every start) shows the new one, and the other users' lines are kept.
    const credentials = path.join(dataDir, "credentials.txt");
    const before = fs.readFileSync(credentials, "utf8");
    const reset = await new Promise<string>((resolve, reject) => {
      const child = spawn("npm", ["run", "--silent", "console:reset-password", "--", "operator"], { cwd: root, env: devEnv() });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`console:reset-password exited ${code}: ${out}`))));
    });
    const password = /New password for console user operator: (\S+)/.exec(reset)?.[1];
    expect(password, reset).toBeTruthy();
    const after = fs.readFileSync(credentials, "utf8");
    expect(after).toMatch(new RegExp(`console operator\\s+operator / ${password}$`, "m"));
    expect(after.replace(/operator \/ \S+/, "")).toBe(before.replace(/operator \/ \S+/, ""));
  }, 300_000);
});
