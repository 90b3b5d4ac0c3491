// The @sandpiper/sandbox package's figures (docs/benchmarks.md "Sandbox package"): the tarball as `npm run
// pack:clients` makes it, installed offline into an empty project; then, each in a new Node.js process run from
// that project, five single starts (startSandpiper() until it resolves, then its first API request, stop()) and one
// process starting four at once; the resident memory of every sandbox process after a payment is created and read;
// the installed size. Not a test: it prints figures.
//   node --import tsx bench/sandbox.ts
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { present } from "../scripts/harness/present";
import { installSandboxTarball } from "./support";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-sandbox-bench-"));
const project = path.join(scratch, "project");
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_"))) as NodeJS.ProcessEnv;

/** The script each measured process runs: starts `count` sandboxes at once and prints what it measured as JSON. */
const SCRIPT = `
import fs from "node:fs";
import { startSandpiper } from "@sandpiper/sandbox";
const count = Number(process.argv[2]);
const entry = new URL("./node_modules/@sandpiper/sandbox/app/sandbox-child.mjs", import.meta.url).pathname;
const ours = () => fs.readdirSync("/proc").filter((p) => /^\\d+$/.test(p)).filter((p) => {
  try { return fs.readFileSync("/proc/" + p + "/status", "utf8").includes("PPid:\\t" + process.pid + "\\n") && fs.readFileSync("/proc/" + p + "/cmdline", "utf8").includes(entry); } catch { return false; }
});
/** CPU time (user + system) the sandbox processes have used so far, in ms (clock ticks of 10 ms). */
const cpu = () => ours().reduce((sum, p) => { const f = fs.readFileSync("/proc/" + p + "/stat", "utf8").split(") ")[1].split(" "); return sum + (Number(f[11]) + Number(f[12])) * 10; }, 0);
const t0 = performance.now();
const sandboxes = await Promise.all(Array.from({ length: count }, () => startSandpiper({ logLevel: "silent" })));
const start = performance.now() - t0;
const startCpu = cpu() / count;
const t1 = performance.now();
await Promise.all(sandboxes.map(async (s) => {
  const p = await s.client.createPayment({ body: { reference: "bench", amount: "10.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" } });
  await s.client.getPayment({ params: { path: { id: p.id } } });
  await s.client.listPayments({ params: { query: {} } });
}));
const firstRequests = performance.now() - t1;
const firstRequestsCpu = cpu() / count - startCpu;
const rssMiB = ours().map((p) => Math.round(Number(/VmRSS:\\s+(\\d+)/.exec(fs.readFileSync("/proc/" + p + "/status", "utf8"))[1]) / 1024));
const t2 = performance.now();
await Promise.all(sandboxes.map((s) => s.stop()));
const stop = performance.now() - t2;
console.log(JSON.stringify({ start, startCpu, firstRequests, firstRequestsCpu, stop, rssMiB }));
`;

/** Runs SCRIPT with `count` in a new Node.js process from the project. */
function measure(count: number): { start: number; startCpu: number; firstRequests: number; firstRequestsCpu: number; stop: number; rssMiB: number[] } {
  const run = spawnSync(process.execPath, ["measure.mjs", String(count)], { cwd: project, env, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`measure.mjs ${count} failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!);
}

const median = (values: number[]) => present([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)], "the median of no values");
const ms = (value: number) => `${Math.round(value)} ms`;

const { tarball, installMs: install } = installSandboxTarball(scratch, project, env);
const tarballMB = fs.statSync(tarball).size / 1e6;
const installedMB = Number(execFileSync("du", ["-sb", path.join(project, "node_modules")], { encoding: "utf8" }).split("\t")[0]) / 1e6;
fs.writeFileSync(path.join(project, "measure.mjs"), SCRIPT);

const singles = Array.from({ length: 5 }, () => measure(1));
const four = measure(4);
fs.rmSync(scratch, { recursive: true, force: true });

const cpu = os.cpus();
console.log(
  `machine: ${cpu.length} x ${cpu[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node.js ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
console.log(`tarball ${tarballMB.toFixed(1)} MB; installed ${installedMB.toFixed(1)} MB (npm install --offline ${ms(install)})`);
console.log("| measure | figure |\n|---|---|");
console.log(
  `| start, one sandbox in a new process (median of 5; each: ${singles.map((s) => ms(s.start)).join(", ")}) | ${ms(median(singles.map((s) => s.start)))} |`,
);
console.log(`| CPU time of the sandbox process until it serves (median of 5) | ${ms(median(singles.map((s) => s.startCpu)))} |`);
console.log(`| first create, read and list after the start (median of 5) | ${ms(median(singles.map((s) => s.firstRequests)))} |`);
console.log(`| CPU time of the sandbox process for them (median of 5) | ${ms(median(singles.map((s) => s.firstRequestsCpu)))} |`);
console.log(`| stop() (median of 5) | ${ms(median(singles.map((s) => s.stop)))} |`);
console.log(`| resident memory of a sandbox process (median of 5) | ${median(singles.map((s) => present(s.rssMiB[0], "rssMiB[0]")))} MiB |`);
console.log(`| four started at once in one process, until all serve | ${ms(four.start)} |`);
console.log(`| CPU time of each of the four until it serves (mean) | ${ms(four.startCpu)} |`);
console.log(`| resident memory of each of the four | ${four.rssMiB.join(", ")} MiB |`);
console.log(`| stop() of the four at once | ${ms(four.stop)} |`);
