// Argument parsing shared by the commands of `sandpiper` (docs/callbacks.md "The sandpiper command"): node:util's
// parseArgs with one-line errors, and the connection options every command takes (--api-key, --api-url). Imports
// only node built-ins: the command runs beside a service, not inside it.
import { readFileSync } from "node:fs";
import { parseArgs, parseEnv } from "node:util";

/** The event types a merchant receives (docs/callbacks.md "Events API"). */
export const EVENT_TYPES = ["payment.succeeded", "payment.failed", "payment.expired"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The service `--api-url` defaults to when neither the flag nor SANDPIPER_API_URL names one. */
export const DEFAULT_API_URL = "http://localhost:3000";

/** The variables the command reads (from the environment, then ./.env). */
export type Env = { SANDPIPER_API_KEY?: string; SANDPIPER_API_URL?: string };

/** Where a command sends its requests. `apiUrl` has no trailing slash. */
export type Connection = { apiKey: string; apiUrl: string };

/** A mistake in the command line: printed as one line with what to do; the command exits 2. */
export class UsageError extends Error {}

/** What `--help` asks for: the command prints its help text and exits 0. */
export const HELP = Symbol("help");

/**
 * The variables of `env` (the process environment), with SANDPIPER_API_KEY and SANDPIPER_API_URL read from `dotEnvPath`
 * (`./.env` by default) when the environment does not set them. A missing or unreadable file is ignored.
 */
export function readEnv(env: Record<string, string | undefined>, dotEnvPath = ".env"): Env {
  let file: Record<string, string> = {};
  try {
    file = parseEnv(readFileSync(dotEnvPath, "utf8")) as Record<string, string>;
  } catch {
    // no .env here
  }
  const pick = (name: keyof Env) => (env[name] ? env[name] : file[name] || undefined);
  return { SANDPIPER_API_KEY: pick("SANDPIPER_API_KEY"), SANDPIPER_API_URL: pick("SANDPIPER_API_URL") };
}

/** The options of a command; `multiple`: the option may be repeated and its value is the list of every value given. */
type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }>;

/** The options every command takes. */
export const COMMON_OPTIONS = {
  "api-key": { type: "string" },
  "api-url": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies OptionSpec;

export const COMMON_HELP = `  --api-key <key>       sandbox API key (default: SANDPIPER_API_KEY, else the same line in ./.env)
  --api-url <url>       the service (default: SANDPIPER_API_URL, else ${DEFAULT_API_URL})
  -h, --help            this text`;

/** The strict parseArgs configuration of a command with options `O` (the common ones added). */
type StrictConfig<O extends OptionSpec> = { args: string[]; options: typeof COMMON_OPTIONS & O; allowPositionals: true; strict: true };

/**
 * A parsed command line as node:util's parseArgs types it for the command's options: each option's value is a
 * string, a boolean or (with `multiple`) a list of them, or undefined when absent; no cast needed to read it.
 */
export type CommandLine<O extends OptionSpec> = {
  values: ReturnType<typeof parseArgs<StrictConfig<O>>>["values"];
  positionals: string[];
};

/**
 * Parses `argv` against `options` (strict: an unknown option is an error) plus the common ones. `command` names the
 * command in messages, e.g. "events list". Returns HELP when -h/--help is given.
 * @returns the values typed by parseArgs from `options` ({@link CommandLine})
 * @throws UsageError with a one-line message for an unknown option, a missing value or too many arguments.
 */
export function parseCommandLine<const O extends OptionSpec>(
  command: string,
  argv: string[],
  options: O,
  maxPositionals: number,
): typeof HELP | CommandLine<O> {
  const all = { ...COMMON_OPTIONS, ...options };
  // First not strict: the tokens say what each option was, so the messages are built from them, never from parseArgs' words.
  const loose = parseArgs({ args: argv, options: all, allowPositionals: true, strict: false, tokens: true });
  for (const token of loose.tokens) {
    if (token.kind !== "option") continue;
    const spec = Object.hasOwn(all, token.name) ? all[token.name] : undefined;
    if (!spec) throw usage(command, `unknown option ${token.rawName}`);
    const ambiguous = spec.type === "string" && !token.inlineValue && token.value?.startsWith("-");
    if (spec.type === "string" && (token.value === undefined || ambiguous)) throw usage(command, `option ${token.rawName} needs a value`);
    if (spec.type === "boolean" && token.inlineValue) throw usage(command, `option ${token.rawName} takes no value`);
  }
  // Every token passed the checks strict mode makes, so the strict parse succeeds and gives parseArgs' typed values.
  const config: StrictConfig<O> = { args: argv, options: all, allowPositionals: true, strict: true };
  const parsed = parseArgs(config);
  if (loose.tokens.some((token) => token.kind === "option" && token.name === "help")) return HELP;
  if (parsed.positionals.length > maxPositionals) throw usage(command, `unexpected argument "${parsed.positionals[maxPositionals]}"`);
  return { values: parsed.values, positionals: parsed.positionals };
}

/** A UsageError for `command` that ends with where its options are explained. */
export function usage(command: string, problem: string): UsageError {
  return new UsageError(`sandpiper ${command}: ${problem} (run "sandpiper ${command} --help" for the options)`);
}

/**
 * The service and key of a command: `--api-key`, else SANDPIPER_API_KEY; `--api-url`, else SANDPIPER_API_URL, else
 * http://localhost:3000. The key never appears in a message.
 * @throws UsageError when no key is given or the URL is not http(s).
 */
export function connection(command: string, values: { "api-key"?: string; "api-url"?: string }, env: Env): Connection {
  const apiKey = values["api-key"] || env.SANDPIPER_API_KEY;
  if (!apiKey) throw usage(command, "an API key is required: pass --api-key sk_sandbox_... or set SANDPIPER_API_KEY (also read from ./.env)");
  const apiUrl = (values["api-url"] || env.SANDPIPER_API_URL || DEFAULT_API_URL).replace(/\/+$/, "");
  if (!isHttpUrl(apiUrl)) throw usage(command, `--api-url must be an http:// or https:// URL, e.g. ${DEFAULT_API_URL}`);
  return { apiKey, apiUrl };
}

/** True for an absolute http:// or https:// URL. */
export function isHttpUrl(text: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/**
 * A whole number option between `min` and `max`, or undefined when absent.
 * @throws UsageError naming the option and its range.
 */
export function intOption(command: string, name: string, value: unknown, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d{1,9}$/.test(String(value)) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) throw usage(command, `--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id argument or option (a uuid).
 * @throws UsageError when it is missing or not a uuid.
 */
export function idArgument(command: string, what: string, value: string | undefined): string {
  if (!value) throw usage(command, `the ${what} is required, e.g. sandpiper ${command} 6f1c2d3e-...`);
  if (!UUID.test(value)) throw usage(command, `"${value}" is not ${what === "event id" ? "an" : "a"} ${what} (a uuid)`);
  return value.toLowerCase();
}

/** `value` when it is one of `choices`, with their type; undefined otherwise. */
export function choiceOf<const C extends readonly string[]>(choices: C, value: string | undefined): C[number] | undefined {
  return choices.find((choice) => choice === value);
}

/**
 * An event type argument or option.
 * @throws UsageError listing the types.
 */
export function eventType(command: string, value: string | undefined): EventType {
  if (!value) throw usage(command, `an event type is required: ${EVENT_TYPES.join(", ")}`);
  const type = choiceOf(EVENT_TYPES, value);
  if (!type) throw usage(command, `unknown event type "${value}": use ${EVENT_TYPES.join(", ")}`);
  return type;
}
