// A suite of 50 files (docs/benchmarks.md "A suite of 50 files"): the @sandpiper/sandbox tarball as `npm run
// pack:clients` makes it, installed offline into an empty project beside the repository's vitest; the suite of
// scripts/harness/sandbox-suite.ts written into it (the guide's vitest pattern: one sandbox in globalSetup, a merchant
// per test with newMerchant, a payment created and concluded, its signed callback received and verified); `vitest run
// --maxWorkers <n>` timed whole, several runs for each worker count, while the sandbox's process is sampled every
// 100 ms (/proc/<pid>/status VmRSS; VmHWM, the kernel's own peak). Also: the CPU time of the whole run (what the
// waited-for children used, /proc/self/stat) and of the sandbox's process, and the median time of each phase of a test.
// Not a test: it prints figures.
//   node --import tsx bench/sandbox-suite.ts [--files 50] [--tests 4] [--runs 3] [--workers 2,4,6]
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SUITE_PHASES, SUITE_TIMINGS_ENV, writeSandboxSuite } from "../scripts/harness/sandbox-suite";
import { numberArg, percentile } from "./support";

const root = path.resolve(__dirname, "..");
const files = numberArg("files", 50);
const tests = numberArg("tests", 4);
const runs = numberArg("runs", 3);
const workersArg = process.argv.indexOf("--workers");
const workerCounts = (workersArg >= 0 ? String(process.argv[workersArg + 1]) : "2,4,6").split(",").map(Number);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-sbx-suite-bench-"));
const project = path.join(scratch, "project");
const suite = path.join(project, "suite");
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_"))) as NodeJS.ProcessEnv;
const TICK_MS = 1000 / 100; // clock ticks of /proc/<pid>/stat (USER_HZ 100 on Linux)

/** User + system CPU of `stat` (a /proc/<pid>/stat line) in ms; `children`: of its waited-for children instead. */
function cpuMs(stat: string, children = false): number {
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (children ? Number(f[13]) + Number(f[14]) : Number(f[11]) + Number(f[12])) * TICK_MS;
}

/** The pids of the processes whose command line runs `entry`. */
function processesRunning(entry: string): string[] {
  return fs.readdirSync("/proc").filter((p) => {
    if (!/^\d+$/.test(p)) return false;
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes(entry);
    } catch {
      return false;
    }
  });
}

type Run = { workers: number; wallMs: number; cpuMs: number; sandboxCpuMs: number; peakRssMiB: number; hwmMiB: number; sandboxUpMs: number; phases: Record<string, number>[] };

/** One `vitest run --maxWorkers <workers>` of the suite, timed, with the sandbox's process sampled every 100 ms. */
async function measure(workers: number): Promise<Run> {
  const timings = fs.mkdtempSync(path.join(scratch, "timings-"));
  const entry = path.join(project, "node_modules", "@sandpiper", "sandbox", "dist", "app", "sandbox-child.mjs");
  const childrenBefore = cpuMs(fs.readFileSync("/proc/self/stat", "utf8"), true);
  const t0 = performance.now();
  const run = spawn(process.execPath, [path.join(project, "node_modules", "vitest", "vitest.mjs"), "run", "--root", suite, "--maxWorkers", String(workers)], {
    cwd: suite,
    env: { ...env, NO_COLOR: "1", FORCE_COLOR: "0", [SUITE_TIMINGS_ENV]: timings },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  run.stdout.setEncoding("utf8").on("data", (t: string) => (output += t));
  run.stderr.setEncoding("utf8").on("data", (t: string) => (output += t));
  const exit = new Promise<number | null>((resolve) => run.once("exit", (code) => resolve(code)));
  let done = false;
  void exit.then(() => (done = true));
  let peakRss = 0;
  let hwm = 0;
  let sandboxCpu = 0;
  let seenAt = 0;
  let goneAt = 0;
  let pid: string | undefined;
  while (!done) {
    pid ??= processesRunning(entry)[0];
    if (pid) {
      try {
        const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
        peakRss = Math.max(peakRss, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
        hwm = Math.max(hwm, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
        sandboxCpu = cpuMs(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
        seenAt ||= performance.now() - t0;
      } catch {
        goneAt ||= performance.now() - t0; // the sandbox stopped (globalSetup's teardown)
      }
    }
    // waits on purpose: the sampling period of the sandbox's resident memory (100 ms)
    await new Promise((r) => setTimeout(r, 100));
  }
  const code = await exit;
  const wallMs = performance.now() - t0;
  if (code !== 0 || !new RegExp(`Tests\\s+${files * tests} passed \\(${files * tests}\\)`).test(output)) {
    throw new Error(`vitest run --maxWorkers ${workers}: exit ${code}, not ${files * tests} tests passed:\n${output.slice(-4000)}`);
  }
  const phases = fs.readdirSync(timings).flatMap((f) => JSON.parse(fs.readFileSync(path.join(timings, f), "utf8")) as Record<string, number>[]);
  return {
    workers,
    wallMs,
    cpuMs: cpuMs(fs.readFileSync("/proc/self/stat", "utf8"), true) - childrenBefore,
    sandboxCpuMs: sandboxCpu,
    peakRssMiB: peakRss / 1024,
    hwmMiB: hwm / 1024,
    sandboxUpMs: (goneAt || wallMs) - seenAt,
    phases,
  };
}

const loadBefore = os.loadavg();
const packed = execFileSync("npm", ["run", "--silent", "pack:clients", "--", path.join(scratch, "packages")], { cwd: root, env, encoding: "utf8" });
const tarball = /^@sandpiper\/sandbox \S+: (\S+\.tgz)$/m.exec(packed)?.[1];
if (!tarball) throw new Error(`pack:clients printed no sandbox tarball:\n${packed}`);
fs.mkdirSync(project);
execFileSync("npm", ["init", "-y"], { cwd: project, env, stdio: "ignore" });
execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball], { cwd: project, env, stdio: "ignore" });
// The project's own test runner: the repository's vitest, as the suite's test links it.
fs.symlinkSync(path.join(root, "node_modules", "vitest"), path.join(project, "node_modules", "vitest"));
writeSandboxSuite(suite, { files, tests });

const results: Run[] = [];
try {
  const loadStart = os.loadavg();
  for (const workers of workerCounts) {
    for (let i = 0; i < (workers === workerCounts[0] ? runs : Math.max(1, runs - 1)); i++) {
      const r = await measure(workers);
      results.push(r);
      console.error(
        `--maxWorkers ${workers}: ${(r.wallMs / 1000).toFixed(1)} s, sandbox peak RSS ${r.peakRssMiB.toFixed(0)} MiB (VmHWM ${r.hwmMiB.toFixed(0)}), CPU ${(r.cpuMs / 1000).toFixed(1)} s (sandbox ${(r.sandboxCpuMs / 1000).toFixed(1)} s), load ${os.loadavg()[0]?.toFixed(1)}`,
      );
    }
  }
  const loadAfter = os.loadavg();
  const [cpu] = os.cpus();
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const la = (l: number[]) => l.map((v) => v.toFixed(1)).join(" / ");
  console.log(
    `machine: ${os.cpus().length} x ${cpu?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node.js ${process.version}; load average ${la(loadBefore)} before packing, ${la(loadStart)} before the runs, ${la(loadAfter)} after`,
  );
  console.log(`${files} files x ${tests} tests = ${files * tests} tests, each with its own merchant, a create, a completion and a verified callback`);
  console.log("| --maxWorkers | wall time (min / median / max of runs) | sandbox peak RSS (sampled VmRSS; VmHWM) | CPU of the run (all processes) | of which the sandbox |\n|---|---|---|---|---|");
  for (const workers of workerCounts) {
    const mine = results.filter((r) => r.workers === workers);
    const walls = mine.map((r) => r.wallMs).sort((a, b) => a - b);
    const median = walls[Math.floor(walls.length / 2)] ?? 0;
    console.log(
      `| ${workers} | ${s(walls[0] ?? 0)} / ${s(median)} / ${s(walls.at(-1) ?? 0)} (${mine.length} runs) | ${mine.map((r) => `${r.peakRssMiB.toFixed(0)}`).join(", ")} MiB; ${mine.map((r) => r.hwmMiB.toFixed(0)).join(", ")} MiB | ${mine.map((r) => s(r.cpuMs)).join(", ")} | ${mine.map((r) => s(r.sandboxCpuMs)).join(", ")} |`,
    );
  }
  console.log("\nPhases of a test (all runs of each worker count; ms, p50 / p95):\n| --maxWorkers | " + SUITE_PHASES.join(" | ") + " |\n|---|" + SUITE_PHASES.map(() => "---|").join(""));
  for (const workers of workerCounts) {
    const phases = results.filter((r) => r.workers === workers).flatMap((r) => r.phases);
    const cell = (name: string) => {
      const v = phases.map((p) => p[name] ?? 0).sort((a, b) => a - b);
      return `${percentile(v, 50).toFixed(0)} / ${percentile(v, 95).toFixed(0)}`;
    };
    console.log(`| ${workers} | ${SUITE_PHASES.map(cell).join(" | ")} |`);
  }
  const first = results.filter((r) => r.workers === workerCounts[0]);
  console.log(`\nsandbox process alive (median, --maxWorkers ${workerCounts[0]}): ${s(first.map((r) => r.sandboxUpMs).sort((a, b) => a - b)[Math.floor(first.length / 2)] ?? 0)}`);
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
