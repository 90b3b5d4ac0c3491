import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import SlowFilesFirst, { SLOW_FILES } from "../support/sequencer.mjs";

const root = path.resolve(import.meta.dirname, "../..");

/** A file of a project as Vitest's sequencer sees it (the fields BaseSequencer.sort reads). */
function spec(project: string, file: string) {
  return { moduleId: path.join(root, file), project: { name: project, config: { sequence: { groupOrder: project === "unit" ? 0 : 1 }, isolate: true } } };
}

describe("the test files' order (test/support/sequencer.mjs)", () => {
  it("starts the known slow integration files first, longest first, after the unit files, and keeps Vitest's order for the rest", async () => {
    // No cached durations or sizes: Vitest's own order is the order given.
    const ctx = { config: { root, shard: { index: 1, count: 1 } }, cache: { getFileTestResults: () => undefined, getFileStats: () => undefined } };
    const files = [
      spec("integration", "test/integration/a.test.ts"),
      spec("integration", SLOW_FILES[1]!),
      spec("unit", "test/unit/x.test.ts"),
      spec("integration", "test/integration/b.test.ts"),
      spec("integration", SLOW_FILES[0]!),
      spec("unit", "test/unit/y.test.ts"),
    ];
    const sorted = await new SlowFilesFirst(ctx as never).sort(files as never);
    expect(sorted.map((s) => path.relative(root, (s as { moduleId: string }).moduleId))).toEqual([
      "test/unit/x.test.ts",
      "test/unit/y.test.ts",
      SLOW_FILES[0],
      SLOW_FILES[1],
      "test/integration/a.test.ts",
      "test/integration/b.test.ts",
    ]);
  });

  it("names only files that exist", () => {
    for (const file of SLOW_FILES) expect(fs.existsSync(path.join(root, file)), file).toBe(true);
  });
});
