import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// A test that sleeps and then asserts that something did not happen passes when the thing never runs at all. Such a
// test waits for a condition instead (a sentinel that proves the job ran: test/integration/scenario-rules.test.ts
// `conclusionJobPassed`); where nothing can be awaited, the sleep says why on the line above it
// (`// waits on purpose: ...`), so every such wait is a decision someone wrote down.
const root = path.resolve(__dirname, "../..");
/** A fixed sleep: a promise of setTimeout awaited, a `sleep(...)` helper awaited, or Playwright's waitForTimeout. */
const SLEEP = /^\s*(?:await new Promise\(\((\w+)\) => setTimeout\(\1, [^)]+\)\);|await sleep\(|await page\.waitForTimeout\()/;

/** The test files, and the support code they wait in (test/support, e2e/support, scripts/harness). */
function testFiles(dir: string, all = false): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "generated" ? [] : testFiles(rel, all);
    return (all ? /\.m?ts$/ : /\.(test|spec)\.ts$/).test(entry.name) ? [rel] : [];
  });
}

/** The comment lines right above line `i` (a run of `//` lines, nothing between them and the line). */
function commentAbove(lines: string[], i: number): string {
  const above: string[] = [];
  for (let j = i - 1; j >= 0; j--) {
    const line = lines[j] ?? "";
    if (!/^\s*\/\//.test(line)) break;
    above.unshift(line);
  }
  return above.join(" ");
}

describe("tests wait for conditions", () => {
  it("every fixed sleep in the tests, their support code and scripts/harness says why no condition can be awaited", () => {
    const found: string[] = [];
    const files = [
      ...testFiles("test"),
      ...testFiles("e2e"),
      ...testFiles("lib"),
      ...testFiles("clients/cli/src"),
      ...testFiles("test/support", true),
      ...testFiles("e2e/support", true),
      ...testFiles("scripts/harness", true),
    ];
    for (const file of new Set(files)) {
      const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        if (SLEEP.test(line) && !/\/\/ waits on purpose\b.*:/.test(commentAbove(lines, i))) found.push(`${file}:${i + 1}`);
      });
    }
    expect(
      found,
      "a fixed sleep: wait for a condition (scripts/harness/wait.ts waitUntil), or say why in the comment above it (// waits on purpose: ...)",
    ).toEqual([]);
  });

  it("the check finds a sleep without its reason, and accepts one with it", () => {
    const lines = [
      "  // let it settle",
      "  await new Promise((r) => setTimeout(r, 300));",
      "  // waits on purpose: proves nothing arrives",
      "  await sleep(500);",
    ];
    expect(SLEEP.test(lines[1] ?? "") && /waits on purpose/.test(commentAbove(lines, 1))).toBe(false);
    expect(SLEEP.test(lines[3] ?? "") && /waits on purpose\b.*:/.test(commentAbove(lines, 3))).toBe(true);
  });
});
