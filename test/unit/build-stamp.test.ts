import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isBuildCurrent, staleBuildReason, writeBuildStamp } from "../../scripts/build-stamp.mjs";

// `npm start` builds only when a build input changed since the last build (README "Quick start").
describe("build stamp", () => {
  it("is current after a build and stops being current when a source changes, appears or goes away", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "sandpiper-stamp-"));
    try {
      fs.mkdirSync(path.join(root, "lib", "generated"), { recursive: true });
      fs.mkdirSync(path.join(root, "app"));
      fs.mkdirSync(path.join(root, ".next"));
      fs.writeFileSync(path.join(root, "app", "page.tsx"), "export default 1;");
      fs.writeFileSync(path.join(root, "lib", "a.ts"), "export const a = 1;");
      expect(isBuildCurrent(root)).toBe(false); // never built
      expect(staleBuildReason(root)).toMatch(/^no finished build in .*: run `npm run build` first/);
      fs.writeFileSync(path.join(root, ".next", "BUILD_ID"), "x");
      writeBuildStamp(root);
      expect(isBuildCurrent(root)).toBe(true);
      expect(staleBuildReason(root)).toBeNull();
      // Generated files are written by the build itself: they do not count.
      fs.writeFileSync(path.join(root, "lib", "generated", "client.ts"), "generated");
      expect(isBuildCurrent(root)).toBe(true);
      fs.writeFileSync(path.join(root, "lib", "a.ts"), "export const a = 22;");
      expect(isBuildCurrent(root)).toBe(false);
      // The tests' refusal names the build and the newer source in one line.
      const reason = staleBuildReason(root);
      expect(reason).toMatch(/^the build in \.next \(made \d{4}-\d\d-\d\dT[\d:.]+Z\) is older than the sources: lib\/a\.ts changed since; run `npm run build`/);
      expect(reason).not.toContain("\n");
      writeBuildStamp(root);
      fs.writeFileSync(path.join(root, "lib", "b.ts"), "export const b = 1;");
      expect(isBuildCurrent(root)).toBe(false);
      writeBuildStamp(root);
      fs.rmSync(path.join(root, "app", "page.tsx"));
      expect(isBuildCurrent(root)).toBe(false);
      expect(staleBuildReason(root)).toContain("app/page.tsx changed since");
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
