import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { db, depositBody, type TestMerchant } from "./fixtures";
import { present } from "./present";

// A `sandpiper listen` process for tests (docs/callbacks.md "sandpiper listen"): bin/sandpiper.mjs run as a
// separate process, its output collected line by line.

const root = path.resolve(__dirname, "../..");

/** What a finished command printed and how it exited. */
export type Run = { code: number | null; stdout: string; stderr: string; out: string };

/**
 * Runs `command args` in `cwd` with exactly `env` (nothing else of the test run's environment) and collects its
 * output; resolves when it exits.
 */
export function runCommand(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Run> {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (t: string) => (stdout += t));
  child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr, out: stdout + stderr })));
}

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
        if (found) resolveSecret(present(found[1], "found[1]"));
      }
    });
  }
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, lines, secret, exited };
}

export async function waitForLine(run: Running, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = run.lines.find((l) => pattern.test(l));
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no line ${pattern} within ${timeoutMs} ms:\n${run.lines.join("\n")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Creates and concludes `n` payments of the merchant (every third FAILED); returns their ids. */
export async function concludePayments(m: TestMerchant, n: number, referencePrefix = "listen"): Promise<string[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const created = await m.api("/v1/payments", { body: depositBody({ reference: `${referencePrefix}-${crypto.randomUUID()}` }) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const done = await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: i % 3 === 0 ? "FAILED" : "SUCCEEDED" } });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      return created.body.id as string;
    }),
  );
}

/** The ids of the events of these payments. */
export async function eventIdsOf(paymentIds: string[]): Promise<string[]> {
  return (await db.event.findMany({ where: { paymentId: { in: paymentIds } }, select: { id: true } })).map((e) => e.id);
}

/**
 * One forward attempt as `sandpiper listen` reports it to `POST /v1/events/forwards` (docs/callbacks.md "Forwards on
 * the service"): started now (real time) unless `startedAt` says otherwise, a retry named unless it got a 200.
 */
export function forwardReport(a: { eventId: string; forwardId?: string; attempt?: number; statusCode?: number | null; startedAt?: Date }) {
  const statusCode = a.statusCode === undefined ? 200 : a.statusCode;
  return {
    eventId: a.eventId,
    forwardId: a.forwardId ?? crypto.randomUUID(),
    cursor: "12",
    kind: "event",
    attempt: a.attempt ?? 1,
    startedAt: (a.startedAt ?? new Date()).toISOString(),
    durationMs: 3,
    statusCode,
    error: statusCode === null ? "ECONNREFUSED" : null,
    forwardTo: "http://localhost:4000/hook",
    timestamp: String(Math.floor(Date.now() / 1000)),
    signature: "a".repeat(64),
    responseSnippet: null,
    nextAttemptAt: statusCode === 200 ? null : new Date(Date.now() + 1000).toISOString(),
  };
}
