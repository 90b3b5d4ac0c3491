import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { waitUntil } from "../../scripts/harness/wait";
import { assertPresent, present } from "../../scripts/harness/present";

// Runs the guides' shell walk-throughs as written, so the docs cannot drift from the service: every `curl`
// line of a section's ```sh blocks is executed with bash and curl, and the `# -> <status> {...}` comment under it
// is checked (the status, and every literal "member":value pair it shows; "..." and <placeholders> are skipped).

const ROOT = path.resolve(__dirname, "../..");

/** One command of a walk-through block: an assignment or a curl call, with the expectation written under it. */
type Step = { kind: "assign"; name: string; value: string } | { kind: "curl"; command: string; expect: string | null };

/** The ```sh blocks of `file`'s section titled `title` (a `## ` heading; `file` from the repository root), in order. */
export function docBlocks(file: string, title: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const start = text.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`${file} has no section "${title}"`);
  const rest = text.slice(start + 4 + title.length);
  const section = rest.slice(0, rest.search(/\n## /) === -1 ? undefined : rest.search(/\n## /));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

/** Splits a block into steps: continued (`\`) and open-quoted lines are joined; `# ->` comments are expectations. */
function steps(block: string): Step[] {
  const out: Step[] = [];
  const lines = block.split("\n");
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    assertPresent(line, "line");
    if (line.trim() === "") continue;
    if (line.startsWith("#")) {
      if (/^#\s*->/.test(line)) {
        let expectation = line.replace(/^#\s*->\s*/, "");
        while (i + 1 < lines.length && /^#\s{2,}/.test(present(lines[i + 1], "lines[i + 1]")))
          expectation += present(lines[++i], "lines[++i]").replace(/^#\s+/, "");
        const last = out.at(-1);
        if (last?.kind === "curl") last.expect = expectation;
      }
      continue;
    }
    const [, name, value] = /^([A-Z_]+)=(\S+)/.exec(line) ?? [];
    if (name !== undefined && value !== undefined) {
      out.push({ kind: "assign", name, value });
      continue;
    }
    while ((line.trimEnd().endsWith("\\") || (line.match(/'/g) ?? []).length % 2 === 1) && i + 1 < lines.length) {
      line = line.trimEnd().endsWith("\\") ? `${line.trimEnd().slice(0, -1)} ${present(lines[++i], "lines[++i]").trim()}` : `${line}\n${lines[++i]}`;
    }
    if (/^curl\s/.test(line)) out.push({ kind: "curl", command: line.replace(/\s+#[^'"]*$/, ""), expect: null });
    else throw new Error(`walk-through line the runner does not know: ${line}`);
  }
  return out;
}

/** Every object's "member": value pairs of a JSON value, as `"name":<json>` strings. */
function pairs(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => pairs(v, into));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (v === null || typeof v !== "object") into.add(`"${k}":${JSON.stringify(v)}`);
      pairs(v, into);
    }
  }
  return into;
}

/** The literal pairs an expectation shows ("..." values and <placeholders> left out). */
function expectedPairs(expectation: string): string[] {
  return [...expectation.matchAll(/"(\w+)":("(?:[^"\\]|\\.)*"|null|true|false|-?\d+(?:\.\d+)?)/g)]
    .filter(([, , v = ""]) => !v.includes("...") && !v.includes("<"))
    .map(([, k, v]) => `"${k}":${v}`);
}

export type WalkState = { vars: Record<string, string>; lastId: string | null; responses: { command: string; status: number; body: any }[] };

/**
 * Runs the walk-through blocks' steps against the service. `vars` gives what a reader sets by hand (BASE and the keys
 * by their names in the guides); `<...>` placeholders in assignments and commands take the id of the last answer that
 * had one. References (`order-NNNN`) get `suffix`, so a run never meets an earlier run's records. A GET whose
 * expectation is not met yet is repeated for up to 30 s (the store's checkout becomes READY a moment later).
 */
export async function runWalkThrough(blocks: string[], state: WalkState, suffix: string): Promise<WalkState> {
  for (const block of blocks) {
    for (const step of steps(block)) {
      if (step.kind === "assign") {
        if (step.value.startsWith("<")) {
          expect(state.lastId, `${step.name}=${step.value} needs an id from an earlier answer`).not.toBeNull();
          state.vars[step.name] = state.lastId!;
        } else if (!(step.name in state.vars)) {
          state.vars[step.name] = step.value;
        }
        continue;
      }
      const command = step.command.replace(/<[A-Z_]*ID>/g, () => state.lastId ?? "<no id>").replace(/order-(\d+)/g, `order-$1-${suffix}`);
      const expectation = step.expect;
      const wantedStatus = expectation ? /^(\d{3})\b/.exec(expectation)?.[1] : undefined;
      const send = () => {
        const raw = execFileSync("bash", ["-c", `${command} -w '\\n%{http_code}'`], { env: { ...process.env, ...state.vars }, encoding: "utf8" });
        const cut = raw.lastIndexOf("\n");
        const status = Number(raw.slice(cut + 1));
        const text = raw.slice(0, cut);
        const body = text ? JSON.parse(text) : null;
        const got = pairs(body);
        const missing = expectation ? expectedPairs(expectation).filter((p) => !got.has(p)) : [];
        const statusOk = wantedStatus ? status === Number(wantedStatus) : status >= 200 && status < 300;
        return { status, text, body, missing, done: statusOk && missing.length === 0 };
      };
      // A POST is sent once; a read is sent again until it shows the answer written (background work), for 30 s.
      const answer = /-X POST/.test(command)
        ? send()
        : await waitUntil(() => ((a) => a.done && a)(send()), { what: command, timeoutMs: 30_000, intervalMs: 1_000 }).catch(send);
      const { status, text, body, missing } = answer;
      expect(status, `${command}\n-> ${text.slice(0, 500)}`).toBe(wantedStatus ? Number(wantedStatus) : status >= 200 && status < 300 ? status : 200);
      expect(missing, `${command}\n-> ${text.slice(0, 800)}`).toEqual([]);
      state.responses.push({ command, status, body });
      if (body && typeof body.id === "string") state.lastId = body.id;
    }
  }
  return state;
}
