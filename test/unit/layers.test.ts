import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { present } from "../../scripts/harness/present";

// docs/architecture.md "Layers and imports": lib/ is five rooms, each a folder of folders. The rooms are ranked
// (ROOMS below, lowest first) and an import never runs from a room to one ranked above it. Inside and across rooms, the
// folders form layers: a folder that imports another (a value or a type) is above it; two folders that import each
// other would be one layer in two places, so every cycle between folders is listed here as a failure, with the files
// that make it. Files are checked the same way: no file of lib/ or of the merchant-side package (clients/cli/src) is
// part of an import circle, even inside one folder, and the service's lib/ imports nothing of clients/, app/ or
// components/. The merchant-side command imports nothing of lib/ but the published contract (lib/contract).

/** The rooms of lib/, lowest first: a room imports only itself and the rooms before it. */
const ROOMS = ["platform", "contract", "domain", "simulators", "application"] as const;

const root = path.resolve(__dirname, "../..");
const lib = path.join(root, "lib");

/**
 * The folder `<room>/<folder>` of a path under lib/ (a file directly in a room is its own folder: `platform/db`,
 * `domain/audit`, ...).
 */
const folderOf = (modulePath: string) =>
  modulePath
    .split("/")
    .slice(0, 2)
    .join("/")
    .replace(/\.(ts|mjs)$/, "");
const roomOf = (folder: string) => folder.split("/")[0] ?? "";

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return full === path.join(lib, "platform", "generated") ? [] : sources(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

const IMPORT = /(?:from\s+|import\s*\(?\s*)["'](@\/[^"']+|\.\.?\/[^"']+)["']/g;

/** The file a module path names, seen from `file`: `@/x` from the root, `./x` from the file's folder; null outside the repository's sources. */
function resolveImport(file: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? path.join(root, spec.slice(2)) : path.resolve(path.dirname(file), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** file -> file it imports -> [the importing file] (the shape `cycles` takes), for every source under `dirs`. */
function fileImports(dirs: string[]): Map<string, Map<string, string[]>> {
  const edges = new Map<string, Map<string, string[]>>();
  for (const file of dirs.flatMap((d) => sources(path.join(root, d)))) {
    const from = path.relative(root, file);
    for (const m of fs.readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = resolveImport(file, present(m[1], "m[1]"));
      if (!target) continue;
      const to = path.relative(root, target);
      const byTarget = edges.get(from) ?? new Map<string, string[]>();
      byTarget.set(to, [from]);
      edges.set(from, byTarget);
    }
  }
  return edges;
}

/** folder -> folder it imports -> the files that do. */
function folderImports(): Map<string, Map<string, string[]>> {
  const edges = new Map<string, Map<string, string[]>>();
  for (const file of sources(lib)) {
    const from = folderOf(path.relative(lib, file));
    // `@/lib/...` imports, and relative ones (`../events/signing`, used where code runs outside the service's build),
    // resolved against the importing file.
    for (const m of fs.readFileSync(file, "utf8").matchAll(/(?:from\s+|import\s*\(?\s*)["'](@\/lib\/[^"']+|\.\.?\/[^"']+)["']/g)) {
      const target = present(m[1], "m[1]").startsWith("@/lib/")
        ? present(m[1], "m[1]").slice("@/lib/".length)
        : path.relative(lib, path.resolve(path.dirname(file), present(m[1], "m[1]")));
      if (target.startsWith("..")) continue; // outside lib/
      const to = folderOf(target);
      if (to === from || to === "platform/generated") continue;
      const byTarget = edges.get(from) ?? new Map<string, string[]>();
      byTarget.set(to, [...(byTarget.get(to) ?? []), path.relative(root, file)]);
      edges.set(from, byTarget);
    }
  }
  return edges;
}

/** The strongly connected groups of folders (Tarjan): a group of more than one folder is a cycle. */
function cycles(edges: Map<string, Map<string, string[]>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const seen = new Map<string, { index: number; low: number; onStack: boolean }>();
  const groups: string[][] = [];
  const connect = (v: string) => {
    const node = { index, low: index, onStack: true };
    seen.set(v, node);
    index++;
    stack.push(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      const other = seen.get(w);
      if (!other) {
        connect(w);
        node.low = Math.min(node.low, seen.get(w)!.low);
      } else if (other.onStack) node.low = Math.min(node.low, other.index);
    }
    if (node.low === node.index) {
      const group: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        seen.get(w)!.onStack = false;
        group.push(w);
        if (w === v) break;
      }
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!seen.has(v)) connect(v);
  return groups;
}

describe('lib/ layers (docs/architecture.md "Layers and imports")', () => {
  it("finds a cycle through three folders and none in a chain", () => {
    const graph = (pairs: [string, string][]) => new Map(pairs.map(([a, b]) => [a, new Map([[b, [`lib/${a}/x.ts`]]])]));
    expect(
      cycles(
        graph([
          ["a", "b"],
          ["b", "c"],
          ["c", "a"],
        ]),
      ),
    ).toEqual([["a", "b", "c"]]);
    expect(
      cycles(
        graph([
          ["a", "b"],
          ["b", "c"],
        ]),
      ),
    ).toEqual([]);
  });

  it("no import circle runs through the files of lib/ or clients/cli/src, even inside one folder", () => {
    const edges = fileImports(["lib", "clients/cli/src"]);
    expect(edges.size).toBeGreaterThan(100);
    const found = cycles(edges).map((group) => group.join(" <-> "));
    expect(found).toEqual([]);
  });

  it("a file-level circle inside one folder is found (two files that import each other, types included)", () => {
    const dir = fs.mkdtempSync(path.join(root, "tmp-layers-"));
    try {
      fs.writeFileSync(path.join(dir, "a.ts"), 'import type { B } from "./b";\nexport type A = { b?: B };\n');
      fs.writeFileSync(path.join(dir, "b.ts"), 'import type { A } from "./a";\nexport type B = { a?: A };\n');
      const rel = path.relative(root, dir);
      expect(cycles(fileImports([rel]))).toEqual([[`${rel}/a.ts`, `${rel}/b.ts`]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the service's lib/ imports nothing of the merchant-side packages, pages or components", () => {
    const upward = [...fileImports(["lib"])].flatMap(([from, targets]) =>
      [...targets.keys()].filter((to) => /^(clients|app|components)\//.test(to)).map((to) => `${from} -> ${to}`),
    );
    expect(upward).toEqual([]);
  });

  it("bench/ and scripts/ import nothing of test/ or e2e/ (what both need is in scripts/harness/)", () => {
    const files = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) return e.name === "node_modules" ? [] : files(full);
        return /\.(ts|mts|mjs)$/.test(e.name) ? [full] : [];
      });
    const found = ["bench", "scripts"].flatMap((d) =>
      files(path.join(root, d)).flatMap((file) =>
        [...fs.readFileSync(file, "utf8").matchAll(/(?:from\s+|import\s*\(?\s*)["'](\.\.?\/[^"']+|@\/[^"']+)["']/g)]
          .map((m) => m[1] ?? "")
          .map((spec) => path.relative(root, spec.startsWith("@/") ? path.join(root, spec.slice(2)) : path.resolve(path.dirname(file), spec)))
          .filter((target) => /^(test|e2e)\//.test(target))
          .map((target) => `${path.relative(root, file)} -> ${target}`),
      ),
    );
    expect(found).toEqual([]);
  });

  it("no cycle runs through the folders of lib/: each group of folders that import each other is listed with its imports", () => {
    const edges = folderImports();
    const found = cycles(edges).map((group) =>
      group.flatMap((from) => group.filter((to) => edges.get(from)?.has(to)).map((to) => `${from} -> ${to} (${edges.get(from)!.get(to)!.join(", ")})`)),
    );
    expect(found).toEqual([]);
  });
  it("lib/ holds the five rooms and nothing else, each with its README", () => {
    const entries = fs.readdirSync(lib).sort();
    expect(entries).toEqual([...ROOMS].sort());
    for (const room of ROOMS) expect(fs.existsSync(path.join(lib, room, "README.md")), `lib/${room}/README.md`).toBe(true);
  });

  it("no import runs from a room to one ranked above it (platform, contract, domain, simulators, application)", () => {
    const upward = [...folderImports()].flatMap(([from, targets]) =>
      [...targets]
        .filter(([to]) => ROOMS.indexOf(roomOf(to) as (typeof ROOMS)[number]) > ROOMS.indexOf(roomOf(from) as (typeof ROOMS)[number]))
        .map(([to, files]) => `${from} -> ${to} (${files.join(", ")})`),
    );
    expect(upward).toEqual([]);
  });

  it("the merchant-side command (clients/cli/src) imports nothing of lib/ but the published contract", () => {
    const outside = [...fileImports(["clients/cli/src"])].flatMap(([from, targets]) =>
      [...targets.keys()].filter((to) => to.startsWith("lib/") && !to.startsWith("lib/contract/")).map((to) => `${from} -> ${to}`),
    );
    expect(outside).toEqual([]);
  });
});
