import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BASE_WAITS_SECONDS, FAST_RETRY_DIVISOR, JITTER, MAX_ATTEMPTS, MAX_WAIT_MS, MIN_WAIT_MS } from "@/lib/contract/callbacks/retry-schedule";
import { markdownFiles } from "../support/markdown";
import { present } from "../../scripts/harness/present";

// The callback retry schedule is stated once in code (lib/contract/callbacks/retry-schedule.ts) and repeated in words by the
// README, the docs and guides, the OpenAPI descriptions and the console. This test reads every such statement back and fails
// when one says another schedule than the code: a list of waits, a row of a schedule table, "N attempts" next to
// the callbacks, and the schedule's bounds ("30 s to 1 h", "0.5 s to 60 s").
const root = path.resolve(__dirname, "../..");
// README.md and every markdown file under docs/ at any depth, wherever the text moves.
const SOURCES = markdownFiles(root);
const CODE_SOURCES = [
  ...fs.readdirSync(path.join(root, "lib/application/openapi/entries")).map((f) => `lib/application/openapi/entries/${f}`),
  "app/console/actions/callbacks.ts",
  "app/console/(app)/callbacks/page.tsx",
];

const UNIT_S: Record<string, number> = { s: 1, min: 60, h: 3600 };
const DURATION = String.raw`(\d+(?:\.\d+)?) (s|min|h)\b`;
const seconds = (n: string, unit: string) => Number(n) * present(UNIT_S[unit], `the unit ${unit}`);
const normal = [...BASE_WAITS_SECONDS];
const fast = normal.map((s) => s / FAST_RETRY_DIVISOR);
const text = (file: string) => fs.readFileSync(path.join(root, file), "utf8").replace(/\s+/g, " ");

describe("the retry schedule in words is the code's", () => {
  it("every list of four or more waits is the schedule or the fast one", () => {
    const list = new RegExp(String.raw`(?:${DURATION}(?:, and |, | and )){3,}${DURATION}`, "g");
    const wrong: string[] = [];
    let lists = 0;
    for (const file of [...SOURCES, ...CODE_SOURCES]) {
      for (const match of text(file).matchAll(list)) {
        const waits = [...match[0].matchAll(new RegExp(DURATION, "g"))].map((m) => seconds(present(m[1], "m[1]"), present(m[2], "m[2]")));
        lists++;
        if (JSON.stringify(waits) !== JSON.stringify(normal) && JSON.stringify(waits) !== JSON.stringify(fast)) wrong.push(`${file}: ${match[0]}`);
      }
    }
    expect(lists).toBeGreaterThanOrEqual(4);
    expect(wrong).toEqual([]);
  });

  it("every row of a schedule table gives the wait after that attempt (and the fast wait, or the time from the first)", () => {
    const wrong: string[] = [];
    let rows = 0;
    const cumulative = normal.map((_, i) => normal.slice(0, i + 1).reduce((a, b) => a + b, 0));
    const spoken = (s: number) => s.toString();
    for (const file of SOURCES) {
      let third = "";
      for (const line of fs.readFileSync(path.join(root, file), "utf8").split("\n")) {
        if (/^\| [a-z]/.test(line)) third = line.split("|")[3]?.trim() ?? "";
        const row = new RegExp(String.raw`^\| ([1-7]) \| ${DURATION} \|(?: ([^|]+) \|)?`).exec(line);
        if (!row) continue;
        rows++;
        const n = Number(row[1]);
        if (seconds(present(row[2], "row[2]"), present(row[3], "row[3]")) !== normal[n - 1]) wrong.push(`${file}: ${line}`);
        const next = row[4]?.trim() ?? "";
        const parts = [...next.matchAll(new RegExp(DURATION, "g"))].reduce((sum, m) => sum + seconds(present(m[1], "m[1]"), present(m[2], "m[2]")), 0);
        if (third.includes("fast") && parts !== fast[n - 1]) wrong.push(`${file}: ${line} (fast: ${spoken(present(fast[n - 1], "fast[n - 1]"))} s)`);
        if (third.includes("from the first") && parts !== cumulative[n - 1])
          wrong.push(`${file}: ${line} (from the first: ${spoken(present(cumulative[n - 1], "cumulative[n - 1]"))} s)`);
      }
    }
    expect(rows).toBeGreaterThanOrEqual(14);
    expect(wrong).toEqual([]);
  });

  it("the number of attempts and the bounds are the code's wherever the callbacks' schedule is stated", () => {
    const wrong: string[] = [];
    for (const file of SOURCES) {
      const all = text(file);
      for (const m of all.matchAll(/(?:at most|up to|the same|retries'|schedule's|of) (\d+) attempts/g))
        if (Number(m[1]) !== MAX_ATTEMPTS) wrong.push(`${file}: ${m[0]}`);
      for (const m of all.matchAll(new RegExp(String.raw`${DURATION} to ${DURATION}`, "g"))) {
        const bounds = [seconds(present(m[1], "m[1]"), present(m[2], "m[2]")), seconds(present(m[3], "m[3]"), present(m[4], "m[4]"))];
        const isSchedule = (b: number[]) => bounds[0] === b[0] && bounds[1] === b[b.length - 1];
        // Only statements of the schedule's bounds: a first bound of 30 s or 0.5 s.
        if ((bounds[0] === 30 || bounds[0] === 0.5) && !isSchedule(normal) && !isSchedule(fast)) wrong.push(`${file}: ${m[0]}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("the jitter factor, the clamps and the fast retries' divisor are the code's wherever they are stated", () => {
    const wrong: string[] = [];
    const found = { jitter: 0, clamps: 0, divisor: 0 };
    const clamps = [MIN_WAIT_MS / 1000, MAX_WAIT_MS / 1000];
    for (const file of SOURCES) {
      const all = text(file);
      // "a random factor between 0.9 and 1.1", "uniform factor 0.9 to 1.1", "plus or minus 10 %"
      for (const m of all.matchAll(/factor (?:between |in \[)?(\d\.\d+)(?: and | to |, )(\d\.\d+)/g)) {
        found.jitter++;
        if (Number(m[1]) !== 1 - JITTER || Number(m[2]) !== 1 + JITTER) wrong.push(`${file}: ${m[0]}`);
      }
      for (const m of all.matchAll(/same jitter of plus or minus (\d+) ?%/g)) {
        found.jitter++;
        if (Number(m[1]) !== JITTER * 100) wrong.push(`${file}: ${m[0]}`);
      }
      // "kept between 30 s and 1 h", "clamped to [30 s, 1 h]"
      for (const m of all.matchAll(new RegExp(String.raw`(?:kept between |clamped to \[)${DURATION}(?: and |, )${DURATION}`, "g"))) {
        found.clamps++;
        if (seconds(present(m[1], "m[1]"), present(m[2], "m[2]")) !== clamps[0] || seconds(present(m[3], "m[3]"), present(m[4], "m[4]")) !== clamps[1])
          wrong.push(`${file}: ${m[0]}`);
      }
      // "the callback schedule divided by 60", "each wait and both limits divided by 60"
      for (const m of all.matchAll(/(?:schedule|wait|limits),? divided by (\d+)/g)) {
        found.divisor++;
        if (Number(m[1]) !== FAST_RETRY_DIVISOR) wrong.push(`${file}: ${m[0]}`);
      }
    }
    expect(found.jitter, "statements of the jitter").toBeGreaterThanOrEqual(3);
    expect(found.clamps, "statements of the clamps").toBeGreaterThanOrEqual(2);
    expect(found.divisor, "statements of the divisor").toBeGreaterThanOrEqual(3);
    expect(wrong).toEqual([]);
  });
});
