// @sandpiper/sandbox: startSandpiper() starts the service in a process of its own with a database of its own,
// for a merchant's test suite (docs/guides/test-in-your-own-suite.md). This module runs in the caller's process; the
// sandbox itself is app/sandbox-child.mjs (child.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "../../typescript/src/index";
import type { MerchantOptions, Sandbox, SandboxConnection, SandboxMerchant, SandboxOptions } from "../types/index";
import type { ChildReply, ChildRequest, ResolvedOptions, SandboxInfo } from "./protocol";

/** The sandbox's process entry: `<package>/app/sandbox-child.mjs` beside this file's `<package>/index.js`. */
const childEntry = path.join(path.dirname(fileURLToPath(import.meta.url)), "app", "sandbox-child.mjs");
const OPTIONS = ["callbackUrl", "port", "scenarioRules", "fastRetries", "logLevel", "startTimeoutMs"] as const;
/** The options of {@link startSandpiper} that sandbox.merchant() takes too, with the same meaning. */
const MERCHANT_OPTIONS = ["callbackUrl", "scenarioRules", "fastRetries"] as const;
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
/** A start's default time limit (a loaded CI machine), and a clock advance's catch-up. */
const START_TIMEOUT_MS = 60_000;
const CATCH_UP_TIMEOUT_MS = 60_000;
/**
 * How many sandboxes of this process start at once: each start keeps a core busy for seconds, so more at once only
 * makes every one of them slower. The others wait their turn (docs/guides/test-in-your-own-suite.md "Options").
 */
export const MAX_STARTS_AT_ONCE = Math.max(1, os.availableParallelism());
/** The standard error lines a sandbox process wrote last, kept for the message of a start that fails (characters). */
const STDERR_KEPT = 4_000;

/** A refused option: one sentence naming it and what it takes. */
function refuse(who: string, message: string): never {
  throw new TypeError(`${who}: ${message} (docs/guides/test-in-your-own-suite.md "Options")`);
}

/** Why `value` is not a value of option `name`, or null when it is (the checks startSandpiper() and merchant() share). */
function problem(name: (typeof OPTIONS)[number], value: unknown): string | null {
  const got = `got ${JSON.stringify(value) ?? String(value)}`;
  switch (name) {
    case "callbackUrl":
      return typeof value === "string" && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)
        ? null
        : `callbackUrl must be an http or https URL, ${got}`;
    case "port":
      return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 65535
        ? null
        : `port must be a whole number from 0 to 65535, ${got}`;
    case "scenarioRules":
      return value === "none" || value === "standard" ? null : `scenarioRules must be "standard" or "none", ${got}`;
    case "fastRetries":
      return typeof value === "boolean" ? null : `fastRetries must be true or false, ${got}`;
    case "logLevel":
      return (LOG_LEVELS as readonly unknown[]).includes(value) ? null : `logLevel must be one of ${LOG_LEVELS.join(", ")}, ${got}`;
    case "startTimeoutMs":
      return typeof value === "number" && Number.isInteger(value) && value >= 1_000
        ? null
        : `startTimeoutMs must be a whole number of milliseconds from 1000, ${got}`;
  }
}

/**
 * The given options, each checked against `names` and its values: an object with no other member.
 * @throws TypeError naming `who`, the unknown option and the options there are, or the value refused and what was given
 */
function checkedOptions(who: string, options: unknown, names: readonly (typeof OPTIONS)[number][]): Record<string, unknown> {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) refuse(who, `options must be an object, got ${JSON.stringify(options)}`);
  const given = options as Record<string, unknown>;
  const unknown = Object.keys(given).filter((name) => !(names as readonly string[]).includes(name));
  if (unknown.length > 0)
    refuse(who, `unknown option${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `"${n}"`).join(", ")}; the options are ${names.join(", ")}`);
  for (const name of names) {
    const why = given[name] === undefined ? null : problem(name, given[name]);
    if (why) refuse(who, why);
  }
  return given;
}

/**
 * The options with their defaults, each checked.
 * @throws TypeError for an unknown option or a value it does not take
 */
export function resolveOptions(options: unknown): ResolvedOptions {
  const given = checkedOptions("startSandpiper", options, OPTIONS);
  const { callbackUrl, port = 0, scenarioRules = "none", fastRetries = true, logLevel = "warn", startTimeoutMs = START_TIMEOUT_MS } = given;
  return {
    callbackUrl: (callbackUrl as string | undefined) ?? null,
    port: port as number,
    scenarioRules: scenarioRules as ResolvedOptions["scenarioRules"],
    fastRetries: fastRetries as boolean,
    logLevel: logLevel as ResolvedOptions["logLevel"],
    startTimeoutMs: startTimeoutMs as number,
  };
}

/**
 * The options of sandbox.merchant(), checked as startSandpiper() checks them, as the body of POST /v1/sandbox/merchants.
 * @throws TypeError for an unknown option or a value it does not take
 */
export function merchantOptions(options: unknown): MerchantOptions {
  return checkedOptions("sandbox.merchant", options, MERCHANT_OPTIONS) as MerchantOptions;
}

/** The starts of this process under way, and the ones waiting for a place ({@link MAX_STARTS_AT_ONCE}). */
let starting = 0;
const waitingToStart: (() => void)[] = [];

/** Resolves when this start may begin; call the answer when it has ended, however it ended. */
async function startPlace(): Promise<() => void> {
  if (starting >= MAX_STARTS_AT_ONCE) await new Promise<void>((resolve) => waitingToStart.push(resolve));
  else starting++;
  return () => {
    const next = waitingToStart.shift();
    if (next) next();
    else starting--;
  };
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

/**
 * Passes the sandbox's log lines (JSON, one per line) and errors to this process's stderr; other lines are dropped.
 * Whatever the level, the last of its stderr is kept: `stderrTail()` answers it for a start that fails.
 */
function forwardLogs(child: ChildProcess, logLevel: ResolvedOptions["logLevel"]): { stderrTail: () => string } {
  let tail = "";
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    tail = (tail + text).slice(-STDERR_KEPT);
    if (logLevel !== "silent") process.stderr.write(text);
  });
  const stderrTail = () => tail.trim();
  if (logLevel === "silent") {
    child.stdout?.resume();
    return { stderrTail };
  }
  let partial = "";
  child.stdout?.setEncoding("utf8").on("data", (text: string) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (line.startsWith("{")) process.stderr.write(`${line}\n`);
  });
  return { stderrTail };
}

/** The Error of a stopped sandbox's `what`. */
const stoppedError = (what: string) => new Error(`the sandbox is stopped: ${what} after stop() does nothing; start another sandbox`);

/**
 * The sandbox clock of the merchant of `apiKey` (docs/api.md "Sandbox clock"): advance resolves once what the move
 * made due is done. `stopped`: whether the sandbox was stopped (each call then throws).
 */
function clockOf(url: string, apiKey: string, stopped: () => boolean): Sandbox["clock"] {
  /** One call of the sandbox clock's endpoints as the merchant; the answer's JSON. */
  const clockCall = async (method: "GET" | "POST", route: string, body?: unknown) => {
    if (stopped()) throw stoppedError(route === "/reset" ? "clock.reset()" : "clock.advance()");
    const res = await fetch(`${url}/v1/sandbox/clock${route}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
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
  return {
    advance: async (by) => caughtUp(await clockCall("POST", "/advance", { by: clockDuration(by) })),
    reset: async () => void (await clockCall("POST", "/reset")),
  };
}

/** newMerchant (types/index.d.ts): POST /v1/sandbox/merchants with the sandbox token, and the merchant's client and clock. */
export function newMerchant(sandbox: SandboxConnection, options?: MerchantOptions): Promise<SandboxMerchant> {
  return makeMerchant(sandbox, options, () => false);
}

/** A merchant of `sandbox` as `options` ask; `stopped`: whether the sandbox was stopped (its clock then throws). */
async function makeMerchant(sandbox: SandboxConnection, options: MerchantOptions | undefined, stopped: () => boolean): Promise<SandboxMerchant> {
  const body = merchantOptions(options);
  if (typeof sandbox?.url !== "string" || typeof sandbox.sandboxToken !== "string")
    throw new TypeError("newMerchant: pass the sandbox's { url, sandboxToken } (what startSandpiper() answers, or vitest's inject())");
  let res: Response;
  try {
    res = await fetch(`${sandbox.url}/v1/sandbox/merchants`, {
      method: "POST",
      headers: { authorization: `Bearer ${sandbox.sandboxToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new Error(`the sandbox at ${sandbox.url} did not answer (${error instanceof Error ? error.message : String(error)}); is it stopped?`);
  }
  const answer = (await res.json()) as Omit<SandboxMerchant, "client" | "clock"> & { error?: { message: string } };
  if (res.status !== 201) throw new Error(`the sandbox could not make a merchant: ${answer.error?.message ?? res.status}`);
  const { merchantId, apiKey, keys, callbackSecret } = answer;
  return {
    merchantId,
    apiKey,
    keys,
    callbackSecret,
    client: createClient({ baseUrl: sandbox.url, apiKey }),
    clock: clockOf(sandbox.url, apiKey, stopped),
  };
}

/** startSandpiper (types/index.d.ts). */
export async function startSandpiper(options?: SandboxOptions): Promise<Sandbox> {
  const resolved = resolveOptions(options);
  const release = await startPlace();
  let started: Awaited<ReturnType<typeof startChild>>;
  try {
    started = await startChild(resolved);
  } finally {
    release();
  }
  return sandboxOf(started);
}

/**
 * The V8 heap of the sandbox's process (docs/benchmarks.md "A suite of 50 files"): its JavaScript keeps 50 to 65 MB
 * alive through hundreds of tests, but an unbounded heap grows to 250-375 MB before V8 collects it. A 128 MB old
 * generation and 4 MB semi-spaces keep the whole process near 300 MB resident, whatever the suite's length.
 */
const SANDBOX_HEAP_FLAGS = ["--max-old-space-size=128", "--max-semi-space-size=4"];

/** Starts the sandbox's process and resolves once it serves, or rejects with the reason it did not. */
async function startChild(resolved: ResolvedOptions) {
  // Nothing of the caller's environment or Node.js flags (a test runner's loaders) reaches the sandbox.
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TZ", "TMPDIR"]) if (process.env[name] !== undefined) env[name] = process.env[name];
  const child: ChildProcess = spawn(process.execPath, ["--expose-gc", ...SANDBOX_HEAP_FLAGS, childEntry], {
    stdio: ["pipe", "pipe", "pipe", "ipc"],
    env: env as NodeJS.ProcessEnv,
  });
  const { stderrTail } = forwardLogs(child, resolved.logLevel);
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  const state = { exited: false };
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      state.exited = true;
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
    const limit = resolved.startTimeoutMs;
    const timer = setTimeout(
      () => fail(new Error(`the sandbox did not start within ${limit / 1000} s; on a busy machine pass a longer \`startTimeoutMs\` (now ${limit})`)),
      limit,
    );
    const onMessage = (message: ChildReply) => {
      if (message.type === "ready") finish(() => resolve(message.info));
      if (message.type === "failed" && message.id === 0) fail(new Error(`the sandbox could not start: ${message.message}`));
    };
    const onExit = (code: number | null, signal: string | null) => {
      const said = stderrTail();
      fail(new Error(`the sandbox process ended while starting (${signal ?? `exit code ${code}`})${said ? `: ${said}` : ""}`));
    };
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
  return { child, info, waiting, state, exit };
}

/** The {@link Sandbox} of a started process. */
function sandboxOf({ child, info, waiting, state, exit }: Awaited<ReturnType<typeof startChild>>): Sandbox {
  let nextId = 1;
  let stopped: Promise<void> | null = null;
  const isStopped = () => stopped !== null || state.exited;
  /** Asks the sandbox's process to reset or stop; resolves when it has. */
  const ask = (type: "reset" | "stop") =>
    new Promise<void>((resolve, reject) => {
      if (state.exited) return reject(stoppedError(type === "reset" ? "reset()" : "stop()"));
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.send({ type, id } satisfies ChildRequest);
    });

  return {
    ...info,
    client: createClient({ baseUrl: info.url, apiKey: info.apiKey }),
    clock: clockOf(info.url, info.apiKey, isStopped),
    merchant: (options?: MerchantOptions) => (isStopped() ? Promise.reject(stoppedError("merchant()")) : makeMerchant(info, options, isStopped)),
    reset: () => (isStopped() ? Promise.reject(stoppedError("reset()")) : ask("reset")),
    stop: () =>
      (stopped ??= (async () => {
        if (!state.exited) {
          const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
          await ask("stop").catch(() => {});
          await exit;
          clearTimeout(timer);
        }
      })()),
  };
}
