import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "../support/env";
import { signIn } from "../support/console-http";
import { recreateDatabase, stopService } from "../support/global-setup";
import { spawnCollected, waitForOutput } from "../../scripts/harness/process";

// docs/operating.md "Credentials of the first start": the first start on an empty PostgreSQL database under
// NODE_ENV=production with stdout not a terminal (a process manager) writes the seeded passwords and API keys to
// seeded-credentials.txt in the data folder, mode 0600, and prints only its path; another start prints them as before.

const root = path.resolve(__dirname, "../..");
const started: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((child) => stopService(child)));
});

/** `node scripts/start.mjs --no-build` on a fresh database `<test db>_<suffix>`, to its ready line: its output, port and data folder. */
async function firstStart(suffix: string, nodeEnv: "production" | "test") {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `${url.pathname}_${suffix}`;
  await recreateDatabase(url.toString());
  const { freePort } = await import("../../scripts/db.mjs");
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-credentials-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url.toString(),
    PORT: String(port),
    NODE_ENV: nodeEnv,
    SANDPIPER_DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
  };
  for (const name of ["CALLBACK_ALLOW_LOOPBACK", "DB_POOL_MAX", "JOBS_DISABLED", "NEXTAUTH_SECRET", "SANDPIPER_EMBEDDED"]) delete env[name];
  const run = spawnCollected(process.execPath, ["scripts/start.mjs", "--no-build"], { cwd: root, env });
  started.push(run.child);
  await waitForOutput(run, /Sandpiper is running on/, { what: "the start to come up", timeoutMs: 150_000 });
  return { output: run.output(), base: `http://127.0.0.1:${port}`, file: path.join(dataDir, "seeded-credentials.txt") };
}

describe("the first start's credentials", () => {
  it("under NODE_ENV=production with a process manager: in a file readable by this user only, its path printed, nothing secret on stdout", async () => {
    const { output, base, file } = await firstStart("creds_prod", "production");
    expect(output).toContain(`The seeded sandbox's console passwords and API keys are in ${file} (readable by this user only`);
    expect(output).not.toMatch(/sk_sandbox_|console operator/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const kept = fs.readFileSync(file, "utf8");
    expect(kept).toMatch(/console operator\s+operator \/ \S+/);
    // Every seeded console user's password is there, and signs in.
    for (const username of ["operator", "merchant", "approver", "second", "amountentry"]) {
      const password = new RegExp(`console [\\w-]+\\s+${username} / (\\S+)`).exec(kept)?.[1];
      expect(password, username).toBeDefined();
      expect((await signIn(username, password!, undefined, base)).cookie, username).not.toBeNull();
    }
    const key = /API key \(all scopes\) (sk_sandbox_\S+)/.exec(kept)![1];
    expect((await fetch(`${base}/v1/payments?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  }, 200_000);

  it("under another NODE_ENV: printed as before, no file", async () => {
    const { output, file } = await firstStart("creds_dev", "test");
    expect(output).toMatch(/API key \(all scopes\) sk_sandbox_\S+[\s\S]*console operator\s+operator \/ \S+/);
    expect(fs.existsSync(file)).toBe(false);
  }, 200_000);
});
