import { describe, expect, it } from "vitest";
import { failureList, slowestFiles, stepTable } from "../../scripts/test-report.mjs";

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

  it("names each failed test and each file whose own setup failed, with the first line of its message", () => {
    const vitest = {
      testResults: [
        {
          name: "/repo/test/unit/a.test.ts",
          status: "failed",
          assertionResults: [
            { fullName: "a works", status: "passed", failureMessages: [] },
            { fullName: "a fails", status: "failed", failureMessages: ["\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at x"] },
          ],
        },
        {
          name: "/repo/test/integration/b.test.ts",
          status: "failed",
          message: "\nHook timed out in 10000ms",
          assertionResults: [{ fullName: "b", status: "skipped" }],
        },
        { name: "/repo/test/unit/c.test.ts", status: "passed", assertionResults: [{ fullName: "c", status: "passed" }] },
      ],
    };
    const playwright = {
      suites: [
        {
          file: "x.spec.ts",
          specs: [{ title: "passes", tests: [{ status: "expected", results: [] }] }],
          suites: [{ title: "group", specs: [{ title: "breaks", tests: [{ status: "unexpected", results: [{ error: { message: "Timeout 5000ms" } }] }] }] }],
        },
      ],
    };
    expect(failureList(vitest, playwright, "/repo").split("\n")).toEqual([
      "FAILED test/unit/a.test.ts › a fails: AssertionError: expected 1 to be 2",
      "FAILED test/integration/b.test.ts (the file itself): Hook timed out in 10000ms",
      "FAILED e2e/x.spec.ts › group › breaks: Timeout 5000ms",
    ]);
    expect(failureList(vitest, playwright, "/repo", 1).split("\n")).toEqual([
      "FAILED test/unit/a.test.ts › a fails: AssertionError: expected 1 to be 2",
      "... and 2 more",
    ]);
    expect(failureList({ testResults: [vitest.testResults[2]] }, null, "/repo")).toBe("");
  });
});
