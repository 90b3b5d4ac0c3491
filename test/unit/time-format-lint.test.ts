// The lint rule of eslint.config.mjs that keeps every shown time in lib/platform/time-format.ts (docs/operating.md "Times in
// the console"): run with the project's own configuration on small pieces of code.
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { assertPresent } from "../../scripts/harness/present";

const root = path.resolve(__dirname, "../..");
const eslint = new ESLint({ cwd: root });

async function refusals(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  assertPresent(result, "result");
  return result.messages.filter((m) => m.ruleId === "no-restricted-syntax" || m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("times are formatted only by lib/platform/time-format.ts", () => {
  it("refuses formatting a time in a page, a component, the console's glue or reports", { timeout: 60_000 }, async () => {
    const cases: [string, string][] = [
      ["export const t = (d: Date) => d.toLocaleString();\n", "app/console/(app)/example/page.tsx"],
      ['export const t = (d: Date) => d.toLocaleTimeString([], { hour: "2-digit" });\n', "components/checkout/Example.tsx"],
      ['export const f = new Intl.DateTimeFormat("en-GB", { timeZone: "Asia/Dubai" });\n', "lib/application/console/example.ts"],
      ["export const t = (d: Date) => d.toISOString().slice(0, 16);\n", "lib/domain/reports/example.ts"],
      ['import { format } from "date-fns";\nexport const t = (d: Date) => format(d, "yyyy-MM-dd HH:mm");\n', "components/console/example.tsx"],
      ["export const t = (d: Date) => `${d.getHours()}:${d.getMinutes()}`;\n", "app/console/(app)/example/page.tsx"],
    ];
    for (const [code, file] of cases) {
      const messages = await refusals(code, file);
      expect(messages.join("\n"), `${file}: ${code}`).toMatch(/format times with lib\/platform\/time-format\.ts/);
    }
  });

  it("allows the helper, a bare toISOString() and API serialization in the domain layer", { timeout: 60_000 }, async () => {
    expect(
      await refusals(
        'import { formatConsoleTime } from "@/lib/platform/time-format";\nexport const t = (d: Date) => ({ text: formatConsoleTime(d), iso: d.toISOString() });\n',
        "components/console/example.tsx",
      ),
    ).toEqual([]);
    expect(await refusals("export const day = (d: Date) => d.toISOString().slice(0, 10);\n", "lib/domain/payments/example.ts")).toEqual([]);
    // The rules kept beside it: a page still may not query, the glue still takes `now` from lib/platform/clock.ts.
    expect(await refusals("export const n = () => Date.now();\n", "lib/application/console/example.ts")).toEqual([
      expect.stringMatching(/take `now` from the caller/),
    ]);
  });
});
