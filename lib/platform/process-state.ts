// Everything one process of the service holds for its whole life beside its modules: the one list of its singletons
// (docs/architecture.md "Per-process state"). Next.js bundles route code into several module instances (a route
// handler, a Server Action, instrumentation.ts and the jobs may each load their own copy of a lib/ module), so a
// module-level variable would be one per instance: two Prisma clients, two job drivers, a wake-up sent to a driver
// that does not listen. The state therefore hangs off globalThis, which every instance shares, through the one typed
// global below; server.mjs and lib/platform/tracing/pg-instrumentation.mjs (plain JavaScript) use the same object.
// This module imports no other module of the service (only library types), so every folder of lib/ may use it.
import type pg from "pg";
import type { Redis } from "ioredis";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type { PrismaClient } from "@/lib/platform/generated/prisma/client";

/** A database pool and the Prisma client on it (lib/platform/db.ts), each made on first use. */
export type PoolSlot = { pool?: pg.Pool; prisma?: PrismaClient };

/** What the embedded job driver knows of one polling job: its interval, the end of its last run, whether one runs now. */
export type JobState = { id: string; intervalMs: number; lastRunAt: Date; running: Promise<void> | null };

/** The console sign-in budgets (lib/domain/users/sign-in.ts): by name and address, by name, by address. */
export type SignInLimiters = { byNameAndIp: RateLimiterAbstract; byName: RateLimiterAbstract; byIp: RateLimiterAbstract };

/**
 * The types of the slots whose shape belongs to the module that fills them, added there with
 * `declare module "@/lib/platform/process-state" { interface OwnedSlotTypes { ... } }`, so that this module imports nothing
 * above it (a type import counts in test/unit/layers.test.ts): `catalog` (lib/simulators/test-store/catalog-cache.ts) and
 * `metrics` (lib/platform/metrics/metrics.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging in the owning modules
export interface OwnedSlotTypes {}

/**
 * Every singleton a process holds, each made on first use (undefined until then). Each is process-wide because
 * Next.js may load its module several times in one process (see the header): one per instance would be wrong.
 */
export interface ProcessState {
  /** The API's and the jobs' database pools and Prisma clients (lib/platform/db.ts): one pool each per process, or connections multiply with the module instances. */
  db?: { api: PoolSlot; jobs: PoolSlot };
  /** The embedded job driver's timers (lib/application/jobs/driver.ts): set once it runs, so exactly one driver runs per process. */
  jobDriver?: NodeJS.Timeout[];
  /** The embedded driver's polling jobs (lib/application/jobs/driver.ts), read by /readyz (lib/application/health) for each job's lag. */
  jobStates?: JobState[];
  /** Resolves when no job run is under way (lib/application/jobs/driver.ts); server.mjs awaits it while it drains (docs/operating.md "Stopping"). */
  jobsIdle?: () => Promise<void>;
  /** Set by server.mjs on SIGTERM: no job run starts, event streams end, /readyz answers 503 (docs/operating.md "Stopping"). */
  shuttingDown?: boolean;
  /**
   * Set by instrumentation.ts once the start-up it runs (configuration check, tracing, the seeded FX rates, the job driver)
   * has ended; until then the hot routes leave every request to Next.js, which awaits that start-up
   * (lib/application/http/direct-routes.mjs).
   */
  startedUp?: boolean;
  /** Set by server.mjs: requests it is answering now, event streams aside (lib/platform/background.ts paces background batches by it). */
  requestsInFlight?: () => number;
  /**
   * When the next background batch of this process may start (`performance.now()` milliseconds): every job's batches
   * share this one budget (lib/platform/background.ts), so two jobs at work together take one share, not two.
   */
  backgroundResumeAt?: number;
  /**
   * Request bodies the hot routes (lib/application/http/direct-routes.mjs) have read, by the Request they made without a
   * body stream: the pipeline's body reader (lib/application/http/body.ts) takes them from here.
   */
  requestBodies?: WeakMap<Request, Buffer>;
  /**
   * The JSON text of the API's answers by their Response (lib/application/http/respond.ts), so the hot routes
   * (lib/application/http/direct-routes.mjs) write the text without reading the Response's body stream back.
   */
  responseTexts?: WeakMap<Response, string>;
  /**
   * The sandbox clock offsets (milliseconds) last seen per API key whose merchant's clock is moved, by a SHA-256 of the
   * key's header (lib/application/http/pipeline.ts): the reads of a request are built at that time in its first statement.
   */
  clockOffsetByKey?: Map<string, bigint>;
  /** The wake-ups of this process's catch-up jobs by name (lib/domain/notify/wake.ts): a route handler's instance wakes the driver's. */
  wake?: Map<string, () => void>;
  /** The console sign-in budgets (lib/domain/users/sign-in.ts): one limiter set, or each module instance would count apart. */
  signInLimiters?: SignInLimiters;
  /** The sign-in attempts waiting their turn by user name (lib/domain/users/sign-in.ts): one queue per name across instances. */
  signInQueues?: Map<string, Promise<void>>;
  /** The untrusted proxies already warned about (lib/domain/auth/ip.ts): one log line per address per process. */
  untrustedProxiesWarned?: Set<string>;
  /** The tracer provider once tracing started (lib/platform/tracing/tracing.ts); server.mjs flushes it on the way out. */
  tracing?: { shutdown(): Promise<void> };
  /** Whether the pg instrumentation is registered (lib/platform/tracing/pg-instrumentation.mjs): it patches `pg` once per process. */
  pgInstrumentation?: boolean;
  /** The Prometheus metrics (lib/platform/metrics/metrics.ts) on prom-client's global registry, where a second set would clash by name. */
  metrics?: OwnedSlotTypes["metrics"];
  /** The Redis client of the rate limits (lib/platform/rate-limits/store.ts): one connection per process. */
  redis?: Redis;
  /** Whether Redis answered last (lib/platform/rate-limits/store.ts): a change is logged once per process, not once per instance. */
  redisAnswers?: boolean;
  /** Whether the rate limits' store was logged (lib/platform/rate-limits/store.ts): once per process. */
  limiterLogged?: boolean;
  /** The event streams waiting for a new event (lib/domain/events/feed-notify.ts), woken by one poll of the feed's head per process. */
  feedWaiters?: Set<() => void>;
  /** That one poll's timer (lib/domain/events/feed-notify.ts), null while no stream waits. */
  feedPoll?: NodeJS.Timeout | null;
  /** The feed's head as the poll last read it (lib/domain/events/feed-notify.ts). */
  feedHead?: bigint;
  /** The key of this process's listener forward tokens (lib/domain/events/forward-token.ts): a token made by one instance is checked by another. */
  forwardKey?: Buffer;
  /** The store handoff signing key read from the database (lib/simulators/test-store/handoff-signing.ts), cached for the process. */
  handoffKey?: Buffer;
  /** The prepared matching index of the store's catalog (lib/simulators/test-store/catalog-cache.ts): built once per catalog version, not per instance. */
  catalog?: OwnedSlotTypes["catalog"];
  /** The password hash of console users made without a password (lib/domain/users/create-console-user.ts): one argon2 hash per process. */
  noPasswordHash?: Promise<string>;
  /**
   * The bearer token of POST /v1/sandbox/merchants (lib/application/http/sandbox-token.ts), set only by the
   * @sandpiper/sandbox package's process before it starts the service (clients/sandbox/src/child.ts); in every other
   * start it is absent and the route answers 404 as an unknown one (docs/guides/test-in-your-own-suite.md "A merchant per test").
   */
  sandboxToken?: string;
  /**
   * Set while the sandbox package's reset() empties the tables (clients/sandbox/src/child.ts): the embedded job driver
   * starts no run (lib/application/jobs/driver.ts), so none records work on rows the reset removes.
   */
  jobsPaused?: boolean;
  /** The readiness last logged (lib/application/health/readiness.ts): a change is logged once per process. */
  readiness?: string;
}

declare global {
  /** This process's {@link ProcessState}; read and written only through {@link processState} (and by server.mjs). */
  var __sandpiper: ProcessState | undefined;
}

/**
 * This process's state (see {@link ProcessState}), the same object in every module instance Next.js makes; created
 * empty on first use. A slot is filled by the module that owns it, e.g. `processState().wake ??= new Map()`.
 */
export function processState(): ProcessState {
  return (globalThis.__sandpiper ??= {});
}
