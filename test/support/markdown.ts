import fs from "node:fs";
import path from "node:path";

/**
 * The project's prose: README.md and every markdown file under docs/, at any depth (task guides may move text between
 * them), as paths relative to `root`, sorted. What the docs checks read, so a statement is checked wherever it lives.
 */
export function markdownFiles(root: string): string[] {
  const docs = fs
    .readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.join("docs", file).split(path.sep).join("/"));
  return ["README.md", ...docs.sort()];
}
