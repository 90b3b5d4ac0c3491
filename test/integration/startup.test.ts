import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import path from "node:path";
import { TEST_DATABASE_URL } from "../support/env";

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

const UNSAFE = { CALLBACK_ALLOW_LOOPBACK: "1", NODE_ENV: "production", PORT: "0" };
const MESSAGE = /refuses to start: CALLBACK_ALLOW_LOOPBACK=1 is (not allowed|refused) when NODE_ENV=production.*npm run start:local.*run `sandpiper listen --forward-to <local address>` there \(README "The sandpiper command"\)/s;

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

describe("npm run start:local", () => {
  it("serves with loopback callback receivers allowed (NODE_ENV=development), for local work on the service", async () => {
    const { freePort } = await import("../../scripts/db.mjs");
    const { recreateDatabase } = await import("../support/global-setup");
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `${url.pathname}_local`;
    await recreateDatabase(url.toString());
    const port = await freePort();
    // start:local sets NODE_ENV and CALLBACK_ALLOW_LOOPBACK itself.
    const env = Object.fromEntries(Object.entries({ ...process.env, DATABASE_URL: url.toString(), PORT: String(port), NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "warn", NEXTAUTH_SECRET: "local-test-secret" }).filter(([k]) => k !== "NODE_ENV" && k !== "CALLBACK_ALLOW_LOOPBACK"));
    const child = spawn(process.execPath, ["scripts/start.mjs", "--local", "--no-build"], { cwd: root, env: env as NodeJS.ProcessEnv });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    try {
      const deadline = Date.now() + 90_000;
      while (!output.includes("Sandpiper is running")) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`start:local did not come up: ${output}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(output).toMatch(/Local development: callbacks may go to http:\/\/localhost receivers/);
      const { PrismaPg } = await import("@prisma/adapter-pg");
      const { PrismaClient } = await import("@/lib/generated/prisma/client");
      const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url.toString(), max: 1 }) });
      try {
        expect(await db.merchant.count()).toBeGreaterThan(0);
      } finally {
        await db.$disconnect();
      }
      expect((await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
  }, 120_000);
});
