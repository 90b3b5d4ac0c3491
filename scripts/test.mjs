// npm test: lint, format check, type-check, build, unit + integration tests (vitest) and end-to-end tests
// (Playwright in Debian chromium). Ends with one line "N passed, N failed" for the whole suite.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { generateClient, root } from "./db.mjs";

const bin = (name) => path.join(root, "node_modules", ".bin", name);
const out = path.join(root, "tmp");
fs.mkdirSync(out, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
let passed = 0;
let failed = 0;

function step(name, cmd, args) {
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env });
  return result.status === 0;
}
function check(name, ok) {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok" : "FAILED"}: ${name}`);
}

generateClient();
check("lint (eslint)", step("lint", bin("eslint"), ["."]));
check("format (prettier --check)", step("format", bin("prettier"), ["--check", "."]));
check("type-check (tsc --noEmit)", step("type-check", bin("tsc"), ["--noEmit"]));
const built = step("build", process.execPath, [path.join(root, "scripts", "build.mjs")]);
check("build (next build)", built);

const vitestJson = path.join(out, "vitest.json");
fs.rmSync(vitestJson, { force: true });
const projects = built ? [] : ["--project", "unit"];
step("unit and integration tests (vitest)", bin("vitest"), ["run", ...projects, "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`]);
if (fs.existsSync(vitestJson)) {
  const report = JSON.parse(fs.readFileSync(vitestJson, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0) + (report.success || report.numFailedTests > 0 ? 0 : 1);
} else {
  check("vitest produced a report", false);
}

if (built && !process.argv.includes("--no-e2e")) {
  const pwJson = path.join(out, "playwright.json");
  fs.rmSync(pwJson, { force: true });
  env.PLAYWRIGHT_JSON_OUTPUT_NAME = pwJson;
  step("end-to-end tests (Playwright, Debian chromium)", bin("playwright"), ["test", "--reporter=list,json"]);
  if (fs.existsSync(pwJson)) {
    const stats = JSON.parse(fs.readFileSync(pwJson, "utf8")).stats ?? {};
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed += stats.unexpected ?? 0;
    if ((stats.expected ?? 0) + (stats.unexpected ?? 0) === 0) check("playwright ran tests", false);
  } else {
    check("playwright produced a report", false);
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
