import fs from "node:fs";
import path from "node:path";

// Code blocks of the README and the guides, for the tests that run them as written (readme-snippets.test.ts,
// cli.test.ts, client.test.ts, sandbox-merchants.test.ts, ...) and the benchmarks that run a guide's pattern
// (bench/sandbox-suite.ts): a guide that drifts from working code fails there.

const root = path.resolve(__dirname, "../..");

/**
 * The code block of `file` (a path from the repository root, e.g. "docs/guides/test-every-path.md") whose first line
 * starts with `firstLine`, without its fences.
 * @throws Error when the file has no such block
 */
export function docBlock(file: string, firstLine: string): string {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  const block = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1] ?? "").find((b) => b.startsWith(firstLine));
  if (!block) throw new Error(`${file} has no code block starting with ${firstLine}`);
  return block;
}
