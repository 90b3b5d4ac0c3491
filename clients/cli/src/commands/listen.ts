// `sandpiper listen` (docs/callbacks.md "sandpiper listen"): checks the key with one request, then runs the Listener;
// `--print-secret` only prints the listener secret.
import { z } from "zod";
import { listenerSecret } from "@/lib/contract/callbacks/listener-secret";
import { standardWebhooksSecret } from "@/lib/contract/callbacks/signing";
import type { ListenerSigning } from "../listen/messages";
import { Listener } from "../listen/listener";
import type { Route } from "../listen/routes";
import { defaultStateFile } from "../listen/state";
import { COMMON_HELP, EVENT_TYPES, HELP, connection, intOption, isHttpUrl, parseCommandLine, usage, type Connection, type Env } from "../args";
import { request, ServiceError } from "../client";

export const LISTEN_HELP = `Usage: sandpiper listen --forward-to <url> [options]
       sandpiper listen --forward <event type>=<url> [--forward ...] [--forward-to <url>] [options]
       sandpiper listen --print-secret

Follows your merchant's events on a Sandpiper service and forwards each one to a receiver on this machine
as the real callback request: the same body bytes and the callback headers, signed with a listener
secret that is printed at start and stays the same for your API key until you rotate it
(sandpiper callbacks rotate-secret --listener).

Options:
  --forward-to <url>    where to POST each event, e.g. http://localhost:4000/hook (the default route: events
                        of a type without a --forward of its own)
  --forward <type>=<url>
                        a route for one event type, e.g. --forward payment.failed=http://localhost:8080/failed;
                        repeat it for other types (one URL per type). Each route retries on its own and its
                        lines start with its label, e.g. [payment.failed → :8080/failed]. Without --forward-to,
                        events of the other types are skipped. Types: ${EVENT_TYPES.join(", ")}
  --events <types>      comma-separated: only these types are forwarded (default: all);
                        ${EVENT_TYPES.join(", ")}
  --state-file <path>   where the cursor is kept between runs (default: in your config folder)
  --from-now            skip what happened while the listener was stopped
  --max-attempts <n>    give up on an event after n attempts, 1 to 100 (default: retry until your
                        receiver answers 2xx; with --retry-schedule service, the service's 8)
  --retry-schedule <listener|service>
                        listener (default): retry after about 1 s, doubling to 30 s; service: the service's
                        callback schedule for your merchant (fast retries: 0.5 s to 60 s; else 30 s to 1 h),
                        up to 8 attempts, as the service would deliver (needs the sandbox:simulate scope)
  --print-secret        print the listener secret of the API key (one line, nothing else) and exit, without
                        running a listener: SECRET=$(sandpiper listen --print-secret)
${COMMON_HELP}

A --forward or --forward-to is required (but with --print-secret, which takes only --api-key and --api-url).
The key needs the payments:read scope; it is checked before anything else is printed.`;

/** A parsed `sandpiper listen` command line. */
export type ListenArgs =
  | { printSecret: true; connection: Connection }
  | {
      printSecret: false;
      connection: Connection;
      routes: Route[];
      types: string[];
      stateFile: string;
      fromNow: boolean;
      maxAttempts?: number;
      /** `--retry-schedule service`: retry on the service's callback schedule (docs/callbacks.md "Delivery to your receiver"). */
      serviceSchedule: boolean;
    };

/** The options of `sandpiper listen` that run a listener (none of them goes with --print-secret). */
const LISTENER_OPTIONS = ["forward-to", "forward", "events", "state-file", "from-now", "max-attempts", "retry-schedule"] as const;

/**
 * The routes of `--forward <type>=<url>` values (docs/callbacks.md "Routes and filters").
 * @throws UsageError for a value without `=`, an unknown type, a URL that is not http(s), or a type given twice
 */
function typeRoutes(values: string[]): Route[] {
  const routes: Route[] = [];
  for (const value of values) {
    const eq = value.indexOf("=");
    const type = eq < 0 ? "" : value.slice(0, eq).trim();
    const url = eq < 0 ? "" : value.slice(eq + 1).trim();
    if (!type || !url) throw usage("listen", `--forward takes <event type>=<url>, e.g. --forward payment.failed=http://localhost:8080/failed (got "${value}")`);
    if (!(EVENT_TYPES as readonly string[]).includes(type)) throw usage("listen", `--forward: unknown event type "${type}"; use ${EVENT_TYPES.join(", ")}`);
    if (!isHttpUrl(url)) throw usage("listen", `--forward ${type}=: the URL must be an http:// or https:// URL`);
    if (routes.some((r) => r.type === type)) throw usage("listen", `--forward ${type} is given twice: a type has one URL`);
    routes.push({ type, url });
  }
  return routes;
}

/**
 * Parses the arguments after `listen`. Returns HELP for --help.
 * @throws UsageError (one line) for a missing or malformed option, or options that do not go together: --print-secret
 *   with a listener option; neither --forward nor --forward-to; a --forward for a type --events leaves out; a type
 *   --events names that no route takes.
 */
export function parseListen(argv: string[], env: Env): ListenArgs | typeof HELP {
  const parsed = parseCommandLine(
    "listen",
    argv,
    {
      "forward-to": { type: "string" },
      forward: { type: "string", multiple: true },
      events: { type: "string" },
      "state-file": { type: "string" },
      "from-now": { type: "boolean" },
      "max-attempts": { type: "string" },
      "retry-schedule": { type: "string" },
      "print-secret": { type: "boolean" },
    },
    0,
  );
  if (parsed === HELP) return HELP;
  const { values } = parsed;
  if (values["print-secret"] === true) {
    const given = LISTENER_OPTIONS.filter((name) => values[name] !== undefined);
    if (given.length) throw usage("listen", `--print-secret only prints the secret: it does not go with --${given.join(", --")}`);
    return { printSecret: true, connection: connection("listen", values, env) };
  }
  const forwardTo = values["forward-to"];
  const routes = typeRoutes(values.forward ?? []);
  if (!forwardTo && routes.length === 0)
    throw usage("listen", "--forward-to is required, e.g. --forward-to http://localhost:4000/hook (or --forward <event type>=<url> per type)");
  if (forwardTo !== undefined && !isHttpUrl(forwardTo)) throw usage("listen", "--forward-to must be an http:// or https:// URL");
  if (forwardTo) routes.push({ type: null, url: forwardTo });
  const conn = connection("listen", values, env);
  const types = values.events
    ? values.events
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean)
    : [];
  const unknown = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length) throw usage("listen", `--events: unknown type ${unknown.join(", ")}; use ${EVENT_TYPES.join(", ")}`);
  if (types.length) {
    const unused = routes.find((r) => r.type !== null && !types.includes(r.type));
    if (unused) throw usage("listen", `--forward ${unused.type}=... would get nothing: --events leaves ${unused.type} out`);
    const unrouted = forwardTo ? [] : types.filter((t) => !routes.some((r) => r.type === t));
    if (unrouted.length) throw usage("listen", `--events ${unrouted[0]} has no route: add --forward ${unrouted[0]}=<url> or --forward-to <url>`);
  }
  const maxAttempts = intOption("listen", "max-attempts", values["max-attempts"], 1, 100);
  const schedule = values["retry-schedule"] ?? "listener";
  if (schedule !== "listener" && schedule !== "service") throw usage("listen", `--retry-schedule must be listener or service, not "${schedule}"`);
  return {
    printSecret: false,
    connection: conn,
    routes,
    types,
    stateFile: values["state-file"] ?? defaultStateFile(conn.apiUrl, conn.apiKey),
    fromNow: values["from-now"] === true,
    ...(maxAttempts === undefined ? {} : { maxAttempts }),
    serviceSchedule: schedule === "service",
  };
}

/**
 * The merchant's callback schedule for `--retry-schedule service`: its fast retries setting (`GET
 * /v1/sandbox/settings`, read once at start).
 * @throws ServiceError when the service refuses (403 without the sandbox:simulate scope: the hint says so)
 */
async function retrySpeedOf(conn: Connection): Promise<{ fastRetries: boolean }> {
  try {
    return await request(conn, "GET", "/v1/sandbox/settings", z.object({ fastRetries: z.boolean() }), { timeoutMs: 15_000 });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 403) {
      error.hint = "--retry-schedule service reads your merchant's fast retries setting: use a key with the sandbox:simulate scope, or leave the option out.";
    }
    throw error;
  }
}

/** The generations of a `GET /v1/sandbox/listener-secret` answer; an answer without them means generation 0. */
function signingOf(answer: unknown): ListenerSigning {
  const parsed = ListenerSecretAnswer.safeParse(answer);
  if (!parsed.success) return { generation: 0, previousGeneration: null, previousUntil: null };
  return { generation: parsed.data.generation, previousGeneration: parsed.data.previousGeneration, previousUntil: parsed.data.overlapEndsAt };
}

const ListenerSecretAnswer = z.object({ generation: z.int().min(0), previousGeneration: z.int().min(0).nullable(), overlapEndsAt: z.string().nullable() });

/**
 * Runs the listener until SIGINT or SIGTERM. The key is checked first with `GET /v1/sandbox/listener-secret`, which
 * also gives the generation the listener secret is derived from (docs/callbacks.md "Rotating the secret"): a key the
 * service refuses ends the command (exit 1) before the listener secret is printed. With --print-secret: prints the
 * secret (lib/contract/callbacks/listener-secret.ts) as one line on stdout and returns 0.
 * @returns the exit code: 0 after a signal, 1 when the service refuses the key or cannot be reached
 * @throws ServiceError when the key check fails (the dispatcher prints it)
 */
export async function runListen(args: ListenArgs): Promise<number> {
  let signing: ListenerSigning;
  try {
    // The key check, and the generation the key's listener secret is derived from (docs/callbacks.md "Rotating the secret").
    const state = await request(args.connection, "GET", "/v1/sandbox/listener-secret", z.unknown(), { timeoutMs: 15_000 });
    signing = signingOf(state);
  } catch (error) {
    if (error instanceof ServiceError && (error.status === 401 || error.status === 403)) {
      error.hint = "Use a valid sandbox key with the payments:read scope (--api-key or SANDPIPER_API_KEY); no listener secret was printed.";
    }
    throw error;
  }
  if (args.printSecret) {
    // The form the standardwebhooks package takes: the secret itself for every key made now; for an old-form key
    // (docs/callbacks.md "Standard Webhooks") its standard base64 form, and a line on stderr with the other form.
    const secret = listenerSecret(args.connection.apiKey, signing.generation);
    const standard = standardWebhooksSecret(secret);
    process.stdout.write(`${standard}\n`);
    if (standard !== secret) {
      process.stderr.write(
        `sandpiper: printed in the form Standard Webhooks libraries take; your own check of X-Service-Signature takes this key's secret as text: ${secret} (rotate the listener secret for one form both take)\n`,
      );
    }
    return 0;
  }
  const listener = new Listener({
    apiUrl: args.connection.apiUrl,
    apiKey: args.connection.apiKey,
    routes: args.routes,
    types: args.types,
    stateFile: args.stateFile,
    fromNow: args.fromNow,
    signing,
    ...(args.maxAttempts === undefined ? {} : { maxAttempts: args.maxAttempts }),
    serviceSchedule: args.serviceSchedule ? await retrySpeedOf(args.connection) : null,
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => listener.stop());
  return listener.run();
}
