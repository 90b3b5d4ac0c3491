// `sandpiper listen` (docs/callbacks.md "sandpiper listen"): checks the key with one request, then runs the Listener.
import { Listener } from "../../listen/listener";
import { defaultStateFile } from "../../listen/state";
import { COMMON_HELP, EVENT_TYPES, HELP, connection, intOption, isHttpUrl, parseCommandLine, usage, type Connection, type Env } from "../args";
import { request, ServiceError } from "../client";

export const LISTEN_HELP = `Usage: sandpiper listen --forward-to <url> [options]

Follows your merchant's events on a Sandpiper service and forwards each one to a receiver on this machine
as the real callback request: the same body bytes and the three callback headers, signed with a listener
secret that is printed at start and stays the same for your API key.

Options:
  --forward-to <url>    where to POST each event, e.g. http://localhost:4000/hook (required)
  --events <types>      comma-separated: ${EVENT_TYPES.join(", ")} (default: all)
  --state-file <path>   where the cursor is kept between runs (default: in your config folder)
  --from-now            skip what happened while the listener was stopped
  --max-attempts <n>    give up on an event after n attempts, 1 to 100 (default: retry until your
                        receiver answers 2xx)
${COMMON_HELP}

The key needs the payments:read scope; it is checked before anything else is printed.`;

/** A parsed `sandpiper listen` command line. */
export type ListenArgs = {
  connection: Connection;
  forwardTo: string;
  types: string[];
  stateFile: string;
  fromNow: boolean;
  maxAttempts?: number;
};

/**
 * Parses the arguments after `listen`. Returns HELP for --help.
 * @throws UsageError (one line) for a missing or malformed option.
 */
export function parseListen(argv: string[], env: Env): ListenArgs | typeof HELP {
  const parsed = parseCommandLine(
    "listen",
    argv,
    {
      "forward-to": { type: "string" },
      events: { type: "string" },
      "state-file": { type: "string" },
      "from-now": { type: "boolean" },
      "max-attempts": { type: "string" },
    },
    0,
  );
  if (parsed === HELP) return HELP;
  const { values } = parsed;
  const forwardTo = values["forward-to"] as string | undefined;
  if (!forwardTo) throw usage("listen", "--forward-to is required, e.g. --forward-to http://localhost:4000/hook");
  if (!isHttpUrl(forwardTo)) throw usage("listen", "--forward-to must be an http:// or https:// URL");
  const conn = connection("listen", values, env);
  const types = values.events
    ? String(values.events)
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean)
    : [];
  const unknown = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length) throw usage("listen", `--events: unknown type ${unknown.join(", ")}; use ${EVENT_TYPES.join(", ")}`);
  const maxAttempts = intOption("listen", "max-attempts", values["max-attempts"], 1, 100);
  return {
    connection: conn,
    forwardTo,
    types,
    stateFile: (values["state-file"] as string | undefined) ?? defaultStateFile(conn.apiUrl, conn.apiKey),
    fromNow: values["from-now"] === true,
    ...(maxAttempts === undefined ? {} : { maxAttempts }),
  };
}

/**
 * Runs the listener until SIGINT or SIGTERM. The key is checked first with `GET /v1/events?limit=1`: a key the
 * service refuses ends the command (exit 1) before the listener secret is printed.
 * @returns the exit code: 0 after a signal, 1 when the service refuses the key or cannot be reached
 * @throws ServiceError when the key check fails (the dispatcher prints it)
 */
export async function runListen(args: ListenArgs): Promise<number> {
  try {
    await request(args.connection, "GET", "/v1/events?limit=1", { timeoutMs: 15_000 });
  } catch (error) {
    if (error instanceof ServiceError && (error.status === 401 || error.status === 403)) {
      error.hint = "Use a valid sandbox key with the payments:read scope (--api-key or SANDPIPER_API_KEY); no listener secret was printed.";
    }
    throw error;
  }
  const listener = new Listener({
    apiUrl: args.connection.apiUrl,
    apiKey: args.connection.apiKey,
    forwardTo: args.forwardTo,
    types: args.types,
    stateFile: args.stateFile,
    fromNow: args.fromNow,
    ...(args.maxAttempts === undefined ? {} : { maxAttempts: args.maxAttempts }),
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => listener.stop());
  return listener.run();
}
