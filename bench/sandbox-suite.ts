// A suite of 50 files (docs/benchmarks.md "A suite of 50 files"): the @sandpiper/sandbox tarball as `npm run
// pack:clients` makes it, installed offline into an empty project beside the repository's vitest; the suite of
// scripts/harness/sandbox-suite.ts written into it (the guide's vitest pattern: one sandbox in globalSetup, a merchant
// per test with newMerchant, a payment created and concluded, its signed callback received and verified); `vitest run
// --maxWorkers <n>` timed whole, several runs for each worker count, while the sandbox's process is sampled every
// 100 ms (/proc/<pid>/status VmRSS; VmHWM, the kernel's own peak). Also: the CPU time of the whole run (what the
// waited-for children used, /proc/self/stat) and of the sandbox's process, and the median time of each phase of a test.
// Not a test: it prints figures.
// Last, one run with one worker, whose phases do not overlap: the sandbox's CPU time in each phase of a test (the profile).
// `--child-flags "<flags>"` (an experiment) patches the installed package to start its process with those Node.js flags
// instead of its own heap flags (`--child-flags none`: with no flag, V8's defaults).
//   node --import tsx bench/sandbox-suite.ts [--files 50] [--tests 4] [--runs 3] [--workers 2,4,6] [--no-profile] [--child-flags "<flags>"]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SUITE_PHASES, SUITE_TIMINGS_ENV, writeSandboxSuite } from "../scripts/harness/sandbox-suite";
import { installSandboxTarball, numberArg, percentile } from "./support";

const root = path.resolve(__dirname, "..");
const files = numberArg("files", 50);
const tests = numberArg("tests", 4);
const runs = numberArg("runs", 3);
const workersArg = process.argv.indexOf("--workers");
const workerCounts = (workersArg >= 0 ? String(process.argv[workersArg + 1]) : "2,4,6").split(",").map(Number);
const profile = !process.argv.includes("--no-profile");
const childFlagsArg = process.argv.indexOf("--child-flags");
/** An experiment: Node.js flags given to the sandbox's process too (e.g. "--max-old-space-size=128"), patched into the installed package. */
const childFlags =
  childFlagsArg >= 0
    ? String(process.argv[childFlagsArg + 1])
        .split(" ")
        .filter(Boolean)
    : [];
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

/**
 * The resident memory of process `pid` by kind, in KiB (/proc/<pid>/smaps): WebAssembly memories (PGlite's PostgreSQL,
 * Prisma's query compiler: a read-write anonymous mapping followed by the inaccessible reservation of at least 1 GiB
 * that V8 puts after a wasm32 memory), malloc's heap ([heap]: PGlite's and Node's native allocations), other anonymous
 * memory (mostly V8's JavaScript heap), and files (the node binary, shared libraries, mapped files).
 */
function residentByKind(pid: string): { wasm: number; malloc: number; anonymous: number; files: number } {
  const maps: { perms: string; name: string; size: number; rss: number }[] = [];
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (mapping) maps.push({ perms: mapping[1] ?? "", name: mapping[2] ?? "", size: 0, rss: 0 });
    const field = /^(Size|Rss):\s+(\d+) kB/.exec(line);
    const last = maps.at(-1);
    if (field && last) last[field[1] === "Size" ? "size" : "rss"] = Number(field[2]);
  }
  const kinds = { wasm: 0, malloc: 0, anonymous: 0, files: 0 };
  maps.forEach((m, i) => {
    const next = maps[i + 1];
    const kind = m.name.startsWith("/")
      ? "files"
      : m.name === "[heap]"
        ? "malloc"
        : next?.perms === "---p" && next.size >= 2 ** 20 && !next.name
          ? "wasm"
          : "anonymous";
    kinds[kind] += m.rss;
  });
  return kinds;
}

/** The sum of the kinds of {@link residentByKind}. */
const total = (kinds: Record<string, number>) => Object.values(kinds).reduce((sum, v) => sum + v, 0);

type Run = {
  workers: number;
  wallMs: number;
  cpuMs: number;
  sandboxCpuMs: number;
  peakRssMiB: number;
  hwmMiB: number;
  /** The resident memory by kind (MiB) at the sample of the highest resident memory among those read each second. */
  peakKinds: { wasm: number; malloc: number; anonymous: number; files: number };
  /** When the sandbox's process appeared, and how long it lived, from the run's start (ms). */
  sandboxSeenMs: number;
  sandboxUpMs: number;
  /** Vitest's own summary line ("Duration ... (transform, setup, import, tests, environment)"). */
  vitestDuration: string;
  phases: Record<string, number>[];
};

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
  let peakKinds = { wasm: 0, malloc: 0, anonymous: 0, files: 0 };
  for (let sample = 0; !done; sample++) {
    pid ??= processesRunning(entry)[0];
    if (pid) {
      try {
        const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
        const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
        if (sample % 10 === 0) {
          const kinds = residentByKind(pid);
          if (total(kinds) > total(peakKinds)) peakKinds = kinds;
        }
        peakRss = Math.max(peakRss, rss);
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
    sandboxSeenMs: seenAt,
    sandboxUpMs: (goneAt || wallMs) - seenAt,
    peakKinds: { wasm: peakKinds.wasm / 1024, malloc: peakKinds.malloc / 1024, anonymous: peakKinds.anonymous / 1024, files: peakKinds.files / 1024 },
    vitestDuration: /Duration\s+([^\n]+)/.exec(output)?.[1]?.trim() ?? "",
    phases,
  };
}

/** Packs and installs the tarball, writes the suite, runs it for each worker count and prints the figures. */
async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  installSandboxTarball(scratch, project, env);
  if (childFlags.length > 0) {
    const entry = path.join(project, "node_modules", "@sandpiper", "sandbox", "dist", "index.js");
    const code = fs.readFileSync(entry, "utf8");
    // The package's own heap flags (SANDBOX_HEAP_FLAGS) are replaced by the ones given ("none" for no flag at all).
    const given = childFlags.filter((f) => f !== "none");
    const patched = code.replace(
      /\["--expose-gc", \.\.\.SANDBOX_HEAP_FLAGS, childEntry\]/,
      JSON.stringify(["--expose-gc", ...given]).replace(/\]$/, ", childEntry]"),
    );
    if (patched === code) throw new Error("--child-flags: the installed package's spawn of its process was not found");
    fs.writeFileSync(entry, patched);
    console.log(`the sandbox's process runs with ${childFlags.join(" ")} (an experiment: the package as installed, patched)`);
  }
  // The project's own test runner: the repository's vitest, as the suite's test links it.
  fs.symlinkSync(path.join(root, "node_modules", "vitest"), path.join(project, "node_modules", "vitest"));
  writeSandboxSuite(suite, { files, tests });

  const results: Run[] = [];
  try {
    const loadStart = os.loadavg();
    // The worker counts asked for (the first `runs` times, each other one time less), then one run with one worker
    // whose phases do not overlap: the sandbox's CPU time of each phase is its own (the profile).
    const plan = [...workerCounts.flatMap((w, i) => Array<number>(i === 0 ? runs : Math.max(1, runs - 1)).fill(w)), ...(profile ? [1] : [])];
    for (const workers of plan) {
      const r = await measure(workers);
      results.push(r);
      console.error(
        `--maxWorkers ${workers}: ${(r.wallMs / 1000).toFixed(1)} s, sandbox peak RSS ${r.peakRssMiB.toFixed(0)} MiB, load ${os.loadavg()[0]?.toFixed(1)}`,
      );
    }
    const loadAfter = os.loadavg();
    const [cpu] = os.cpus();
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const la = (l: number[]) => l.map((v) => v.toFixed(1)).join(" / ");
    const mib = (v: number) => v.toFixed(0);
    console.log(
      `machine: ${os.cpus().length} x ${cpu?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node.js ${process.version}; load average ${la(loadBefore)} before packing, ${la(loadStart)} before the runs, ${la(loadAfter)} after`,
    );
    console.log(`${files} files x ${tests} tests = ${files * tests} tests, each with its own merchant, a create, a completion and a verified callback\n`);
    console.log(
      "| --maxWorkers | wall time (min / median / max) | sandbox peak RSS, MiB (each run) | CPU of the run, all processes (each run) | of which the sandbox's process |",
    );
    console.log("|---|---|---|---|---|");
    for (const workers of [...new Set(plan)]) {
      const mine = results.filter((r) => r.workers === workers);
      const walls = mine.map((r) => r.wallMs).sort((a, b) => a - b);
      console.log(
        `| ${workers} | ${s(walls[0] ?? 0)} / ${s(walls[Math.floor(walls.length / 2)] ?? 0)} / ${s(walls.at(-1) ?? 0)} (${mine.length} run${mine.length > 1 ? "s" : ""}) | ${mine.map((r) => mib(r.peakRssMiB)).join(", ")} | ${mine.map((r) => s(r.cpuMs)).join(", ")} | ${mine.map((r) => s(r.sandboxCpuMs)).join(", ")} |`,
      );
    }
    console.log("\nEach run: the kernel's peak (VmHWM); the resident memory by kind at the highest of the samples read each second; vitest's summary.\n");
    console.log(
      "| --maxWorkers | wall | sandbox process seen at, lived | VmHWM, MiB | WebAssembly memories | malloc | other anonymous (V8 heap) | files | vitest's Duration |\n|---|---|---|---|---|---|---|---|---|",
    );
    for (const r of results) {
      console.log(
        `| ${r.workers} | ${s(r.wallMs)} | ${s(r.sandboxSeenMs)}, ${s(r.sandboxUpMs)} | ${mib(r.hwmMiB)} | ${mib(r.peakKinds.wasm)} | ${mib(r.peakKinds.malloc)} | ${mib(r.peakKinds.anonymous)} | ${mib(r.peakKinds.files)} | ${r.vitestDuration} |`,
      );
    }
    console.log(
      `\nPhases of a test (ms, p50 / p95 over all the runs of a worker count):\n\n| --maxWorkers | ${SUITE_PHASES.join(" | ")} |\n|---|${SUITE_PHASES.map(() => "---|").join("")}`,
    );
    for (const workers of [...new Set(plan)]) {
      const phases = results.filter((r) => r.workers === workers).flatMap((r) => r.phases);
      const cell = (name: string) => {
        const v = phases.map((p) => p[name] ?? 0).sort((a, b) => a - b);
        return `${percentile(v, 50).toFixed(0)} / ${percentile(v, 95).toFixed(0)}`;
      };
      console.log(`| ${workers} | ${SUITE_PHASES.map(cell).join(" | ")} |`);
    }
    const one = results.find((r) => r.workers === 1);
    if (one) {
      const sum = (key: string) => one.phases.reduce((total, p) => total + (p[key] ?? 0), 0);
      const inPhases = SUITE_PHASES.reduce((total, name) => total + sum(`${name}SandboxCpu`), 0);
      console.log(`\nProfile, --maxWorkers 1 (${s(one.wallMs)} wall; the sandbox's process used ${s(one.sandboxCpuMs)} of CPU, the run ${s(one.cpuMs)}):\n`);
      console.log("| phase | wall, all tests | sandbox CPU, all tests | sandbox CPU a test |\n|---|---|---|---|");
      for (const name of SUITE_PHASES) {
        console.log(`| ${name} | ${s(sum(name))} | ${s(sum(`${name}SandboxCpu`))} | ${(sum(`${name}SandboxCpu`) / one.phases.length).toFixed(0)} ms |`);
      }
      console.log(`| outside the tests (its start, stop, the test files' loading) | | ${s(one.sandboxCpuMs - inPhases)} | |`);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
