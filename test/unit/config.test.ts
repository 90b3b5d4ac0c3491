// lib/platform/config.ts: the schema refuses a bad value of every variable with its one line, fills the defaults, and agrees
// with docs/operating.md "Environment" (docs/architecture.md "Layout").
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { config, ConfigError, parseConfig, VARIABLES, type VariableName } from "@/lib/platform/config";
import { assertPresent } from "../../scripts/harness/present";

/** A value each variable must refuse (typed: a variable added to the schema needs one here). */
const BAD: Record<VariableName, string> = {
  DATABASE_URL: "mysql://user:hunter2@db/sandpiper",
  SANDPIPER_DATA_DIR: "data\ndir",
  SANDPIPER_EMBEDDED: "yes",
  PORT: "65536",
  HOST: "local host",
  PUBLIC_BASE_URL: "sandbox.example.com",
  TRUSTED_PROXIES: "127.0.0.1,proxy.internal",
  RATE_LIMIT_PER_KEY: "0",
  RATE_LIMIT_PER_IP: "1e3",
  RATE_LIMIT_WINDOW_SECONDS: "86401",
  CUSTOMER_RATE_LIMIT_PER_IP: "-5",
  CUSTOMER_RATE_LIMIT_PER_LINK: "30.5",
  CUSTOMER_RATE_LIMIT_WINDOW_SECONDS: "0",
  DB_POOL_MAX: "0",
  JOBS_DB_POOL_MAX: "0",
  BACKGROUND_SHARE_PERCENT: "4",
  DB_PREPARED_STATEMENTS: "false",
  EXPIRY_SWEEP_INTERVAL_MS: "10",
  DELIVERY_POLL_INTERVAL_MS: "abc",
  COUNT_COMPACT_INTERVAL_MS: "60001",
  STORE_HANDOFF_POLL_INTERVAL_MS: " 1000",
  SCENARIO_POLL_INTERVAL_MS: "0x10",
  RISK_PRUNE_INTERVAL_MS: "999",
  SEEDED_RATES_INTERVAL_MS: "999",
  FEED_POLL_INTERVAL_MS: "19",
  STORE_HANDOFF_SECRET: "short-secret-value",
  JOBS_DISABLED: "true",
  INNGEST_EVENT_KEY: "event key",
  INNGEST_SIGNING_KEY: "signkey-prod 123",
  INNGEST_DEV: "yes",
  SERVICE_NAME: "My_Service",
  CALLBACK_ALLOW_LOOPBACK: "on",
  LOG_LEVEL: "verbose",
  LOG_FORMAT: "colour",
  SHUTDOWN_DELAY_MS: "60001",
  SHUTDOWN_DRAIN_MS: "999",
  METRICS_TOKEN: "two words",
  OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318",
  NEXTAUTH_SECRET: "secret with spaces",
  NEXTAUTH_URL: "ftp://console.example.com",
  SANDPIPER_WORKERS: "65",
  REDIS_URL: "http://:pa55word@redis:6379",
  REDIS_TIMEOUT_MS: "49",
  RATE_LIMIT_STORE: "redis",
  REQUEST_LOG: "off",
  REQUEST_LOG_RETENTION_DAYS: "3651",
  REQUEST_LOG_PRUNE_INTERVAL_MS: "NaN",
  EVENT_RETENTION_DAYS: "0",
  EVENT_PRUNE_INTERVAL_MS: "999",
  SEED_CALLBACK_URL: "receiver.example.com/callbacks",
  SEED_ALLOWED_IPS: "127.0.0.1,localhost",
};

/** The refusal lines of `env`, or [] when it is accepted. */
function refusals(env: Record<string, string>): string[] {
  try {
    parseConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.lines;
    throw error;
  }
}

describe("a bad value of each variable is refused with one line", () => {
  it.each(Object.keys(VARIABLES) as VariableName[])("%s", (name) => {
    const value = BAD[name];
    const lines = refusals({ [name]: value });
    expect(lines).toHaveLength(1);
    const { accepts, secret } = VARIABLES[name];
    if (secret) {
      expect(lines[0]).toBe(`${name}: got an invalid value (not shown: it is a secret); expected ${accepts}`);
      expect(lines[0]).not.toContain(value);
    } else {
      expect(lines[0]).toBe(`${name}: got ${JSON.stringify(value)}; expected ${accepts}`);
    }
    expect(lines[0]).not.toContain("\n");
  });

  it("names the bounds in words, e.g. the delivery poll", () => {
    expect(refusals({ DELIVERY_POLL_INTERVAL_MS: "abc" })).toEqual([
      'DELIVERY_POLL_INTERVAL_MS: got "abc"; expected a whole number of milliseconds from 50 to 60000',
    ]);
  });

  it("gives one line per refused variable, in schema order", () => {
    expect(refusals({ LOG_LEVEL: "loud", PORT: "x" }).map((line) => line.split(":")[0])).toEqual(["PORT", "LOG_LEVEL"]);
  });
});

describe("accepted values and defaults", () => {
  it("fills every default when nothing is set, and empty counts as unset", () => {
    const defaults = parseConfig({});
    expect(parseConfig(Object.fromEntries(Object.keys(VARIABLES).map((name) => [name, ""])))).toEqual(defaults);
    expect(defaults).toMatchObject({
      PORT: 3000,
      RATE_LIMIT_PER_KEY: 300,
      RATE_LIMIT_PER_IP: 600,
      RATE_LIMIT_WINDOW_SECONDS: 60,
      CUSTOMER_RATE_LIMIT_PER_IP: 120,
      CUSTOMER_RATE_LIMIT_PER_LINK: 30,
      CUSTOMER_RATE_LIMIT_WINDOW_SECONDS: 60,
      DB_POOL_MAX: 10,
      JOBS_DB_POOL_MAX: 2,
      BACKGROUND_SHARE_PERCENT: 20,
      DB_PREPARED_STATEMENTS: true,
      EXPIRY_SWEEP_INTERVAL_MS: 30_000,
      DELIVERY_POLL_INTERVAL_MS: 1_000,
      COUNT_COMPACT_INTERVAL_MS: 2_000,
      STORE_HANDOFF_POLL_INTERVAL_MS: 1_000,
      SCENARIO_POLL_INTERVAL_MS: 1_000,
      RISK_PRUNE_INTERVAL_MS: 60_000,
      FEED_POLL_INTERVAL_MS: 200,
      REQUEST_LOG_PRUNE_INTERVAL_MS: 600_000,
      REQUEST_LOG_RETENTION_DAYS: 14,
      EVENT_RETENTION_DAYS: 30,
      EVENT_PRUNE_INTERVAL_MS: 600_000,
      SEEDED_RATES_INTERVAL_MS: 3_600_000,
      REQUEST_LOG: true,
      JOBS_DISABLED: false,
      CALLBACK_ALLOW_LOOPBACK: false,
      SANDPIPER_EMBEDDED: false,
      SANDPIPER_WORKERS: 1,
      SERVICE_NAME: "Service",
      LOG_LEVEL: "info",
      LOG_FORMAT: undefined,
      SHUTDOWN_DELAY_MS: 0,
      SHUTDOWN_DRAIN_MS: 10_000,
      DATABASE_URL: undefined,
      TRUSTED_PROXIES: undefined,
      SEED_CALLBACK_URL: undefined,
      SEED_ALLOWED_IPS: ["127.0.0.1", "::1"],
    });
  });

  it("reads the seed's variables: the allow-list as a list of addresses, the callback address as given", () => {
    expect(parseConfig({ SEED_ALLOWED_IPS: "203.0.113.7, ::ffff:198.51.100.9,," })).toMatchObject({ SEED_ALLOWED_IPS: ["203.0.113.7", "::ffff:198.51.100.9"] });
    expect(parseConfig({ SEED_CALLBACK_URL: "http://127.0.0.1:4321/cb" }).SEED_CALLBACK_URL).toBe("http://127.0.0.1:4321/cb");
    expect(refusals({ SEED_ALLOWED_IPS: "10.0.0.0/8" })).toEqual(['SEED_ALLOWED_IPS: got "10.0.0.0/8"; expected comma-separated IP addresses']);
  });

  it("refuses a DATABASE_URL whose user, password or database name does not decode, never printing it", () => {
    for (const bad of ["postgresql://us%zzer@db/sandpiper", "postgresql://user:pa%ss@db/sandpiper", "postgres://db/sand%piper"]) {
      expect(refusals({ DATABASE_URL: bad }), bad).toEqual([
        "DATABASE_URL: got an invalid value (not shown: it is a secret); expected an absolute postgresql or postgres URL",
      ]);
    }
    expect(parseConfig({ DATABASE_URL: "postgresql://user:p%40ss@db:5433/sandpiper" }).DATABASE_URL).toBe("postgresql://user:p%40ss@db:5433/sandpiper");
  });

  it("accepts the values the tests and README use", () => {
    const env = {
      DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/sandpiper_it",
      PORT: "0",
      TRUSTED_PROXIES: "127.0.0.1,::1",
      RATE_LIMIT_PER_KEY: "100000000",
      DELIVERY_POLL_INTERVAL_MS: "200",
      SANDPIPER_WORKERS: "auto",
      INNGEST_DEV: "http://127.0.0.1:8288",
      REDIS_URL: "redis://127.0.0.1:6379",
      STORE_HANDOFF_SECRET: "x".repeat(32),
    };
    expect(parseConfig(env)).toMatchObject({ PORT: 0, RATE_LIMIT_PER_KEY: 100_000_000, DELIVERY_POLL_INTERVAL_MS: 200, SANDPIPER_WORKERS: "auto" });
  });
});

describe("secrets too short and settings unsafe together are refused with one line", () => {
  it("NEXTAUTH_SECRET under 32 bytes and METRICS_TOKEN under 24, never printed", () => {
    expect(refusals({ NEXTAUTH_SECRET: "short" })).toEqual([
      "NEXTAUTH_SECRET: got an invalid value (not shown: it is a secret); expected a key without spaces of at least 32 bytes",
    ]);
    expect(refusals({ NEXTAUTH_SECRET: "x".repeat(31) })).toHaveLength(1);
    expect(refusals({ NEXTAUTH_SECRET: "x".repeat(32) })).toEqual([]);
    expect(refusals({ METRICS_TOKEN: "x" })).toEqual([
      "METRICS_TOKEN: got an invalid value (not shown: it is a secret); expected a key without spaces of at least 24 bytes",
    ]);
    expect(refusals({ METRICS_TOKEN: "x".repeat(23) })).toHaveLength(1);
    expect(refusals({ METRICS_TOKEN: "x".repeat(24) })).toEqual([]);
  });

  it("INNGEST_DEV under NODE_ENV=production; an Inngest event key without a signing key, or the reverse", () => {
    expect(refusals({ NODE_ENV: "production", INNGEST_DEV: "1" })).toEqual([
      "INNGEST_DEV: refused with NODE_ENV=production (/api/inngest would run job steps for anyone, without credentials); set INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY instead, or neither for the embedded job driver",
    ]);
    expect(refusals({ NODE_ENV: "development", INNGEST_DEV: "1" })).toEqual([]);
    expect(refusals({ NODE_ENV: "production", INNGEST_EVENT_KEY: "evt" })).toEqual([
      "INNGEST_EVENT_KEY: set without INNGEST_SIGNING_KEY (Inngest could not call /api/inngest, and no background job would run); set both, or neither for the embedded job driver",
    ]);
    expect(refusals({ INNGEST_SIGNING_KEY: "signkey-prod-123" })).toEqual([
      "INNGEST_SIGNING_KEY: set without INNGEST_EVENT_KEY (no job would be announced); set both, or neither for the embedded job driver",
    ]);
    expect(refusals({ NODE_ENV: "production", INNGEST_EVENT_KEY: "evt", INNGEST_SIGNING_KEY: "signkey-prod-123" })).toEqual([]);
    expect(refusals({ INNGEST_DEV: "http://127.0.0.1:8288", INNGEST_EVENT_KEY: "evt" })).toEqual([]);
  });
});

describe("config() under vitest", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("sees a variable a test changes, at the next call", () => {
    vi.stubEnv("SERVICE_NAME", "Sandpiper");
    expect(config().SERVICE_NAME).toBe("Sandpiper");
    vi.stubEnv("SERVICE_NAME", "");
    expect(config().SERVICE_NAME).toBe("Service");
  });
});

describe('docs/operating.md "Environment" and the schema list the same variables', () => {
  it("agree", () => {
    const doc = readFileSync(path.resolve(__dirname, "../../docs/operating.md"), "utf8");
    const start = doc.indexOf("\n## Environment\n");
    expect(start, 'docs/operating.md has a section "Environment"').toBeGreaterThan(0);
    const end = doc.indexOf("\n## ", start + 1);
    const section = doc.slice(start, end < 0 ? undefined : end);
    // The service's table: the first table of the section (a second one lists the tests' own variables).
    const table = section.slice(section.indexOf("\n|")).split("\n\n")[0];
    assertPresent(table, "table");
    const documented = table
      .split("\n")
      .slice(2)
      .flatMap((row) => [...(row.split("|")[1] ?? "").matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1] ?? ""));
    const schema = Object.keys(VARIABLES);
    expect({ missingFromDocs: schema.filter((n) => !documented.includes(n)), missingFromSchema: documented.filter((n) => !schema.includes(n)) }).toEqual({
      missingFromDocs: [],
      missingFromSchema: [],
    });
  });
});
