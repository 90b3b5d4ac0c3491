import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { waitUntil } from "./wait";

// A `sandpiper listen` process (docs/callbacks.md "sandpiper listen"): bin/sandpiper.mjs run as a separate process,
// its output collected line by line, for the tests and the benchmarks.

const root = path.resolve(__dirname, "../..");

export type Running = { child: ChildProcess; lines: string[]; secret: Promise<string>; exited: Promise<number | null> };

/** Starts `node bin/sandpiper.mjs listen ...` and collects its output lines. */
export function listen(args: string[], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [path.join(root, "bin", "sandpiper.mjs"), "listen", ...args], {
    cwd: os.tmpdir(),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let resolveSecret: (s: string) => void;
  const secret = new Promise<string>((r) => (resolveSecret = r));
  let partial = "";
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding("utf8").on("data", (text: string) => {
      const parts = (partial + text).split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(line);
        const found = /Listener signing secret: (whsec_\S+)/.exec(line);
        if (found?.[1]) resolveSecret(found[1]);
      }
    });
  }
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, lines, secret, exited };
}

/**
 * The first line `run` printed that matches `pattern`, once printed.
 * @throws Error after `timeoutMs` without one, with everything the process printed
 */
export async function waitForLine(run: Running, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  try {
    return await waitUntil(() => run.lines.find((l) => pattern.test(l)), { what: `a line ${pattern}`, timeoutMs });
  } catch (error) {
    throw new Error(`${(error as Error).message}; it printed:\n${run.lines.join("\n")}`);
  }
}
