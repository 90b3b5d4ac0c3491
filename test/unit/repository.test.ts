import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { present } from "../../scripts/harness/present";

// The repository stands on its own (docs/architecture.md): a clone has no documents beside it, so no tracked
// file may point to one, and every document a comment cites exists here.

const root = path.resolve(__dirname, "../..");
const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((f) => f && /\.(ts|tsx|mts|mjs|js|md|sql|prisma|json|yml|yaml|css)$/.test(f) && f !== "package-lock.json")
  .filter((f) => fs.existsSync(path.join(root, f)));

// Built from parts so that this file does not match itself.
const outside = [
  new RegExp(["\\.\\.", "shared"].join("/")),
  new RegExp(`\\b${"SP" + "EC"}(\\.md)?\\b`),
  new RegExp(`\\b${"DES" + "IGN"}(\\.md)?\\b`),
  new RegExp(`\\b${"issue"}s? #?\\d+`, "i"),
  new RegExp(`\\b${"BRI" + "EF"}\\b`),
];

describe("the repository stands on its own", () => {
  it("no tracked file refers to documents outside the repository or to issue numbers", () => {
    const hits: string[] = [];
    for (const file of tracked) {
      const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        if (outside.some((re) => re.test(line))) hits.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(hits).toEqual([]);
  });

  it("every docs/*.md that a file cites exists (a guide, and a decision record in docs/decisions/, too)", () => {
    const cited = new Set<string>();
    for (const file of tracked) {
      for (const m of fs.readFileSync(path.join(root, file), "utf8").matchAll(/\bdocs\/((?:guides\/|decisions\/)?[A-Za-z0-9-]+\.md)\b/g))
        cited.add(present(m[1], "m[1]"));
    }
    expect(cited.size).toBeGreaterThan(3);
    for (const doc of cited) expect(fs.existsSync(path.join(root, "docs", doc)), `docs/${doc}`).toBe(true);
  });

  it('every section a comment cites as docs/<file>.md "<section>" (or docs/guides/<file>.md, docs/decisions/<record>.md, or README "<section>") is a heading of that file', () => {
    const headings = new Map<string, Set<string>>();
    const docs = fs
      .readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
      .map((f) => f.split(path.sep).join("/"))
      .filter((f) => f.endsWith(".md"));
    for (const doc of [...docs, "../README.md"]) {
      const text = fs.readFileSync(path.join(root, "docs", doc), "utf8");
      headings.set(
        doc === "../README.md" ? "README" : doc,
        new Set([...text.matchAll(/^#+ (.+)$/gm)].map((m) => present(m[1], "m[1]").replace(/`/g, "").trim())),
      );
    }
    const missing: string[] = [];
    const has = (doc: string, section: string) =>
      [...(headings.get(doc) ?? [])].some((h) => h === section || h.startsWith(`${section} `) || h.startsWith(`${section}:`));
    for (const file of tracked) {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      for (const [, doc = "", section = ""] of text.matchAll(/\bdocs\/((?:guides\/|decisions\/)?[A-Za-z0-9-]+\.md) ["']([^"'\n]+)["']/g)) {
        if (!has(doc, section)) missing.push(`${file}: docs/${doc} "${section}"`);
      }
      if (file !== "test/unit/repository.test.ts")
        for (const [, section = ""] of text.matchAll(/\bREADME ["']([^"'\n]+)["']/g)) {
          if (!has("README", section)) missing.push(`${file}: README "${section}"`);
        }
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it("every dependency with install scripts has an allowScripts entry in package.json (npm ci warns of none)", () => {
    const lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8")) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const allowScripts = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { allowScripts: Record<string, boolean> }).allowScripts;
    const withScripts = Object.entries(lock.packages)
      .filter(([where, p]) => where !== "" && p.hasInstallScript)
      .map(([where]) => where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length));
    expect(
      withScripts.filter((name) => !(name in allowScripts)),
      "decide allow (true) or deny (false) for these in package.json allowScripts",
    ).toEqual([]);
  });
});
