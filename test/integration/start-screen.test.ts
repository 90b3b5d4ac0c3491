import { describe, expect, it } from "vitest";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { TEST_DATABASE_URL } from "../support/env";
import { waitUntil } from "../../scripts/harness/wait";
import { spawnCollected, waitForOutput } from "../../scripts/harness/process";
import { present } from "../../scripts/harness/present";

// docs/operating.md "Process managers": in a terminal `npm start` ends with the seeded credentials and the address,
// printed once it serves, and prints no line per request (LOG_LEVEL defaults to warn there); under a process manager
// (stdout not a terminal) the logs are JSON lines on stdout, one per request at the default level. The terminal is a
// pseudo-terminal from util-linux `script`.

const root = path.resolve(__dirname, "../..");

/** A start's environment on `databaseUrl` at `port`: LOG_LEVEL unset, as a person or a process manager has it. */
function env(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
  for (const name of ["LOG_LEVEL", "LOG_FORMAT", "CALLBACK_ALLOW_LOOPBACK", "DB_POOL_MAX", "JOBS_DISABLED", "NEXTAUTH_SECRET"]) delete e[name];
  return e;
}

/** Spawns `cmd args`; resolves once its output has the ready line, with the output so far (carriage returns removed). */
async function started(cmd: string, args: string[], e: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; output: () => string }> {
  const run = spawnCollected(cmd, args, { cwd: root, env: e, clean: (text) => text.replaceAll("\r", "") });
  // The ready line, and the output so far ending with a whole line.
  await waitForOutput(run, /Sandpiper is running on .*\n(?:[^]*\n)?$/, { what: `${cmd} to come up`, timeoutMs: 120_000 });
  return run;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

describe("the start-up screen", () => {
  it("in a terminal: credentials and address last, no line per request; under a process manager: JSON lines per request", async () => {
    const { freePort } = await import("../../scripts/db.mjs");
    const { recreateDatabase } = await import("../support/global-setup");
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `${url.pathname}_screen`;
    await recreateDatabase(url.toString());

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const terminal = await started("script", ["-qefc", "node scripts/start.mjs --no-build", "/dev/null"], env(url.toString(), port));
    let key: string;
    try {
      const lines = terminal.output().trimEnd().split("\n");
      const last = lines.slice(-2);
      expect(last[0]).toBe(
        `Sandpiper is running on http://localhost:${port} (health http://localhost:${port}/healthz, readiness http://localhost:${port}/readyz)`,
      );
      expect(last[1]).toBe("Requests are not logged in this terminal: LOG_LEVEL=info npm start prints them, LOG_FORMAT=pretty readably.");
      // Just above the address: the seeded credentials, keys and console users.
      const seeded = lines.findIndex((l) => l.startsWith("Seeded the sandbox"));
      expect(seeded).toBeGreaterThan(0);
      expect(lines.slice(seeded, -2).join("\n")).toMatch(/API key \(all scopes\) sk_sandbox_\S+[\s\S]*console operator\s+operator \/ \S+/);
      expect(lines.slice(seeded).some((l) => l.startsWith("{"))).toBe(false);
      key = present(/API key \(all scopes\) (sk_sandbox_\S+)/.exec(terminal.output())?.[1], "the printed API key");

      const before = terminal.output().length;
      expect((await fetch(`${base}/v1/payments?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      // waits on purpose: proves that no line appears; a request's log line is written as it is answered, which it was
      // before this wait, so the window only lets a wrongly written line reach this process
      await new Promise((r) => setTimeout(r, 1_000));
      expect(terminal.output().slice(before), "no line per request in the terminal").toBe("");
    } finally {
      await stop(terminal.child);
    }

    // Under a process manager: stdout is a pipe; one JSON line per request at the default level.
    const managed = await started(process.execPath, ["scripts/start.mjs", "--no-build"], env(url.toString(), port));
    try {
      expect((await fetch(`${base}/v1/payments?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      const requestLine = await waitUntil(
        () =>
          managed
            .output()
            .split("\n")
            .find((l) => l.startsWith("{") && l.includes('"msg":"request"')),
        { what: "the request's JSON log line", timeoutMs: 5_000 },
      );
      expect(JSON.parse(requestLine)).toMatchObject({ level: 30, method: "GET", path: "/v1/payments", status: 200 });
      expect(managed.output()).not.toContain(key);
    } finally {
      await stop(managed.child);
    }
  }, 240_000);
});
