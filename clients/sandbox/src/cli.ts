// The sandpiper-sandbox command (docs/guides/test-in-your-own-suite.md "Other languages"): starts a sandbox, prints one
// JSON line with what startSandpiper() answers (less `client`) once it serves, answers the lines `reset` and
// `merchant {json}` of its standard input with one JSON line each, and stops on SIGTERM, SIGINT or when its standard
// input closes.
import readline from "node:readline";
import { startSandpiper } from "./index";
import type { SandboxOptions } from "../types/index";

const USAGE = `Usage: sandpiper-sandbox [--port <n>] [--callback-url <url>] [--scenario-rules standard|none] [--no-fast-retries]
                         [--log-level <level>] [--start-timeout-ms <n>] [--json]

Starts a Sandpiper sandbox on 127.0.0.1 with a database of its own. Once it serves it prints what a test needs
(url, apiKey, keys, merchantId, callbackSecret, sandboxToken, console) as one JSON line with --json, else as lines
to read. Then each line of its standard input is a command, answered with one JSON line on standard output:
  reset               back to the state right after the start       -> {"reset":true}
  merchant {options}  a new merchant ({"callbackUrl", "scenarioRules", "fastRetries"}, each optional)
                      -> {"merchantId","apiKey","keys","callbackSecret"}
A command that fails answers {"error":{"message":"..."}}.
It stops on SIGTERM, SIGINT (Ctrl-C) or when its standard input closes.`;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** The options and `--json` from the command line; exits 2 with the usage on anything else, naming what was given. */
function parse(args: string[]): { options: SandboxOptions; json: boolean } {
  const options: SandboxOptions = {};
  let json = false;
  const value = (i: number) => {
    const v = args[i + 1];
    if (v === undefined || v.startsWith("--")) usage(`${args[i]} needs a value`);
    return v;
  };
  /** A whole number from `min` to `max` given to `flag`. */
  const whole = (flag: string, text: string, min: number, max: number) => {
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!(n >= min && n <= max)) usage(`${flag}: got "${text}"; expected a whole number from ${min} to ${max}`);
    return n;
  };
  /** One of `allowed` given to `flag`. */
  const oneOf = <T extends string>(flag: string, text: string, allowed: readonly T[]) => {
    if (!(allowed as readonly string[]).includes(text)) usage(`${flag}: got "${text}"; expected ${allowed.join(" or ")}`);
    return text as T;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--json") json = true;
    else if (arg === "--no-fast-retries") options.fastRetries = false;
    else if (arg === "--port") options.port = whole(arg, value(i++), 0, 65535);
    else if (arg === "--start-timeout-ms") options.startTimeoutMs = whole(arg, value(i++), 1000, 3_600_000);
    else if (arg === "--callback-url") options.callbackUrl = value(i++);
    else if (arg === "--scenario-rules") options.scenarioRules = oneOf(arg, value(i++), ["standard", "none"] as const);
    else if (arg === "--log-level") options.logLevel = oneOf(arg, value(i++), LOG_LEVELS) as SandboxOptions["logLevel"];
    else if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else usage(`unknown argument "${arg}"`);
  }
  return { options, json };
}

function usage(problem: string): never {
  console.error(`sandpiper-sandbox: ${problem}\n\n${USAGE}`);
  process.exit(2);
}

const { options, json } = parse(process.argv.slice(2));
let sandbox: Awaited<ReturnType<typeof startSandpiper>>;
try {
  sandbox = await startSandpiper(options);
} catch (error) {
  console.error(`sandpiper-sandbox: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const { client: _client, clock: _clock, merchant, reset, stop, ...shown } = sandbox;
if (json) process.stdout.write(`${JSON.stringify(shown)}\n`);
else {
  const users = Object.entries(shown.console.users).map(([, u]) => `  console user   ${u.username} / ${u.password}`);
  process.stdout.write(
    [
      `Sandpiper sandbox on ${shown.url}`,
      `  API key        ${shown.apiKey}`,
      `  merchant id    ${shown.merchantId}`,
      ...(shown.callbackSecret ? [`  callback secret ${shown.callbackSecret}`] : []),
      `  sandbox token  ${shown.sandboxToken}   (POST ${shown.url}/v1/sandbox/merchants)`,
      `  console        ${shown.console.url}`,
      ...users,
      "Ctrl-C stops it.",
      "",
    ].join("\n"),
  );
}

/**
 * The answer to one line of standard input (docs/guides/test-in-your-own-suite.md "Other languages"), as the object
 * to print: `reset`, `merchant` with an optional JSON object of options; null for a blank line.
 */
async function answer(line: string): Promise<object | null> {
  const text = line.trim();
  if (text === "") return null;
  const [command = "", rest = ""] = text.split(/\s+(.*)/s);
  try {
    if (command === "reset" && rest === "") {
      await reset();
      return { reset: true };
    }
    if (command === "merchant") {
      let given: unknown = undefined;
      if (rest !== "") {
        try {
          given = JSON.parse(rest);
        } catch {
          return { error: { message: `merchant: the options must be a JSON object, got ${rest}` } };
        }
      }
      const { client: _c, clock: _k, ...made } = await merchant(given as SandboxOptions);
      return made;
    }
    return { error: { message: `unknown command ${JSON.stringify(text)}; send "reset" or "merchant {json options}", one per line` } };
  } catch (error) {
    return { error: { message: error instanceof Error ? error.message : String(error) } };
  }
}

let stopping = false;
const end = () => {
  if (stopping) return;
  stopping = true;
  void stop().then(() => process.exit(0));
};
process.once("SIGTERM", end).once("SIGINT", end);
// The commands are answered one after another, in the order they came; the end of standard input stops the sandbox
// once the commands before it are answered.
let queue: Promise<void> = Promise.resolve();
readline
  .createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on("line", (line) => {
    queue = queue.then(async () => {
      const reply = await answer(line);
      if (reply) process.stdout.write(`${JSON.stringify(reply)}\n`);
    });
  })
  .on("close", () => void queue.then(end));
