// The sandpiper-sandbox command (docs/guides/test-in-your-own-suite.md "Other languages"): starts a sandbox, prints one
// JSON line with what startSandpiper() answers (less `client`) once it serves, and stops on SIGTERM, SIGINT or when
// its standard input closes.
import { startSandpiper } from "./index";
import type { SandboxOptions } from "../types/index";

const USAGE = `Usage: sandpiper-sandbox [--port <n>] [--callback-url <url>] [--scenario-rules standard] [--no-fast-retries] [--log-level <level>] [--json]

Starts a Sandpiper sandbox on 127.0.0.1 with a database of its own. Once it serves it prints what a test needs
(url, apiKey, keys, merchantId, callbackSecret, console) as one JSON line with --json, else as lines to read.
It stops on SIGTERM, SIGINT (Ctrl-C) or when its standard input closes.`;

/** The options and `--json` from the command line; exits 2 with the usage on anything else. */
function parse(args: string[]): { options: SandboxOptions; json: boolean } {
  const options: SandboxOptions = {};
  let json = false;
  const value = (i: number) => {
    const v = args[i + 1];
    if (v === undefined || v.startsWith("--")) usage(`${args[i]} needs a value`);
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--json") json = true;
    else if (arg === "--no-fast-retries") options.fastRetries = false;
    else if (arg === "--port") options.port = Number(value(i++));
    else if (arg === "--callback-url") options.callbackUrl = value(i++);
    else if (arg === "--scenario-rules") options.scenarioRules = value(i++) as SandboxOptions["scenarioRules"];
    else if (arg === "--log-level") options.logLevel = value(i++) as SandboxOptions["logLevel"];
    else if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else usage(`unknown argument ${arg}`);
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
const { client: _client, clock: _clock, reset: _reset, stop, ...shown } = sandbox;
if (json) process.stdout.write(`${JSON.stringify(shown)}\n`);
else {
  const users = Object.entries(shown.console.users).map(([, u]) => `  console user   ${u.username} / ${u.password}`);
  process.stdout.write(
    [
      `Sandpiper sandbox on ${shown.url}`,
      `  API key        ${shown.apiKey}`,
      `  merchant id    ${shown.merchantId}`,
      ...(shown.callbackSecret ? [`  callback secret ${shown.callbackSecret}`] : []),
      `  console        ${shown.console.url}`,
      ...users,
      "Ctrl-C stops it.",
      "",
    ].join("\n"),
  );
}
let stopping = false;
const end = () => {
  if (stopping) return;
  stopping = true;
  void stop().then(() => process.exit(0));
};
process.once("SIGTERM", end).once("SIGINT", end);
process.stdin.on("end", end).on("close", end).resume();
