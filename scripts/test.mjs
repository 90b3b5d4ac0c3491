// npm test: lint, format check, type-check, build, then unit + integration tests (vitest) and end-to-end tests
// (Playwright in Debian chromium) side by side. Ends with a table of each step's time, the ten slowest test files, and one line
// "N passed, N failed" for the whole suite (docs/guides/work-on-sandpiper.md "Tests").
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { generateClient, root } from "./db.mjs";
import { failureList, slowestFiles, stepTable } from "./test-report.mjs";

const bin = (name) => path.join(root, "node_modules", ".bin", name);
const out = path.join(root, "tmp");
fs.mkdirSync(out, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const steps = [];
let passed = 0;
let failed = 0;

/**
 * Runs one step as a child process. `buffered` collects its output and prints it in one piece when it ends (steps
 * that run side by side do not interleave their lines); otherwise it streams to this terminal. `printAfter`: a promise
 * (a streaming step's) that the buffered output waits for before it is printed.
 * @returns true when it exited 0; its wall time is recorded for the step table.
 */
function step(name, cmd, args, { buffered = false, printAfter = null } = {}) {
  const started = performance.now();
  if (!buffered) console.log(`\n=== ${name} ===`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...env }, stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit" });
    const chunks = [];
    if (buffered) for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => chunks.push(chunk));
    child.on("close", async (code) => {
      const seconds = (performance.now() - started) / 1000;
      steps.push({ name, seconds, ok: code === 0 });
      // A step beside a streaming one prints once that one has ended, so their lines do not interleave.
      if (printAfter) await printAfter;
      if (buffered) process.stdout.write(`\n=== ${name} (${seconds.toFixed(1)} s) ===\n${Buffer.concat(chunks).toString("utf8")}`);
      resolve(code === 0);
    });
  });
}
function check(name, ok) {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok" : "FAILED"}: ${name}`);
}

const suiteStarted = performance.now();
generateClient();
// The checks and the build read the same sources and write nothing the others read (the Prisma client is generated
// once, above, not again by the build): they run side by side (the checks are single-threaded, the build leaves a
// core idle for much of its time).
const [linted, formatted, typed, built] = await Promise.all([
  step("lint", bin("eslint"), ["."], { buffered: true }),
  step("format", bin("prettier"), ["--check", "."], { buffered: true }),
  step("type-check", bin("tsc"), ["--noEmit"], { buffered: true }),
  step("build", process.execPath, [path.join(root, "scripts", "build.mjs"), "--client-generated"], { buffered: true }),
]);
check("lint (eslint)", linted);
check("format (prettier --check)", formatted);
check("type-check (tsc --noEmit)", typed);
check("build (next build)", built);

const vitestJson = path.join(out, "vitest.json");
fs.rmSync(vitestJson, { force: true });
const projects = built ? [] : ["--project", "unit"];
// Vitest and Playwright run side by side (docs/guides/work-on-sandpiper.md "Tests"): each has its own database and
// service on its own port, and the integration tests leave part of the two cores idle while they wait on the
// service; Vitest's output streams, Playwright's is printed when both have ended.
const vitestDone = step("unit and integration tests (vitest)", bin("vitest"), [
  "run",
  ...projects,
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestJson}`,
]);
const e2e = built && !process.argv.includes("--no-e2e");
const pwJson = path.join(out, "playwright.json");
fs.rmSync(pwJson, { force: true });
env.PLAYWRIGHT_JSON_OUTPUT_NAME = pwJson;
const e2eDone = e2e
  ? step("end-to-end tests (Playwright, Debian chromium)", bin("playwright"), ["test", "--reporter=list,json"], { buffered: true, printAfter: vitestDone })
  : Promise.resolve(false);
await Promise.all([vitestDone, e2eDone]);

let vitestReport = null;
if (fs.existsSync(vitestJson)) {
  vitestReport = JSON.parse(fs.readFileSync(vitestJson, "utf8"));
  passed += vitestReport.numPassedTests;
  failed += vitestReport.numFailedTests + (vitestReport.numRuntimeErrorTestSuites ?? 0) + (vitestReport.success || vitestReport.numFailedTests > 0 ? 0 : 1);
} else {
  check("vitest produced a report", false);
}

let playwrightReport = null;
if (e2e) {
  if (fs.existsSync(pwJson)) {
    playwrightReport = JSON.parse(fs.readFileSync(pwJson, "utf8"));
    const stats = playwrightReport.stats ?? {};
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed += stats.unexpected ?? 0;
    if ((stats.expected ?? 0) + (stats.unexpected ?? 0) === 0) check("playwright ran tests", false);
  } else {
    check("playwright produced a report", false);
  }
}

console.log(`\n${stepTable(steps, (performance.now() - suiteStarted) / 1000)}`);
console.log(`\n${slowestFiles(vitestReport, playwrightReport, root, 10)}`);
const failures = failureList(vitestReport, playwrightReport, root);
if (failures) console.log(`\n${failures}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
