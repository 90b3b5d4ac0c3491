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

/** Every file a package.json names: main, types, bin targets and the exports' conditions. */
function namedFiles(pkg: Record<string, any>): string[] {
  const bins = typeof pkg.bin === "string" ? [pkg.bin] : Object.values(pkg.bin ?? {});
  const exportTargets = Object.values(pkg.exports ?? {}).flatMap((e) => (typeof e === "string" ? [e] : Object.values(e as Record<string, string>)));
  return [pkg.main, pkg.types, ...bins, ...exportTargets].filter((f): f is string => typeof f === "string").map((f) => path.posix.normalize(f));
}

describe("plain npm pack in clients/", () => {
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
