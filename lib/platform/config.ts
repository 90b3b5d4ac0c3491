// The service's configuration: every environment variable it reads, typed, bounded, defaulted and described in one
// zod schema, parsed once (docs/architecture.md "Layout"; docs/operating.md "Environment" lists the same variables, and
// test/unit/config.test.ts fails when the two disagree). docs/decisions/0152-one-configuration-module.md says why.
import ipaddr from "ipaddr.js";
import { z } from "zod";

/** `SERVICE_NAME` and any explicit callback header name fragment: letters and digits, single inner hyphens. */
export const SERVICE_NAME_PATTERN = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;
/** Shortest STORE_HANDOFF_SECRET accepted, in characters. */
export const MIN_HANDOFF_SECRET_LENGTH = 32;

/**
 * One variable: its zod schema (input: the raw string, or undefined when unset or empty; output: the typed value
 * with its default), what it accepts in words (the refusal's "expected ..."), and whether its value is a secret
 * (never printed).
 */
interface Variable<T> {
  schema: z.ZodType<T, string | undefined>;
  accepts: string;
  secret: boolean;
}

function variable<T>(schema: z.ZodType<T, string | undefined>, description: string, accepts: string, secret = false): Variable<T> {
  return { schema: schema.describe(description) as z.ZodType<T, string | undefined>, accepts, secret };
}

/**
 * A whole number from `min` to `max` (decimal digits only), `fallback` when unset. `unit` is what it counts, in the
 * plural ("a whole number of seconds from 1 to 86400"), or, starting with "a ", what it is ("a port number from 0 to 65535").
 */
function wholeNumber(min: number, max: number, fallback: number, unit: string, description: string): Variable<number> {
  const schema = z
    .string()
    .regex(/^\d{1,16}$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(fallback);
  return variable(schema, description, `${unit.startsWith("a ") ? unit : `a whole number of ${unit}`} from ${min} to ${max}`);
}

/** `1` (on) or `0` (off), `fallback` when unset. */
function flag(fallback: boolean, description: string): Variable<boolean> {
  return variable(
    z
      .enum(["0", "1"])
      .transform((v) => v === "1")
      .default(fallback),
    description,
    "1 (on) or 0 (off)",
  );
}

/** Text without control characters that passes `test`, optional; `secret` keeps it out of every message. */
function text(description: string, accepts: string, secret = false, test: (value: string) => boolean = () => true): Variable<string | undefined> {
  const schema = z.string().refine((value) => !/[\u0000-\u001f\u007f]/.test(value) && test(value));
  return variable(schema.optional(), description, accepts, secret);
}

/** Shortest NEXTAUTH_SECRET accepted, in bytes of UTF-8 (docs/operating.md "Environment"). */
export const MIN_AUTH_SECRET_BYTES = 32;
/** Shortest METRICS_TOKEN accepted, in bytes of UTF-8. */
export const MIN_METRICS_TOKEN_BYTES = 24;

/** A secret key: text without spaces of at least `minBytes` bytes (UTF-8), optional, never printed. */
function key(description: string, minBytes = 1): Variable<string | undefined> {
  const accepts = minBytes > 1 ? `a key without spaces of at least ${minBytes} bytes` : "a key without spaces";
  return text(description, accepts, true, (value) => !/\s/.test(value) && Buffer.byteLength(value, "utf8") >= minBytes);
}

/** True when every %-escape of `text` decodes (decodeURIComponent would not throw). */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * An absolute URL whose scheme is one of `schemes` (e.g. "https:"), optional. Its user, password and path must
 * decode (a `%` not followed by two hex digits is refused here, not met later as a stack trace).
 */
function url(schemes: string[], description: string, secret = false): Variable<string | undefined> {
  const parses = (value: string) => {
    if (!URL.canParse(value)) return false;
    const parsed = new URL(value);
    return schemes.includes(parsed.protocol) && [parsed.username, parsed.password, parsed.pathname].every(decodes);
  };
  return text(description, `an absolute ${schemes.map((s) => s.slice(0, -1)).join(" or ")} URL`, secret, parses);
}

/** One of `values`, optional. */
function oneOf<const V extends readonly [string, ...string[]]>(values: V, description: string): Variable<V[number] | undefined> {
  return variable(z.enum(values).optional(), description, `one of ${values.join(", ")}`);
}

function isIpAddress(entry: string): boolean {
  return ipaddr.isValid(entry) && !entry.includes("/");
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * Every environment variable of the service, in docs/operating.md "Environment" order. Each is read once, through
 * {@link config}; nothing in lib/ or app/ reads `process.env` for them.
 */
export const VARIABLES = {
  DATABASE_URL: url(["postgresql:", "postgres:"], "PostgreSQL connection string (npm start sets the embedded database's)", true),
  SANDPIPER_DATA_DIR: text(
    "the data folder: the embedded database (PGlite) and its credentials.txt, a production first start's seeded-credentials.txt, an earlier version's nextauth-secret; read by server.mjs",
    "a folder path without control characters",
  ),
  SANDPIPER_EMBEDDED: flag(false, "set by npm start when it serves the embedded database (one session: no prepared statements)"),
  PORT: wholeNumber(0, 65535, 3000, "a port number", "where the service listens (0: any free port)"),
  HOST: text("the address the service listens on (default 127.0.0.1); read by server.mjs", "a host name or IP address", false, (v) => !/\s/.test(v)),
  PUBLIC_BASE_URL: url(["http:", "https:"], "base of customer-facing links (default http://localhost:$PORT)"),
  TRUSTED_PROXIES: text("comma-separated proxy addresses whose X-Forwarded-For is read", "comma-separated IP addresses", false, (v) =>
    v.split(",").every((entry) => entry.trim() === "" || isIpAddress(entry.trim())),
  ),
  RATE_LIMIT_PER_KEY: wholeNumber(1, 1_000_000_000, 300, "requests", "API requests per rate-limit window per API key"),
  RATE_LIMIT_PER_IP: wholeNumber(1, 1_000_000_000, 600, "requests", "API requests per rate-limit window per source IP"),
  RATE_LIMIT_WINDOW_SECONDS: wholeNumber(1, 86_400, 60, "seconds", "the window of the two API rate limits"),
  CUSTOMER_RATE_LIMIT_PER_IP: wholeNumber(1, 1_000_000_000, 120, "actions", "customer page actions per minute per source IP"),
  CUSTOMER_RATE_LIMIT_PER_LINK: wholeNumber(1, 1_000_000_000, 30, "actions", "customer page actions per minute per checkout link"),
  CUSTOMER_RATE_LIMIT_WINDOW_SECONDS: wholeNumber(1, 86_400, 60, "seconds", "the window of the two customer page limits"),
  DB_POOL_MAX: wholeNumber(1, 1000, 10, "connections", "database connections of the pool"),
  JOBS_DB_POOL_MAX: wholeNumber(
    1,
    1000,
    2,
    "connections",
    "database connections of the background jobs, apart from the API's DB_POOL_MAX (embedded: both share the one session)",
  ),
  BACKGROUND_SHARE_PERCENT: wholeNumber(
    5,
    100,
    20,
    "percent",
    "the most of the time background batches (sweeps, callback deliveries, handoffs) take while requests are being answered; 100: no pause",
  ),
  DB_PREPARED_STATEMENTS: flag(true, "0 sends the hot paths' statements whole instead of preparing them once per connection"),
  // Job intervals (docs/architecture.md "Jobs"): the embedded driver reads them when it starts, the Inngest functions
  // when they are built, so under Inngest a changed value takes effect when the serving process restarts.
  EXPIRY_SWEEP_INTERVAL_MS: wholeNumber(50, 3_600_000, 30_000, "milliseconds", "expiry sweep period (both job drivers)"),
  DELIVERY_POLL_INTERVAL_MS: wholeNumber(50, MINUTE_MS, 1_000, "milliseconds", "how often the delivery catch-up job looks for due callback deliveries"),
  COUNT_COMPACT_INTERVAL_MS: wholeNumber(50, MINUTE_MS, 2_000, "milliseconds", "period of the job folding payment count changes"),
  STORE_HANDOFF_POLL_INTERVAL_MS: wholeNumber(50, MINUTE_MS, 1_000, "milliseconds", "how often the store handoff catch-up job looks for due store handoffs"),
  SCENARIO_POLL_INTERVAL_MS: wholeNumber(50, MINUTE_MS, 1_000, "milliseconds", "how often payments are concluded by scenario rules"),
  RISK_PRUNE_INTERVAL_MS: wholeNumber(1_000, DAY_MS, MINUTE_MS, "milliseconds", "how often ended velocity windows are pruned"),
  SEEDED_RATES_INTERVAL_MS: wholeNumber(1_000, DAY_MS, 3_600_000, "milliseconds", "how often the seeded sandbox's window of FX rates is extended"),
  FEED_POLL_INTERVAL_MS: wholeNumber(20, MINUTE_MS, 200, "milliseconds", "how often open event streams look for new events"),
  STORE_HANDOFF_SECRET: text(
    "key of the store handoff signature",
    `text of at least ${MIN_HANDOFF_SECRET_LENGTH} characters`,
    true,
    (v) => v.length >= MIN_HANDOFF_SECRET_LENGTH,
  ),
  JOBS_DISABLED: flag(false, "1 disables the embedded job driver"),
  INNGEST_EVENT_KEY: key("Inngest Cloud event key"),
  INNGEST_SIGNING_KEY: key("Inngest Cloud signing key"),
  INNGEST_DEV: text("1 or the URL of a local Inngest dev server", "1 or an absolute http or https URL", false, (v) => v === "1" || /^https?:\/\//.test(v)),
  SERVICE_NAME: variable(
    z.string().regex(SERVICE_NAME_PATTERN).default("Service"),
    "<Name> in the callback headers X-<Name>-Signature etc.",
    "letters and digits, optionally joined by single hyphens",
  ),
  CALLBACK_ALLOW_LOOPBACK: flag(false, "1 allows http loopback callback receivers (refused with NODE_ENV=production)"),
  LOG_LEVEL: variable(
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    "pino log level",
    "one of fatal, error, warn, info, debug, trace, silent",
  ),
  LOG_FORMAT: oneOf(["json", "pretty"], "json: one JSON line per log entry (default); pretty: readable lines for a terminal (pino-pretty)"),
  SHUTDOWN_DELAY_MS: wholeNumber(
    0,
    MINUTE_MS,
    0,
    "milliseconds",
    "after SIGTERM, how long /readyz answers 503 while the service still serves, before it stops taking connections",
  ),
  SHUTDOWN_DRAIN_MS: wholeNumber(1_000, 10 * MINUTE_MS, 10_000, "milliseconds", "after SIGTERM, how long in-flight requests may take to finish"),
  OTEL_EXPORTER_OTLP_ENDPOINT: url(
    ["http:", "https:"],
    "OpenTelemetry collector base URL; traces are sent over OTLP/HTTP to <url>/v1/traces (unset: no tracing)",
  ),
  METRICS_TOKEN: key("bearer token of GET /metrics (Prometheus); unset: no metrics are collected and /metrics is not served", MIN_METRICS_TOKEN_BYTES),
  NEXTAUTH_SECRET: key("signs and encrypts console session cookies and the listener's forward tokens; the same on every instance", MIN_AUTH_SECRET_BYTES),
  NEXTAUTH_URL: url(["http:", "https:"], "the console's public base URL; https:// makes session cookies Secure"),
  SANDPIPER_WORKERS: variable(
    z
      .union([
        z.literal("auto"),
        z
          .string()
          .regex(/^\d{1,2}$/)
          .transform(Number)
          .pipe(z.number().int().min(1).max(64)),
      ])
      .default(1),
    "server processes on one port; read by server.mjs",
    'a whole number of processes from 1 to 64, or "auto"',
  ),
  REDIS_URL: url(["redis:", "rediss:"], "Redis for the rate limits shared by every process and machine", true),
  REDIS_TIMEOUT_MS: wholeNumber(
    50,
    5_000,
    250,
    "milliseconds",
    "how long a Redis command may take before the request counts its rate limits in this process's memory instead",
  ),
  RATE_LIMIT_STORE: oneOf(["postgres"], "postgres: count rate limits in the database even with one worker"),
  REQUEST_LOG: flag(true, "0 stops recording API requests in the request log"),
  REQUEST_LOG_RETENTION_DAYS: wholeNumber(1, 3650, 14, "days", "days a logged API request is kept"),
  REQUEST_LOG_PRUNE_INTERVAL_MS: wholeNumber(1_000, DAY_MS, 600_000, "milliseconds", "how often the request log is pruned"),
  EVENT_RETENTION_DAYS: wholeNumber(1, 3650, 30, "days", "days an event is kept with its deliveries and their attempts once nothing is left to send"),
  EVENT_PRUNE_INTERVAL_MS: wholeNumber(1_000, DAY_MS, 600_000, "milliseconds", "how often old events, deliveries and attempts are pruned"),
  // Read by the seed only (prisma/seed.ts; docs/guides/operate-sandpiper.md "Seeded sandbox").
  SEED_CALLBACK_URL: url(["http:", "https:"], "the seeded merchant's callback address, checked by the address policy as a console save is (read by the seed)"),
  SEED_ALLOWED_IPS: variable(
    z
      .string()
      .refine((v) => v.split(",").every((entry) => entry.trim() === "" || isIpAddress(entry.trim())))
      .transform((v) =>
        v
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .default(["127.0.0.1", "::1"]),
    "the seeded merchants' server IP allow-list (read by the seed)",
    "comma-separated IP addresses",
  ),
} satisfies Record<string, Variable<unknown>>;

/** The names of every variable of the schema. */
export type VariableName = keyof typeof VARIABLES;
/** The typed configuration: one member per variable, its default filled in. */
export type Config = { readonly [K in VariableName]: (typeof VARIABLES)[K] extends Variable<infer T> ? T : never };

/** A refused environment: `lines` has one line per refused variable (a secret's value never in it). */
export class ConfigError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join("\n"));
    this.name = "ConfigError";
  }
}

const NAMES = Object.keys(VARIABLES) as VariableName[];

/** The refusal line of one variable: `NAME: got "value"; expected <accepts>` (a secret: no value). */
function refusal(name: VariableName, value: string): string {
  const spec: Variable<unknown> = VARIABLES[name];
  const got = spec.secret ? "got an invalid value (not shown: it is a secret)" : `got ${JSON.stringify(value)}`;
  return `${name}: ${got}; expected ${spec.accepts}`;
}

/**
 * Parses the configuration from `env` (empty values count as unset).
 * @param env the environment, e.g. `process.env`.
 * @returns the typed {@link Config}.
 * @throws ConfigError with one line per refused variable, in schema order.
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const values: Record<string, unknown> = {};
  const lines: string[] = [];
  for (const name of NAMES) {
    const raw = env[name] === "" ? undefined : env[name];
    const parsed = (VARIABLES[name].schema as z.ZodType<unknown, string | undefined>).safeParse(raw);
    if (parsed.success) values[name] = parsed.data;
    else lines.push(refusal(name, raw ?? ""));
  }
  if (lines.length === 0) lines.push(...COMBINATIONS.flatMap((rule) => rule(values as Config, env.NODE_ENV) ?? []));
  if (lines.length > 0) throw new ConfigError(lines);
  return values as Config;
}

/**
 * Settings that each variable accepts alone but that are unsafe or silently off together (docs/operating.md
 * "Refused settings"): each rule gives its refusal line, or null. `nodeEnv` is NODE_ENV as the start sees it.
 */
const COMBINATIONS: ReadonlyArray<(c: Config, nodeEnv: string | undefined) => string | null> = [
  (c, nodeEnv) =>
    c.INNGEST_DEV !== undefined && nodeEnv === "production"
      ? "INNGEST_DEV: refused with NODE_ENV=production (/api/inngest would run job steps for anyone, without credentials); set INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY instead, or neither for the embedded job driver"
      : null,
  (c) =>
    c.INNGEST_DEV === undefined && (c.INNGEST_EVENT_KEY === undefined) !== (c.INNGEST_SIGNING_KEY === undefined)
      ? `${c.INNGEST_EVENT_KEY === undefined ? "INNGEST_SIGNING_KEY: set without INNGEST_EVENT_KEY (no job would be announced)" : "INNGEST_EVENT_KEY: set without INNGEST_SIGNING_KEY (Inngest could not call /api/inngest, and no background job would run)"}; set both, or neither for the embedded job driver`
      : null,
];

// Read once: the first call parses process.env and every later call returns that result. Under vitest, where a test
// changes a variable for itself (vi.stubEnv, process.env.X = ...), the result is kept per snapshot of the variables'
// values instead, so the change applies at the next call (about 10 microseconds a call: tests only).
const perSnapshot = Boolean(process.env.VITEST);
let cached: { key: string; config: Config } | undefined;

function snapshotKey(): string {
  return perSnapshot ? NAMES.map((name) => process.env[name] ?? "").join("\u0000") : "";
}

/**
 * The service's configuration, parsed from process.env on first use (docs/architecture.md "Layout").
 * @returns the typed {@link Config}.
 * @throws ConfigError when a variable is refused (the service start calls {@link configOrExit} first, so a running
 *   service never throws here).
 */
export function config(): Config {
  const key = snapshotKey();
  if (cached?.key !== key) cached = { key, config: parseConfig(process.env) };
  return cached.config;
}

/**
 * Parses the configuration at the start of the service; a refused variable ends the process with exit code 1 after
 * one line per refused variable on stderr (`Sandpiper refuses to start: NAME: got "value"; expected ...`), no stack.
 * @param env when given, this environment is parsed now and nothing is kept: for server.mjs and the start scripts,
 *   which change process.env as they start (the data folder's NEXTAUTH_SECRET, the embedded database's variables);
 *   without it, {@link config}'s one reading.
 * @param lead what each line starts with, for a command that is not the start (the seed: "npm run seed refused").
 * @returns the typed {@link Config} when every variable is accepted.
 */
export function configOrExit(env?: Record<string, string | undefined>, lead = "Sandpiper refuses to start"): Config {
  try {
    return env ? parseConfig(env) : config();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const line of error.lines) console.error(`${lead}: ${line}`);
    process.exit(1);
  }
}
