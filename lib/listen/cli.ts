// The `sandpiper` command (docs/callbacks.md "sandpiper listen"): `sandpiper listen --forward-to <url>`.
import { parseArgs } from "node:util";
import { Listener } from "./listener";
import { defaultStateFile } from "./state";

const EVENT_TYPES = ["payment.succeeded", "payment.failed", "payment.expired"];

const HELP = `Usage: sandpiper listen --forward-to <url> [options]

Follows your merchant's events on a Sandpiper service and forwards each one to a receiver on this machine
as the real callback request: the same body bytes and the three callback headers, signed with a listener
secret that is printed at start and stays the same for your API key.

Options:
  --forward-to <url>    where to POST each event, e.g. http://localhost:4000/hook (required)
  --api-key <key>       sandbox API key with the payments:read scope (default: SANDPIPER_API_KEY)
  --api-url <url>       the service (default: SANDPIPER_API_URL, else http://localhost:3000)
  --events <types>      comma-separated: ${EVENT_TYPES.join(", ")} (default: all)
  --state-file <path>   where the cursor is kept between runs (default: in your config folder)
  --from-now            skip what happened while the listener was stopped
  --max-attempts <n>    give up on an event after n attempts (default: retry until your receiver answers 2xx)
  -h, --help            this text

SANDPIPER_API_KEY and SANDPIPER_API_URL are read from the environment, and from a .env file in the current
folder when there is one (variables already set win).`;

/** Reads `./.env` into the environment when it exists; variables already set keep their values. */
function loadDotEnv(): void {
  try {
    process.loadEnvFile(".env");
  } catch {
    // no .env here
  }
}

/**
 * Runs the command line `argv` (without node and the script); resolves with the exit code. Errors in the
 * arguments print what to do and answer 2.
 */
export async function main(argv: string[]): Promise<number> {
  loadDotEnv();
  const [command, ...rest] = argv;
  if (command === undefined || command === "-h" || command === "--help" || command === "help") {
    console.log(HELP);
    return command === undefined ? 2 : 0;
  }
  if (command !== "listen") {
    console.error(`Unknown command "${command}". ${HELP}`);
    return 2;
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        "forward-to": { type: "string" },
        "api-key": { type: "string" },
        "api-url": { type: "string" },
        events: { type: "string" },
        "state-file": { type: "string" },
        "from-now": { type: "boolean", default: false },
        "max-attempts": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const forwardTo = values["forward-to"];
  const apiKey = values["api-key"] ?? process.env.SANDPIPER_API_KEY;
  const apiUrl = (values["api-url"] ?? process.env.SANDPIPER_API_URL ?? "http://localhost:3000").replace(/\/$/, "");
  const problems: string[] = [];
  if (!forwardTo) problems.push("--forward-to is required, e.g. --forward-to http://localhost:4000/hook");
  else if (!/^https?:\/\//.test(forwardTo)) problems.push("--forward-to must be an http:// or https:// URL");
  if (!apiKey) problems.push("an API key is required: --api-key sk_sandbox_... or SANDPIPER_API_KEY");
  if (!/^https?:\/\//.test(apiUrl)) problems.push("--api-url must be an http:// or https:// URL");
  const types = values.events ? values.events.split(",").map((t) => t.trim()).filter(Boolean) : [];
  const unknown = types.filter((t) => !EVENT_TYPES.includes(t));
  if (unknown.length) problems.push(`--events: unknown type ${unknown.join(", ")}; use ${EVENT_TYPES.join(", ")}`);
  const maxAttempts = values["max-attempts"] === undefined ? undefined : Number(values["max-attempts"]);
  if (maxAttempts !== undefined && !(Number.isInteger(maxAttempts) && maxAttempts >= 1 && maxAttempts <= 1000)) {
    problems.push("--max-attempts must be a whole number from 1 to 1000");
  }
  if (problems.length) {
    console.error(`${problems.join("\n")}\n\nRun "sandpiper listen --help" for the options.`);
    return 2;
  }
  const listener = new Listener({
    apiUrl,
    apiKey: apiKey!,
    forwardTo: forwardTo!,
    types,
    stateFile: values["state-file"] ?? defaultStateFile(apiUrl, apiKey!),
    fromNow: values["from-now"] ?? false,
    maxAttempts,
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => listener.stop());
  return listener.run();
}
