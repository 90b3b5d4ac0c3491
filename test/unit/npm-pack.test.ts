import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// A plain `npm pack` in each package folder of clients/ builds the package first (its prepack script) and packs
// every file its package.json points at (docs/client.md "Install").
const root = path.resolve(__dirname, "../..");
const out = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-npm-pack-"));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

/** The files an `exports` value names: a path, or conditions (nested to any depth, as `import`/`require` with their own `types`). */
const exportTargets = (value: unknown): string[] =>
  typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(exportTargets) : [];

/** Every file a package.json names: main, types, bin targets and the exports' conditions. */
function namedFiles(pkg: Record<string, any>): string[] {
  const bins = typeof pkg.bin === "string" ? [pkg.bin] : Object.values(pkg.bin ?? {});
  return [pkg.main, pkg.types, ...bins, ...exportTargets(pkg.exports)].filter((f): f is string => typeof f === "string").map((f) => path.posix.normalize(f));
}

describe("plain npm pack in clients/", () => {
  // The sandbox's prepack builds the service and prepares its database (minutes, and it needs the production build):
  // too slow for the unit suite. What can break without that build is checked here: every file the package.json names
  // is one the build makes (SANDBOX_BUILT, which the build itself checks it made), `files` packs them all, and the
  // prepack script runs that build. The build itself is proven by `npm run pack:clients`, which runs the same
  // buildSandbox (test/integration/sandbox-package.test.ts installs and starts its tarball).
  it("clients/sandbox: prepack runs the sandbox build, and a tarball of what it builds holds every file its package.json names", async () => {
    const { SANDBOX_BUILT } = await import("../../scripts/pack-sandbox.mjs");
    const folder = path.join(root, "clients", "sandbox");
    const pkg = JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8"));
    expect(pkg.scripts.prepack).toBe("node ../../scripts/pack-clients.mjs --prepare sandbox");
    // Every platform (docs/guides/test-in-your-own-suite.md "Platforms"): npm would refuse the package elsewhere.
    expect(pkg.os, "os").toBeUndefined();
    expect(pkg.cpu, "cpu").toBeUndefined();
    // An ES module for `import`, CommonJS for `require` (Jest's default configuration), each with its own types.
    expect(pkg.exports["."]).toEqual({
      import: { types: "./dist/types/index.d.ts", default: "./dist/index.js" },
      require: { types: "./dist/types/index.d.cts", default: "./dist/index.cjs" },
    });
    const named = namedFiles(pkg);
    expect(named.length).toBeGreaterThan(0);
    expect(
      named.filter((f) => f !== "package.json" && !SANDBOX_BUILT.includes(f)),
      "named by package.json, not made by the build",
    ).toEqual([]);
    // A folder as the prepack leaves it (the built files as placeholders), packed without running the build again.
    const stage = fs.mkdtempSync(path.join(out, "sandbox-"));
    for (const file of [...SANDBOX_BUILT, "README.md", "LICENSE"]) {
      fs.mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
      fs.writeFileSync(path.join(stage, file), "placeholder\n");
    }
    fs.writeFileSync(path.join(stage, "package.json"), JSON.stringify(pkg));
    const json = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: stage, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    const files = new Set((JSON.parse(json)[0].files as { path: string }[]).map((f) => f.path));
    expect(named.filter((f) => !files.has(f))).toEqual([]);
    expect(SANDBOX_BUILT.filter((f: string) => !files.has(f))).toEqual([]);
  });

  for (const [dir, built] of [
    ["clients/typescript", "dist"],
    ["clients/cli", "dist"],
  ] as const) {
    it(`${dir}: prepack builds it, and the tarball holds every file its package.json names`, () => {
      const folder = path.join(root, dir);
      fs.rmSync(path.join(folder, built), { recursive: true, force: true });
      const json = execFileSync("npm", ["pack", "--json", "--pack-destination", out], { cwd: folder, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
      // npm prints prepack's own output before the JSON.
      const [packed] = JSON.parse(json.slice(json.indexOf("[")));
      const files = new Set((packed.files as { path: string }[]).map((f) => f.path));
      const pkg = JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8"));
      const named = namedFiles(pkg);
      expect(named.length).toBeGreaterThan(0);
      expect(named.filter((f) => !files.has(f))).toEqual([]);
      expect(fs.existsSync(path.join(out, packed.filename))).toBe(true);
    });
  }
});
