import fs from "node:fs";
import path from "node:path";

// Code blocks of the README and the guides for tests that run them as written (readme-snippets.test.ts, cli.test.ts,
// client.test.ts, request-log.test.ts, standard-webhooks.test.ts): a guide that drifts from working code fails there.

const root = path.resolve(__dirname, "../..");

/** The code block of `file` (a path from the repository root, e.g. "docs/guides/test-every-path.md") whose first line starts with `firstLine`. */
export function docBlock(file: string, firstLine: string): string {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  const block = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1] ?? "").find((b) => b.startsWith(firstLine));
  if (!block) throw new Error(`${file} has no code block starting with ${firstLine}`);
  return block;
}
