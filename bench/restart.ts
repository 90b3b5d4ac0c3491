// Restart time of `npm start` when nothing changed (docs/benchmarks.md "Restart"): a first start seeds a fresh
// embedded data folder (or a recreated PostgreSQL database with --postgres), then the same start runs `--rounds`
// more times; each is timed from spawn to its first answer on /v1/openapi.json and to its "Sandpiper is running"
// line. Run after `node scripts/build.mjs`:
//   node --import tsx bench/restart.ts [--rounds 3] [--postgres]
// With --postgres the database is BENCH_DATABASE_URL (default sandpiper_bench on 127.0.0.1), recreated first.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchDatabaseUrl, numberArg } from "./support";

const root = path.resolve(__dirname, "..");
const rounds = numberArg("rounds", 3);
const postgres = process.argv.includes("--postgres");

/** One `node scripts/start.mjs` to ready and back down; the milliseconds to the first answer and to the ready line. */
async function timedStart(env: NodeJS.ProcessEnv, port: number): Promise<{ answerMs: number; readyMs: number; output: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ["--max-old-space-size=256", "scripts/start.mjs"], { cwd: root, env: { ...env, PORT: String(port) } });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  let answerMs = 0;
  let readyMs = 0;
  while (!answerMs || !readyMs) {
    if (child.exitCode !== null) throw new Error(`start exited ${child.exitCode}: ${output}`);
    if (!readyMs && output.includes("Sandpiper is running")) readyMs = performance.now() - started;
    if (!answerMs) {
      const ok = await fetch(`http://127.0.0.1:${port}/v1/openapi.json`, { signal: AbortSignal.timeout(1_000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) answerMs = performance.now() - started;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  return { answerMs, readyMs, output };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-restart-"));
  const env: NodeJS.ProcessEnv = { ...process.env, SANDPIPER_DATA_DIR: dataDir, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  if (postgres) {
    const url = benchDatabaseUrl();
    const { recreateDatabase } = await import("../scripts/harness/service");
    await recreateDatabase(url);
    env.DATABASE_URL = url;
  }
  const { freePort } = await import("../scripts/db.mjs");
  try {
    const first = await timedStart(env, await freePort());
    console.log(`first start (migrate and seed): first answer ${(first.answerMs / 1000).toFixed(1)} s`);
    for (let i = 1; i <= rounds; i++) {
      const again = await timedStart(env, await freePort());
      console.log(`restart ${i}: first answer ${(again.answerMs / 1000).toFixed(1)} s, ready line ${(again.readyMs / 1000).toFixed(1)} s`);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
