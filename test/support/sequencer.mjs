// Vitest's file order for `npm test` (vitest.config.mts `sequence.sequencer`). Plain JavaScript: the config imports it.
import path from "node:path";
import { BaseSequencer } from "vitest/node";

/**
 * The integration files that take longest (seconds on a 2-core machine, from the "slowest test files" table
 * `npm test` prints), longest first. They start first, so the run does not end with one worker busy on a long file
 * while the other has nothing left (docs/guides/work-on-sandpiper.md "Tests"). Vitest's own order (the last run's
 * durations when its cache has them, else the larger file first) applies to every other file, after these.
 * @type {readonly string[]} paths from the repository's root
 */
export const SLOW_FILES = [
  // Packs the sandbox tarball first; the other files that install it (sandbox-merchants, sandbox-platforms,
  // python-package) start later and reuse it (scripts/pack-sandbox.mjs packs one at a time).
  "test/integration/sandbox-package.test.ts", // 36 s
  "test/integration/hostile.test.ts", // 94 s
  "test/integration/soak-days.test.ts", // 77 s
  "test/integration/python-package.test.ts", // 180 s or more (a virtual environment, three pytest runs)
  "test/integration/sandbox-merchants.test.ts", // 170 s
  "test/integration/sandbox-platforms.test.ts", // 120 s or more (three Node.js majors, npm publish --dry-run)
  "test/integration/cli.test.ts", // 42 s
  "test/integration/listen-delivery.test.ts", // 34 s
  "test/integration/calendar.test.ts", // 33 s
  "test/integration/faults.test.ts", // 33 s
  "test/integration/listen.test.ts", // 30 s
  "test/integration/cli-simulate.test.ts", // 30 s
  "test/integration/hardening.test.ts", // 25 s
];

/**
 * Vitest's sequencer with {@link SLOW_FILES} moved to the front of their project's files, in that order; the order of
 * the projects (unit before integration) and of every other file is Vitest's.
 */
export default class SlowFilesFirst extends BaseSequencer {
  /**
   * @param {import("vitest/node").TestSpecification[]} files
   * @returns {Promise<import("vitest/node").TestSpecification[]>}
   */
  async sort(files) {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec) => {
      const index = SLOW_FILES.indexOf(path.relative(root, spec.moduleId).split(path.sep).join("/"));
      return index < 0 ? SLOW_FILES.length : index;
    };
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    return projects.flatMap((name) =>
      sorted
        .map((spec, position) => ({ spec, position }))
        .filter(({ spec }) => spec.project.name === name)
        .sort((a, b) => rank(a.spec) - rank(b.spec) || a.position - b.position)
        .map(({ spec }) => spec),
    );
  }
}
