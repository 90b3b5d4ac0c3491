import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig, VARIABLES, type Config, type VariableName } from "@/lib/platform/config";
import { markdownFiles } from "../support/markdown";
import { assertPresent, present } from "../../scripts/harness/present";

// The configuration's numbers are stated once in code (lib/platform/config.ts: defaults and bounds) and repeated in words by
// the README, the docs and the OpenAPI document's description. This test reads every such statement back and fails
// when one says another number than the schema: the Environment table's defaults and bounds, "`NAME` (default N)"
// anywhere, the rate limits, the request log's retention and the job intervals said in prose. It searches every
// markdown file (README.md, docs/ at any depth), so a statement is checked wherever the text moves.
const root = path.resolve(__dirname, "../..");
const SOURCES = markdownFiles(root);
/** Code whose text repeats configuration numbers to readers (the document's description). */
const CODE_SOURCES = ["lib/application/openapi/document.ts"];
const DEFAULTS: Config = parseConfig({});
const NAMES = new Set(Object.keys(VARIABLES));
const isVariable = (name: string): name is VariableName => NAMES.has(name);
const text = (file: string) => fs.readFileSync(path.join(root, file), "utf8").replace(/\s+/g, " ");

/** A stated duration in the unit of variable `name` (`_MS`: milliseconds, `_SECONDS`: seconds): "10 s" -> 10000. */
function inUnitOf(name: string, amount: string, unit: string | undefined): number {
  const seconds = { ms: 0.001, s: 1, min: 60, h: 3600 }[unit ?? ""] ?? null;
  if (seconds === null) return Number(amount);
  if (name.endsWith("_MS")) return Number(amount) * seconds * 1000;
  return Number(amount) * seconds;
}

/** The `from X to Y` bounds of a whole-number variable, from what it accepts ("a whole number of ... from 50 to 60000"). */
function boundsOf(name: VariableName): [number, number] | null {
  const m = /from (\d+) to (\d+)/.exec(VARIABLES[name].accepts);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** The Environment tables' rows: every markdown table row whose first cell names only configuration variables. */
function environmentRows(): { file: string; names: VariableName[]; meaning: string; fallback: string; line: string }[] {
  const rows = [];
  for (const file of SOURCES) {
    for (const line of fs.readFileSync(path.join(root, file), "utf8").split("\n")) {
      const cells = line.split("|").slice(1, -1);
      if (cells.length !== 3) continue;
      const [first = "", meaning = "", fallback = ""] = cells;
      const names = [...first.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1] ?? "");
      if (names.length === 0 || !names.every(isVariable) || first.replace(/`[A-Z0-9_]+`|[ ,]/g, "") !== "") continue;
      rows.push({ file, names: names as VariableName[], meaning: meaning.trim(), fallback: fallback.trim(), line });
    }
  }
  return rows;
}

describe("the configuration's numbers in words are the schema's", () => {
  it("every Environment table row states the schema's default", () => {
    const rows = environmentRows();
    const wrong: string[] = [];
    let checked = 0;
    for (const { file, names, fallback, line } of rows) {
      const stated = [...fallback.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      names.forEach((name, i) => {
        const value = DEFAULTS[name];
        if (value === undefined) return; // the default is made elsewhere (server.mjs, the start) or means "off"
        checked++;
        const ok =
          typeof value === "boolean"
            ? value
              ? /^on\b/.test(fallback)
              : /^(unset|off)\b/.test(fallback)
            : stated[i] === (Array.isArray(value) ? value.join(",") : String(value));
        if (!ok) wrong.push(`${file}: ${name} default ${JSON.stringify(value)}: ${line}`);
      });
    }
    expect(checked, "defaults checked").toBeGreaterThanOrEqual(30);
    expect(wrong).toEqual([]);
  });

  it("every Environment table row that states a variable's bounds states the schema's", () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const { file, names, meaning, line } of environmentRows()) {
      if (names.length !== 1) continue;
      const bounds = boundsOf(present(names[0], "names[0]"));
      for (const m of meaning.matchAll(/\b(\d+) to (\d+)\b/g)) {
        checked++;
        if (!bounds || Number(m[1]) !== bounds[0] || Number(m[2]) !== bounds[1]) wrong.push(`${file}: ${names[0]} accepts ${bounds?.join(" to ")}: ${line}`);
      }
    }
    expect(checked, "bounds checked").toBeGreaterThanOrEqual(10);
    expect(wrong).toEqual([]);
  });

  it('every "`NAME` (default N)" is the schema\'s default', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const file of SOURCES) {
      for (const m of text(file).matchAll(/`([A-Z0-9_]+)` \(default `?([^`),;]+?)`?(?: (ms|s|min|h))?[),;]/g)) {
        const [, name, amount, unit] = m;
        assertPresent(amount, "amount");
        assertPresent(name, "name");
        if (!isVariable(name) || DEFAULTS[name] === undefined) continue;
        checked++;
        const value = DEFAULTS[name];
        const ok = typeof value === "number" ? inUnitOf(name, amount, unit) === value : amount === String(value);
        if (!ok) wrong.push(`${file}: ${m[0]} (the schema's default: ${JSON.stringify(value)})`);
      }
    }
    expect(checked, "statements checked").toBeGreaterThanOrEqual(4);
    expect(wrong).toEqual([]);
  });

  it("the rate limits, the request log's retention and the job intervals said in prose are the defaults", () => {
    // The prose speaks of "a minute": the windows' defaults.
    expect([DEFAULTS.RATE_LIMIT_WINDOW_SECONDS, DEFAULTS.CUSTOMER_RATE_LIMIT_WINDOW_SECONDS]).toEqual([60, 60]);
    const seconds = (ms: number) => ms / 1000;
    const PHRASES: { pattern: RegExp; values: (c: Config) => number[] }[] = [
      // "300 requests a minute per API key, 600 per source IP", "... and 600 per source IP"
      { pattern: /(\d+) requests a minute per API key(?:,| and) (\d+) per source IP/g, values: (c) => [c.RATE_LIMIT_PER_KEY, c.RATE_LIMIT_PER_IP] },
      // "the key's 300 requests a minute"
      { pattern: /key's (\d+) requests a minute/g, values: (c) => [c.RATE_LIMIT_PER_KEY] },
      // docs/api.md "Limits": "| requests per API key | 300 a minute", "| requests per source IP | 600 a minute"
      { pattern: /requests per API key \| (\d+) a minute/g, values: (c) => [c.RATE_LIMIT_PER_KEY] },
      { pattern: /requests per source IP \| (\d+) a minute/g, values: (c) => [c.RATE_LIMIT_PER_IP] },
      // "120 a minute per source IP and 30 per checkout link"
      {
        pattern: /(\d+) a minute per source IP and (\d+) per (?:checkout )?link/g,
        values: (c) => [c.CUSTOMER_RATE_LIMIT_PER_IP, c.CUSTOMER_RATE_LIMIT_PER_LINK],
      },
      // "Every API request of your keys is kept for 14 days"
      { pattern: /API request[^.|]{0,40} kept for (\d+) days/g, values: (c) => [c.REQUEST_LOG_RETENTION_DAYS] },
      // "The 30-second sweep", "expiry sweep every 30 s", "the expiry check every 30 s"
      { pattern: /(\d+)-second sweep/g, values: (c) => [seconds(c.EXPIRY_SWEEP_INTERVAL_MS)] },
      { pattern: /expiry (?:sweep|check) every (\d+) s\b/g, values: (c) => [seconds(c.EXPIRY_SWEEP_INTERVAL_MS)] },
      // "compaction every 2 s", "compaction keeps list totals cheap every 2 s"
      { pattern: /compaction (?:keeps list totals cheap )?every (\d+) s\b/g, values: (c) => [seconds(c.COUNT_COMPACT_INTERVAL_MS)] },
      // "delivery poll every 1 s"
      { pattern: /delivery poll every (\d+) s\b/g, values: (c) => [seconds(c.DELIVERY_POLL_INTERVAL_MS)] },
    ];
    const wrong: string[] = [];
    const found = PHRASES.map(() => 0);
    for (const file of [...SOURCES, ...CODE_SOURCES]) {
      const all = text(file);
      PHRASES.forEach(({ pattern, values }, i) => {
        for (const m of all.matchAll(pattern)) {
          found[i] = (found[i] ?? 0) + 1;
          const stated = m.slice(1).map(Number);
          if (JSON.stringify(stated) !== JSON.stringify(values(DEFAULTS))) wrong.push(`${file}: ${m[0]} (the defaults: ${values(DEFAULTS).join(", ")})`);
        }
      });
    }
    // Each phrase is stated somewhere (a phrase reworded everywhere is no longer checked: update its pattern).
    expect(PHRASES.map((p, i) => [String(p.pattern), (found[i] ?? 0) > 0])).toEqual(PHRASES.map((p) => [String(p.pattern), true]));
    expect(wrong).toEqual([]);
  });
});
