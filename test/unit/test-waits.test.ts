import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// A test that sleeps and then asserts that something did not happen passes when the thing never runs at all. Such a
// test waits for a condition instead (a sentinel that proves the job ran: test/integration/scenario-rules.test.ts
// `conclusionJobPassed`); where nothing can be awaited, the sleep says why on the line above it
// (`// waits on purpose: ...`), so every such wait is a decision someone wrote down.
const root = path.resolve(__dirname, "../..");
const SLEEP = /^\s*await new Promise\(\((\w+)\) => setTimeout\(\1, [^)]+\)\);/;

function testFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "generated" ? [] : testFiles(rel);
    return /\.(test|spec)\.ts$/.test(entry.name) ? [rel] : [];
  });
}

describe("tests wait for conditions", () => {
  it("no fixed sleep is followed by an assertion unless the line above says why it waits", () => {
    const found: string[] = [];
    for (const file of [...testFiles("test"), ...testFiles("e2e"), ...testFiles("lib"), ...testFiles("clients/cli/src")]) {
      const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        if (!SLEEP.test(line)) return;
        const next = lines.slice(i + 1).find((l) => l.trim() !== "") ?? "";
        const said = /\/\/ waits on purpose: \S/.test(lines[i - 1] ?? "");
        if (/^\s*expect[.(]/.test(next) && !said) found.push(`${file}:${i + 1}`);
      });
    }
    expect(found, "sleep then assert: wait for a condition, or say why above the sleep (// waits on purpose: ...)").toEqual([]);
  });
});
