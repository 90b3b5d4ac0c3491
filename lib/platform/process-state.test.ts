import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it, vi } from "vitest";

const root = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

/** Each member of the ProcessState interface of lib/platform/process-state.ts with its docstring ("" without one). */
function slots(): { name: string; doc: string }[] {
  const source = ts.createSourceFile("process-state.ts", read("lib/platform/process-state.ts"), ts.ScriptTarget.Latest, true);
  const found = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "ProcessState");
  if (!found) throw new Error("lib/platform/process-state.ts declares no ProcessState interface");
  return found.members.map((member) => ({
    name: member.name && ts.isIdentifier(member.name) ? member.name.text : "",
    doc: ts
      .getJSDocCommentsAndTags(member)
      .map((d) => (typeof d.comment === "string" ? d.comment : ""))
      .join(" "),
  }));
}

/** Source files of the service (not tests) under `dir`, relative to the root. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !/\.test\.ts$/.test(f) && !f.startsWith("generated"))
    .map((f) => path.join(dir, f));
}

describe("per-process state (lib/platform/process-state.ts)", () => {
  it("is the same object in every module instance of the process, as Next.js makes several", async () => {
    const first = await import("@/lib/platform/process-state");
    vi.resetModules();
    const second = await import("@/lib/platform/process-state");
    expect(second).not.toBe(first);
    expect(second.processState()).toBe(first.processState());
    expect(first.processState()).toBe(globalThis.__sandpiper);
  });

  it("documents every slot with the module that owns it, and that module uses the slot", () => {
    const list = slots();
    expect(list.length).toBeGreaterThanOrEqual(20);
    for (const { name, doc } of list) {
      const owner = /\((lib\/[\w/.-]+\.(?:ts|mjs))\)|\b(server\.mjs)\b/.exec(doc);
      const file = owner?.[1] ?? owner?.[2];
      expect(file, `${name}: its docstring names the module that fills it`).toBeDefined();
      if (file === undefined) continue;
      expect(fs.existsSync(path.join(root, file)), `${name}: ${file} exists`).toBe(true);
      expect(read(file), `${name}: ${file} uses it`).toMatch(new RegExp(`\\.${name}\\b`));
    }
  });

  it("is the one way to process-wide state: no module casts globalThis or names a global of its own", () => {
    const files = [...sources("lib"), ...sources("app"), "server.mjs", "instrumentation.ts"];
    for (const file of files) {
      const text = read(file);
      expect(text, file).not.toMatch(/globalThis\s+as\b/);
      if (file !== "lib/platform/process-state.ts") expect(text, file).not.toMatch(/globalThis\.__sandpiper(?!\s*\?\?=\s*\{\})/);
    }
  });
});
