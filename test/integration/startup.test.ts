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
const MESSAGE = /refuses to start: CALLBACK_ALLOW_LOOPBACK=1 is (not allowed|refused) when NODE_ENV=production/;

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
