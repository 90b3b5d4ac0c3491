import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The decisions are dated records (docs/decisions/README.md): one file `NNNN-kebab-title.md` each, numbered from 0001
// without a gap, each with its title, its date, its status and the sections Context, Decision and Consequences; the
// index lists exactly the records, in order, with the same title, date and status; "superseded by" names another
// record that exists.

const folder = path.resolve(__dirname, "../../docs/decisions");
const RECORD_FILE = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const STATUS = /^- Status: (accepted|superseded by \[(\d{4})\]\((\d{4}-[a-z0-9-]+\.md)\))$/;

interface Record {
  file: string;
  number: string;
  title: string;
  date: string;
  status: string;
  supersededBy?: { number: string; file: string };
  sections: string[];
  emptySections: string[];
}

/** A record's parts, read from its file; throws with the file's name when one is missing or malformed. */
function readRecord(file: string): Record {
  const text = fs.readFileSync(path.join(folder, file), "utf8");
  const lines = text.split("\n");
  const number = file.slice(0, 4);
  const heading = lines[0]?.match(/^# (\d{4})\. (\S.*)$/);
  if (!heading || heading[1] !== number) throw new Error(`${file}: the first line is not "# ${number}. Title"`);
  const date = lines[2]?.match(/^- Date: (\d{4}-\d{2}-\d{2})$/);
  if (lines[1] !== "" || !date) throw new Error(`${file}: the third line is not "- Date: YYYY-MM-DD"`);
  const status = lines[3]?.match(STATUS);
  if (!status) throw new Error(`${file}: the fourth line is not "- Status: accepted" or "- Status: superseded by [NNNN](NNNN-....md)"`);
  const parts = text.split(/^## /m).slice(1);
  return {
    file,
    number,
    title: heading[2]!,
    date: date[1]!,
    status: status[1]!,
    supersededBy: status[2] ? { number: status[2], file: status[3]! } : undefined,
    sections: parts.map((p) => p.split("\n")[0]!),
    emptySections: parts.filter((p) => p.split("\n").slice(1).join("\n").trim() === "").map((p) => p.split("\n")[0]!),
  };
}

const files = fs.readdirSync(folder).sort();
const records = files.filter((f) => RECORD_FILE.test(f)).map(readRecord);

describe("decision records", () => {
  it("the folder holds the index and records named NNNN-kebab-title.md, numbered 0001, 0002, ... without a gap", () => {
    expect(files.filter((f) => f !== "README.md" && !RECORD_FILE.test(f))).toEqual([]);
    expect(records.length).toBeGreaterThan(100);
    expect(records.map((r) => r.number)).toEqual(records.map((_, i) => String(i + 1).padStart(4, "0")));
  });

  it("every record has its title, a real date, a status and the sections Context, Decision and Consequences, none empty", () => {
    for (const r of records) {
      const day = new Date(`${r.date}T00:00:00Z`);
      expect(Number.isNaN(day.getTime()) ? "" : day.toISOString().slice(0, 10), `${r.file}: Date`).toBe(r.date);
      expect(r.sections, r.file).toEqual(["Context", "Decision", "Consequences"]);
      expect(r.emptySections, r.file).toEqual([]);
    }
  });

  it('"superseded by" names another record that exists, by its number and its file', () => {
    const byNumber = new Map(records.map((r) => [r.number, r]));
    const superseded = records.filter((r) => r.supersededBy);
    for (const r of superseded) {
      const by = r.supersededBy!;
      expect(by.number, r.file).not.toBe(r.number);
      expect(byNumber.get(by.number)?.file, `${r.file}: superseded by ${by.number}`).toBe(by.file);
    }
  });

  it("the index lists exactly the records, in order, with their title, date and status", () => {
    const index = fs.readFileSync(path.join(folder, "README.md"), "utf8");
    expect(index).toMatch(/^\| # \| decision \| date \| status \|$/m);
    const rows = [...index.matchAll(/^\| \[(\d{4})\]\(([^)]+)\) \| (.+?) \| (\d{4}-\d{2}-\d{2}) \| (.+) \|$/gm)].map(
      ([, number, file, title, date, status]) => ({
        number,
        file,
        title: title!.replace(/\\\|/g, "|"),
        date,
        status,
      }),
    );
    expect(rows).toEqual(records.map((r) => ({ number: r.number, file: r.file, title: r.title, date: r.date, status: r.status })));
  });
});
