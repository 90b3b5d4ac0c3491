import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GUIDES } from "@/app/docs/guides";

// Every relative link of the README and the docs (docs/**/*.md) leads somewhere: the file or folder exists, and an
// #anchor names a heading of the target in GitHub's slug style (lowercase, punctuation dropped, spaces as hyphens,
// "-1", "-2" after a repeated heading). The README stays an entry page, every guide ends with "Read next", and the
// list of guides that /docs shows (app/docs/guides.ts) is the folder's.

const root = path.resolve(__dirname, "../..");
const docs = [
  "README.md",
  ...fs
    .readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
    .map((f) => `docs/${f.split(path.sep).join("/")}`)
    .filter((f) => f.endsWith(".md")),
];

/** The text of a Markdown file without its fenced code blocks and inline code spans (links there are not links). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "code");
}

/** GitHub's anchor of a heading's text. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a Markdown file's headings, repeated ones numbered as GitHub numbers them. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = fs.readFileSync(path.join(root, file), "utf8").replace(/^```[\s\S]*?^```/gm, "");
  for (const [, heading = ""] of text.matchAll(/^#{1,6} (.+?)#*$/gm)) {
    const base = slug(heading.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1"));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe("links in the README and the docs", () => {
  it("slug() writes GitHub's anchors", () => {
    expect(slug("Receiving callbacks on your own machine: `sandpiper listen`")).toBe("receiving-callbacks-on-your-own-machine-sandpiper-listen");
    expect(slug("Creating a payment: `POST /v1/payments`")).toBe("creating-a-payment-post-v1payments");
    expect(slug("Reading: `GET /v1/payments/{id}`")).toBe("reading-get-v1paymentsid");
  });

  it("every relative link and #anchor resolves", () => {
    const dead: string[] = [];
    let checked = 0;
    for (const file of docs) {
      for (const [, target = ""] of prose(fs.readFileSync(path.join(root, file), "utf8")).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        checked++;
        const [ref, anchor] = target.split("#");
        const resolved = ref ? path.posix.normalize(path.posix.join(path.posix.dirname(file), ref)) : file;
        if (!fs.existsSync(path.join(root, resolved))) dead.push(`${file}: ${target} (no ${resolved})`);
        else if (anchor !== undefined && (!resolved.endsWith(".md") || !anchors(resolved).has(anchor))) dead.push(`${file}: ${target} (no heading #${anchor})`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(dead).toEqual([]);
  });

  it("the README is an entry page of at most 250 lines, and every guide ends with its Read next links", () => {
    expect(fs.readFileSync(path.join(root, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(250);
    for (const file of docs.filter((f) => f.startsWith("docs/guides/"))) {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      const last = text.slice(text.lastIndexOf("\n## "));
      expect(last, file).toMatch(/^\n## Read next\n\n(- .*\[.+\]\(.+\).*\n)+$/);
    }
  });

  it("/docs lists every guide of docs/guides/ by its file and first heading", () => {
    const files = docs.filter((f) => f.startsWith("docs/guides/"));
    expect(GUIDES.map((g) => g.file).sort()).toEqual(files.sort());
    for (const g of GUIDES) expect(fs.readFileSync(path.join(root, g.file), "utf8").split("\n")[0], g.file).toBe(`# ${g.title}`);
  });
});
