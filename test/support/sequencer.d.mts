/** Types of test/support/sequencer.mjs for the TypeScript tests. */
import { BaseSequencer, type TestSpecification } from "vitest/node";
export const SLOW_FILES: readonly string[];
export default class SlowFilesFirst extends BaseSequencer {
  sort(files: TestSpecification[]): Promise<TestSpecification[]>;
}
