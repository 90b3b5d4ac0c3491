// A child process whose output a test or a benchmark reads while it runs (a start of the service, `npm start`, a
// command), and the wait for a line of it.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { waitUntil } from "./wait";

/** A started process and everything it has printed so far (stdout and stderr in one text, as they arrived). */
export type Collected = { child: ChildProcess; output: () => string };

/** Spawns `command args` with stdout and stderr piped and collected into one text (`clean` rewrites each chunk). */
export function spawnCollected(command: string, args: string[], opts: SpawnOptions & { clean?: (text: string) => string } = {}): Collected {
  const child = spawn(command, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const add = (d: Buffer) => (output += opts.clean ? opts.clean(String(d)) : String(d));
  child.stdout!.on("data", add);
  child.stderr!.on("data", add);
  return { child, output: () => output };
}

/**
 * Waits until the process's output matches `pattern`.
 * @throws Error when the process exits first, or after `timeoutMs`; either message ends with everything it printed
 */
export async function waitForOutput(run: Collected, pattern: RegExp, opts: { what: string; timeoutMs: number }): Promise<void> {
  await waitUntil(
    () => {
      if (pattern.test(run.output())) return true;
      if (run.child.exitCode !== null) throw new Error(`it exited with ${run.child.exitCode} before ${opts.what}`);
      return false;
    },
    { what: opts.what, timeoutMs: opts.timeoutMs, intervalMs: 200 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}:\n${run.output()}`, { cause: error });
  });
}
