import fs from "node:fs";
import path from "node:path";

// README code blocks for tests that run them as written (readme-snippets.test.ts, cli.test.ts): a README that drifts
// from working code fails there.

const root = path.resolve(__dirname, "../..");

/** The README code block whose first line starts with `firstLine`. */
export function readmeBlock(firstLine: string): string {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const block = [...readme.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.startsWith(firstLine));
  if (!block) throw new Error(`README.md has no code block starting with ${firstLine}`);
  return block;
}
