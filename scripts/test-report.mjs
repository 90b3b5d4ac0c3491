// The closing tables of npm test (scripts/test.mjs): each step's wall time and the slowest test files, so that
// where the suite's time goes is read off every run (docs/guides/work-on-sandpiper.md "Tests").
import path from "node:path";

/**
 * The step table: one row per step, its wall time in seconds and whether it passed, then the whole run.
 * @param steps `{ name, seconds, ok }[]` in the order they ended; steps that ran side by side overlap in time.
 * @param totalSeconds the wall time of the whole run.
 * @returns the table as text (Markdown).
 */
export function stepTable(steps, totalSeconds) {
  const rows = steps.map((s) => `| ${s.name} | ${s.seconds.toFixed(1)} | ${s.ok ? "ok" : "FAILED"} |`);
  return ["| step | seconds | result |", "|---|---:|---|", ...rows, `| whole run | ${totalSeconds.toFixed(1)} | |`].join("\n");
}

/**
 * The `count` slowest test files of the run: vitest files by their wall time (the report's per-file start and end),
 * Playwright spec files by the sum of their tests' durations (one worker: they run one after another).
 * @param vitest vitest's JSON report (`testResults[].{name,startTime,endTime}`) or null
 * @param playwright Playwright's JSON report (`suites[].{file,specs[].tests[].results[].duration}`, nested suites) or null
 * @returns the table as text (Markdown), or a line saying there was no report.
 */
export function slowestFiles(vitest, playwright, root, count) {
  const files = [];
  for (const r of vitest?.testResults ?? []) {
    if (typeof r.startTime === "number" && typeof r.endTime === "number")
      files.push({ file: path.relative(root, r.name), seconds: (r.endTime - r.startTime) / 1000 });
  }
  const specMs = new Map();
  const walk = (suite, file) => {
    const where = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) for (const result of t.results ?? []) specMs.set(where, (specMs.get(where) ?? 0) + (result.duration ?? 0));
    }
    for (const child of suite.suites ?? []) walk(child, where);
  };
  for (const suite of playwright?.suites ?? []) walk(suite, suite.file);
  for (const [file, ms] of specMs) files.push({ file: path.join("e2e", file), seconds: ms / 1000 });
  if (files.length === 0) return "No test report to list the slowest files from.";
  const rows = files
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count)
    .map((f) => `| ${f.file} | ${f.seconds.toFixed(1)} |`);
  return [`| slowest ${count} test files | seconds |`, "|---|---:|", ...rows].join("\n");
}

/**
 * What failed, named, for the end of the run: CI often keeps only the tail of a run's output, where the test runners'
 * own failure reports (printed far above) are gone. One line per failed test file of vitest (a file whose setup
 * failed has no failed test, only its own message) and per failed test, with the first line of its message.
 * @param vitest vitest's JSON report (`testResults[].{name,status,message,assertionResults[].{fullName,status,failureMessages}}`) or null
 * @param playwright Playwright's JSON report (`suites[].specs[].tests[].{status,results[].error.message}`, nested suites) or null
 * @param max at most this many lines; a last line says how many more there were.
 * @returns the lines as text, or "" when nothing failed.
 */
export function failureList(vitest, playwright, root, max = 30) {
  const firstLine = (text) =>
    String(text ?? "")
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim()
      .slice(0, 300) ?? "";
  const lines = [];
  for (const file of vitest?.testResults ?? []) {
    const where = path.relative(root, file.name);
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failedTests) lines.push(`FAILED ${where} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    if (file.status === "failed" && failedTests.length === 0) lines.push(`FAILED ${where} (the file itself): ${firstLine(file.message)}`);
  }
  const walk = (suite, file, titles) => {
    const where = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== "unexpected") continue;
        const error = (t.results ?? []).map((r) => r.error?.message).find(Boolean);
        lines.push(`FAILED ${path.join("e2e", where)} › ${[...titles, spec.title].join(" › ")}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, where, [...titles, child.title]);
  };
  for (const suite of playwright?.suites ?? []) walk(suite, suite.file, []);
  if (lines.length === 0) return "";
  const shown = lines.slice(0, max);
  if (lines.length > max) shown.push(`... and ${lines.length - max} more`);
  return shown.join("\n");
}
