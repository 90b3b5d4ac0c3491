// A merchant per test (docs/benchmarks.md "Sandbox merchants"): the @sandpiper/sandbox tarball as `npm run
// pack:clients` makes it, installed offline into an empty project; one sandbox started from that project, then 200
// merchants made one after another with sandbox.merchant() (POST /v1/sandbox/merchants) and 200 over HTTP with the
// sandbox token; the time of each make, its median and 95th percentile, and the CPU time the sandbox's process spent
// a make (Linux /proc: what a busy machine does not inflate). Not a test: it prints figures.
//   node --import tsx bench/sandbox-merchants.ts [count]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { installSandboxTarball, percentile } from "./support";

const count = Number(process.argv[2] ?? 200);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-sbx-merchants-bench-"));
const project = path.join(scratch, "project");
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_"))) as NodeJS.ProcessEnv;

/** The script the measured process runs: one sandbox, `count` merchants each way, the times in ms as JSON. */
const SCRIPT = `
import fs from "node:fs";
import { startSandpiper } from "@sandpiper/sandbox";
const count = Number(process.argv[2]);
const sandbox = await startSandpiper({ logLevel: "silent" });
// The sandbox's process (this process's one child): its CPU time, user and system, in ms (clock ticks of 10 ms).
const parentOf = (p) => { try { return fs.readFileSync("/proc/" + p + "/stat", "utf8").split(") ")[1].split(" ")[1]; } catch { return null; } };
const child = fs.readdirSync("/proc").find((p) => /^\\d+$/.test(p) && parentOf(p) === String(process.pid));
const cpuMs = () => { const f = fs.readFileSync("/proc/" + child + "/stat", "utf8").split(") ")[1].split(" "); return (Number(f[11]) + Number(f[12])) * 10; };
const viaJs = [];
const viaHttp = [];
let cpuJs = 0;
let cpuHttp = 0;
try {
  // A few first makes load the route's modules: measured apart.
  const warm = [];
  for (let i = 0; i < 3; i++) { const t = performance.now(); await sandbox.merchant(); warm.push(performance.now() - t); }
  cpuJs = cpuMs();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await sandbox.merchant({ callbackUrl: "http://127.0.0.1:9/callbacks" });
    viaJs.push(performance.now() - t);
  }
  cpuJs = (cpuMs() - cpuJs) / count;
  cpuHttp = cpuMs();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    const res = await fetch(sandbox.url + "/v1/sandbox/merchants", {
      method: "POST",
      headers: { authorization: "Bearer " + sandbox.sandboxToken, "content-type": "application/json" },
      body: "{}",
    });
    if (res.status !== 201) throw new Error("POST /v1/sandbox/merchants answered " + res.status + ": " + (await res.text()));
    await res.json();
    viaHttp.push(performance.now() - t);
  }
  cpuHttp = (cpuMs() - cpuHttp) / count;
  console.log(JSON.stringify({ warm, viaJs, viaHttp, cpuJs, cpuHttp }));
} finally {
  await sandbox.stop();
}
`;

installSandboxTarball(scratch, project, env);
fs.writeFileSync(path.join(project, "measure.mjs"), SCRIPT);
const run = spawnSync(process.execPath, ["measure.mjs", String(count)], { cwd: project, env, encoding: "utf8" });
fs.rmSync(scratch, { recursive: true, force: true });
if (run.status !== 0) throw new Error(`measure.mjs failed: ${run.stderr}`);
const { warm, viaJs, viaHttp, cpuJs, cpuHttp } = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as {
  warm: number[];
  viaJs: number[];
  viaHttp: number[];
  cpuJs: number;
  cpuHttp: number;
};

const line = (name: string, values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const within = values.filter((v) => v <= 50).length;
  return `${name}: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms; ${within} of ${values.length} within 50 ms`;
};
const [first] = os.cpus();
console.log(
  `Machine: ${os.cpus().length} vCPU ${first?.model ?? "unknown CPU"}, Node ${process.version}, one-minute load average ${os.loadavg()[0]?.toFixed(1)} after the run.`,
);
console.log(`First 3 makes (the route's modules load): ${warm.map((v) => `${v.toFixed(1)} ms`).join(", ")}`);
console.log(`${line(`sandbox.merchant({ callbackUrl }), ${count} one after another`, viaJs)}; sandbox process CPU ${cpuJs.toFixed(1)} ms a make`);
console.log(`${line(`POST /v1/sandbox/merchants {}, ${count} one after another`, viaHttp)}; sandbox process CPU ${cpuHttp.toFixed(1)} ms a make`);
