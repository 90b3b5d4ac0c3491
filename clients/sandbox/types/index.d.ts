// Types of @sandpiper/sandbox (docs/guides/test-in-your-own-suite.md).
import type { SandpiperClient } from "../../typescript/src/index";

export type { SandpiperClient };

/** Options of {@link startSandpiper}; any other member is refused with a TypeError. */
export type SandboxOptions = {
  /**
   * The seeded merchant's callback address: an http or https URL, a receiver on this machine (`http://127.0.0.1:...`)
   * allowed. Callbacks are signed with {@link Sandbox.callbackSecret} and retried as the service does. Default: none.
   */
  callbackUrl?: string;
  /** The port on 127.0.0.1; 0 (the default) takes a free one. */
  port?: number;
  /** `"standard"` switches the standard scenario rules on (amount 13.13 fails, reference `ok-` succeeds, ...); default `"none"`. */
  scenarioRules?: "standard" | "none";
  /** Fast callback retries (the schedule divided by 60): on unless `false`. */
  fastRetries?: boolean;
  /** The service's log level (its JSON log lines go to this process's stderr); default `"warn"`. */
  logLevel?: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /**
   * How long the start may take, in milliseconds (a whole number from 1000), counted from when its turn comes (at most
   * as many sandboxes of one process start at once as the machine has cores); default 60000.
   */
  startTimeoutMs?: number;
};

/** Options of {@link Sandbox.merchant}: those of {@link SandboxOptions} that belong to a merchant; any other member is refused with a TypeError. */
export type MerchantOptions = Pick<SandboxOptions, "callbackUrl" | "scenarioRules" | "fastRetries">;

/** The clock of one merchant's sandbox time. */
export interface SandboxClock {
  /**
   * Moves the merchant's sandbox clock ahead by `by` (milliseconds, a whole number of seconds, or a duration such as
   * `"2h"`, `"72h"`, `"35d"`), and resolves once what the move made due is done: payments and checkout sessions
   * expired, their callbacks queued. Throws after the sandbox's stop().
   */
  advance(by: number | string): Promise<void>;
  /** Back to the real clock. Throws after the sandbox's stop(). */
  reset(): Promise<void>;
}

/** A merchant made for one test by {@link Sandbox.merchant}: nothing of it is shared with another merchant. */
export interface SandboxMerchant {
  readonly merchantId: string;
  /** Its key with every scope (`keys.full`). */
  readonly apiKey: string;
  /** Its keys: `full` (every scope) and `readOnly` (payments:read). */
  readonly keys: { full: string; readOnly: string };
  /** The `whsec_...` secret its callbacks are signed with; null without a `callbackUrl`. */
  readonly callbackSecret: string | null;
  /** The typed client, pointed at the sandbox with `apiKey`. */
  readonly client: SandpiperClient;
  /** This merchant's sandbox clock. */
  readonly clock: SandboxClock;
}

/** A seeded console user. */
export type ConsoleUser = { username: string; password: string };

/** The API keys the seed made, by what they may do (`full` has every scope). */
export type SandboxKeys = { full: string; readOnly: string; secondMerchant: string; amountEntry: string };

/** A running sandbox: the service on a port of its own, with a database of its own. */
export interface Sandbox {
  /** Base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The seeded merchant's key with every scope (`keys.full`). */
  readonly apiKey: string;
  readonly keys: SandboxKeys;
  /** The seeded merchant (the one `apiKey` belongs to). */
  readonly merchantId: string;
  /** The `whsec_...` secret that signs callbacks to `callbackUrl` (Standard Webhooks); null without a `callbackUrl`. */
  readonly callbackSecret: string | null;
  /** The typed client of `@sandpiper/client`, pointed at `url` with `apiKey`. */
  readonly client: SandpiperClient;
  /** The console's URL and the seeded console users (`operator`, `merchant`, `approver`, `second`, `amountEntry`). */
  readonly console: { url: string; users: Record<string, ConsoleUser> };
  /** The seeded merchant's sandbox clock. */
  readonly clock: SandboxClock;
  /** The bearer token of `POST <url>/v1/sandbox/merchants` (other languages make merchants with it); new at each start. */
  readonly sandboxToken: string;
  /**
   * Makes a new merchant in this sandbox, as the seeded one is made (keys of every scope, the USD gateway-deposit
   * pricing), with its own payments, events, deliveries, request log, sandbox clock, scenario rules and settings: a
   * merchant per test. Takes milliseconds.
   * @throws TypeError for an unknown option or a value it does not take; Error after stop()
   */
  merchant(options?: MerchantOptions): Promise<SandboxMerchant>;
  /**
   * Back to the state right after the start: no payments, events, deliveries or request log, no merchant made by
   * {@link Sandbox.merchant}; rules, clock, keys and secrets as started. Throws after stop().
   */
  reset(): Promise<void>;
  /** Stops the sandbox: its process ends and its ports close. */
  stop(): Promise<void>;
}

/** What another process or worker needs to make merchants in a running sandbox: its `url` and `sandboxToken` (plain data, e.g. for vitest's provide/inject). */
export type SandboxConnection = { url: string; sandboxToken: string };

/**
 * Makes a merchant in the running sandbox `sandbox` (its `url` and `sandboxToken`), as {@link Sandbox.merchant} does,
 * from any process or worker: a vitest `globalSetup` starts the sandbox and provides these two, each test file makes
 * its merchants with them (docs/guides/test-in-your-own-suite.md "One sandbox for the run in vitest").
 * @throws TypeError for an unknown option or a value it does not take, or a `sandbox` without `url` and `sandboxToken`;
 *   Error when the sandbox does not answer or refuses
 */
export declare function newMerchant(sandbox: SandboxConnection, options?: MerchantOptions): Promise<SandboxMerchant>;

/** Starts a sandbox and resolves once it serves. @throws TypeError for an option it does not know or a value it does not take. */
export declare function startSandpiper(options?: SandboxOptions): Promise<Sandbox>;
