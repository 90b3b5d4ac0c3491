// @sandpiper/sandbox: startSandpiper() starts the service in a process of its own with a database of its own,
// for a merchant's test suite (docs/guides/test-in-your-own-suite.md). This module runs in the caller's process; the
// sandbox itself is app/sandbox-child.mjs (child.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "../../typescript/src/index";
import type { Sandbox, SandboxOptions } from "../types/index";
import type { ChildReply, ChildRequest, ResolvedOptions, SandboxInfo } from "./protocol";

/** The sandbox's process entry: `<package>/app/sandbox-child.mjs` beside this file's `<package>/index.js`. */
const childEntry = path.join(path.dirname(fileURLToPath(import.meta.url)), "app", "sandbox-child.mjs");
const OPTIONS = ["callbackUrl", "port", "scenarioRules", "fastRetries", "logLevel"] as const;
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
/** How long a start may take before it is given up (a loaded CI machine), and a clock advance's catch-up. */
const START_TIMEOUT_MS = 60_000;
const CATCH_UP_TIMEOUT_MS = 60_000;

/** A refused option: one sentence naming it and what it takes. */
function refuse(message: string): never {
  throw new TypeError(`startSandpiper: ${message} (docs/guides/test-in-your-own-suite.md "Options")`);
}

/**
 * The options with their defaults, each checked.
 * @throws TypeError for an unknown option or a value it does not take
 */
export function resolveOptions(options: unknown): ResolvedOptions {
  if (options === undefined) options = {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) refuse("options must be an object");
  const given = options as Record<string, unknown>;
  const unknown = Object.keys(given).filter((name) => !(OPTIONS as readonly string[]).includes(name));
  if (unknown.length > 0)
    refuse(`unknown option${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `"${n}"`).join(", ")}; the options are ${OPTIONS.join(", ")}`);
  const { callbackUrl, port = 0, scenarioRules = "none", fastRetries = true, logLevel = "warn" } = given;
  if (callbackUrl !== undefined && (typeof callbackUrl !== "string" || !URL.canParse(callbackUrl) || !/^https?:$/.test(new URL(callbackUrl).protocol)))
    refuse(`callbackUrl must be an http or https URL, got ${JSON.stringify(callbackUrl)}`);
  if (typeof port !== "number" || !Number.isInteger(port) || port < 0 || port > 65535)
    refuse(`port must be a whole number from 0 to 65535, got ${JSON.stringify(port)}`);
  if (scenarioRules !== "none" && scenarioRules !== "standard") refuse(`scenarioRules must be "standard" or "none", got ${JSON.stringify(scenarioRules)}`);
  if (typeof fastRetries !== "boolean") refuse(`fastRetries must be true or false, got ${JSON.stringify(fastRetries)}`);
  if (!(LOG_LEVELS as readonly unknown[]).includes(logLevel)) refuse(`logLevel must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(logLevel)}`);
  return { callbackUrl: (callbackUrl as string | undefined) ?? null, port, scenarioRules, fastRetries, logLevel: logLevel as ResolvedOptions["logLevel"] };
}

/**
 * The sandbox clock's duration for `by`: a string as it is (the service checks it), milliseconds as whole seconds.
 * @throws TypeError for a number that is not a positive whole number of seconds in milliseconds
 */
export function clockDuration(by: number | string): string {
  if (typeof by === "string") return by;
  if (typeof by !== "number" || !Number.isInteger(by) || by <= 0 || by % 1000 !== 0)
    throw new TypeError(`clock.advance: give a duration such as "2h" or "35d", or milliseconds in whole seconds above 0 (e.g. 7_200_000), got ${String(by)}`);
  return `${by / 1000}s`;
}

/** Passes the sandbox's log lines (JSON, one per line) and errors to this process's stderr; other lines are dropped. */
function forwardLogs(child: ChildProcess, logLevel: ResolvedOptions["logLevel"]): void {
  if (logLevel === "silent") {
    child.stdout?.resume();
    child.stderr?.resume();
    return;
  }
  let partial = "";
  child.stdout?.setEncoding("utf8").on("data", (text: string) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (line.startsWith("{")) process.stderr.write(`${line}\n`);
  });
  child.stderr?.setEncoding("utf8").on("data", (text: string) => process.stderr.write(text));
}

/** startSandpiper (types/index.d.ts). */
export async function startSandpiper(options?: SandboxOptions): Promise<Sandbox> {
  const resolved = resolveOptions(options);
  // Nothing of the caller's environment or Node.js flags (a test runner's loaders) reaches the sandbox.
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TZ"]) if (process.env[name] !== undefined) env[name] = process.env[name];
  const child: ChildProcess = spawn(process.execPath, ["--expose-gc", childEntry], { stdio: ["pipe", "pipe", "pipe", "ipc"], env: env as NodeJS.ProcessEnv });
  forwardLogs(child, resolved.logLevel);
  let nextId = 1;
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exited = true;
      for (const w of waiting.values()) w.reject(new Error(`the sandbox process ended (${signal ?? `exit code ${code}`})`));
      waiting.clear();
      resolve();
    }),
  );
  child.on("message", (message: ChildReply) => {
    if (message.type === "ready") return;
    const w = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.type === "done") w?.resolve();
    else w?.reject(new Error(`the sandbox could not do it: ${message.message}`));
  });
  const info = await new Promise<SandboxInfo>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`the sandbox did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    const onMessage = (message: ChildReply) => {
      if (message.type === "ready") finish(() => resolve(message.info));
      if (message.type === "failed" && message.id === 0) fail(new Error(`the sandbox could not start: ${message.message}`));
    };
    const onExit = (code: number | null, signal: string | null) =>
      fail(new Error(`the sandbox process ended while starting (${signal ?? `exit code ${code}`})`));
    function finish(then: () => void) {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      then();
    }
    function fail(error: Error) {
      finish(() => reject(error));
      child.kill("SIGKILL");
    }
    child.on("message", onMessage);
    child.once("exit", onExit);
    child.send({ type: "start", id: 0, options: resolved } satisfies ChildRequest);
  });

  /** Asks the sandbox's process to reset or stop; resolves when it has. */
  const ask = (type: "reset" | "stop") =>
    new Promise<void>((resolve, reject) => {
      if (exited) return reject(new Error("the sandbox is stopped"));
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.send({ type, id } satisfies ChildRequest);
    });
  /** One call of the sandbox clock's endpoints as the merchant; the answer's JSON. */
  const clockCall = async (method: "GET" | "POST", route: string, body?: unknown) => {
    const res = await fetch(`${info.url}/v1/sandbox/clock${route}`, {
      method,
      headers: {
        authorization: `Bearer ${info.apiKey}`,
        "content-type": "application/json",
        ...(method === "POST" ? { "idempotency-key": randomUUID() } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await res.json()) as { due?: { payments: number; checkoutSessions: number }; error?: { message: string } };
    if (!res.ok) throw new Error(`the sandbox clock refused: ${answer.error?.message ?? res.status}`);
    return answer;
  };
  /** Waits until nothing the clock made due is left to expire (docs/api.md "Sandbox clock": `due`). */
  const caughtUp = async (answer: Awaited<ReturnType<typeof clockCall>>) => {
    const deadline = Date.now() + CATCH_UP_TIMEOUT_MS;
    while (answer.due && answer.due.payments + answer.due.checkoutSessions > 0) {
      if (Date.now() > deadline) throw new Error(`the sandbox did not expire what was due within ${CATCH_UP_TIMEOUT_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 100));
      answer = await clockCall("GET", "");
    }
  };

  let stopped: Promise<void> | null = null;
  return {
    ...info,
    client: createClient({ baseUrl: info.url, apiKey: info.apiKey }),
    clock: {
      advance: async (by) => caughtUp(await clockCall("POST", "/advance", { by: clockDuration(by) })),
      reset: async () => void (await clockCall("POST", "/reset")),
    },
    reset: () => ask("reset"),
    stop: () =>
      (stopped ??= (async () => {
        if (!exited) {
          const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
          await ask("stop").catch(() => {});
          await exit;
          clearTimeout(timer);
        }
      })()),
  };
}
