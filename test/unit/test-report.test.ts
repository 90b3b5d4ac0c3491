import { describe, expect, it } from "vitest";
import { slowestFiles, stepTable } from "../../scripts/test-report.mjs";

// npm test's closing tables (docs/guides/work-on-sandpiper.md "Tests").
describe("npm test's closing tables", () => {
  it("lists each step with its seconds and result, then the whole run", () => {
    const table = stepTable(
      [
        { name: "lint", seconds: 12.34, ok: true },
        { name: "build", seconds: 80, ok: false },
      ],
      200.05,
    );
    expect(table.split("\n")).toEqual([
      "| step | seconds | result |",
      "|---|---:|---|",
      "| lint | 12.3 | ok |",
      "| build | 80.0 | FAILED |",
      "| whole run | 200.1 | |",
    ]);
  });

  it("ranks vitest files by wall time and Playwright specs by the sum of their tests, slowest first, cut to the count", () => {
    const vitest = {
      testResults: [
        { name: "/repo/test/integration/a.test.ts", startTime: 1_000, endTime: 31_000 },
        { name: "/repo/test/integration/b.test.ts", startTime: 0, endTime: 5_000 },
      ],
    };
    const playwright = {
      suites: [
        {
          file: "x.spec.ts",
          specs: [{ tests: [{ results: [{ duration: 10_000 }] }] }],
          suites: [{ specs: [{ tests: [{ results: [{ duration: 8_000 }] }] }] }],
        },
      ],
    };
    const lines = slowestFiles(vitest, playwright, "/repo", 2).split("\n");
    expect(lines.slice(2)).toEqual(["| test/integration/a.test.ts | 30.0 |", "| e2e/x.spec.ts | 18.0 |"]);
  });

  it("says so when there is no report", () => {
    expect(slowestFiles(null, null, "/repo", 10)).toMatch(/No test report/);
  });
});
