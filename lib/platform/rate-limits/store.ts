// Where rate limits and other shared budgets are counted, and the limiter every one of them is built with (docs/guides/operate-sandpiper.md
// "Running more than one process"): the API's and the customer pages' limits (lib/application/http/rate-limit.ts), the event
// stream places, and console sign-in (lib/domain/users/sign-in.ts).
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getPool } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { config, type Config } from "@/lib/platform/config";
import { observeDependency } from "@/lib/platform/metrics/metrics";
import { processState } from "@/lib/platform/process-state";

/**
 * Where request budgets are counted (docs/guides/operate-sandpiper.md "Running more than one process"):
 * - "redis" when REDIS_URL is set: one budget across every process and machine;
 * - "postgres" when SANDPIPER_WORKERS is above 1 or RATE_LIMIT_STORE=postgres: one budget across every process
 *   on the database (table rate_limits);
 * - "memory" otherwise: one process (the embedded install, a single instance).
 */
export type RateLimitStore = "redis" | "postgres" | "memory";

export function rateLimitStore(settings: Pick<Config, "REDIS_URL" | "RATE_LIMIT_STORE" | "SANDPIPER_WORKERS"> = config()): RateLimitStore {
  if (settings.REDIS_URL) return "redis";
  if (settings.RATE_LIMIT_STORE === "postgres" || settings.SANDPIPER_WORKERS === "auto" || settings.SANDPIPER_WORKERS > 1) return "postgres";
  return "memory";
}

/** How long a connection to Redis may take before it counts as failed, in milliseconds. */
export const REDIS_CONNECT_TIMEOUT_MS = 2_000;

const shared = processState();

/**
 * Records whether Redis answers (`up`), on a change only: one log line (down: a warning with the reason; back: info)
 * and the metric `sandpiper_dependency_up{dependency="redis"}` (docs/operating.md "Metrics").
 */
function redisAnswers(up: boolean, reason?: string): void {
  if (shared.redisAnswers === up) return;
  const before = shared.redisAnswers;
  shared.redisAnswers = up;
  observeDependency("redis", up);
  if (up) log.info("rate-limit store (redis) answers: rate limits are shared again");
  else if (before !== undefined || reason)
    log.warn(
      { err: reason },
      "rate-limit store (redis) does not answer: rate limits are counted in this process's memory meanwhile, and /readyz answers degraded",
    );
}

/**
 * The process's one Redis client (REDIS_URL), connected on first use; null when REDIS_URL is not set. Every command is
 * bounded by REDIS_TIMEOUT_MS (docs/operating.md "Scaling"): one that gets no answer in time fails, and so does the
 * connection (a Redis that hangs, as a stopped process or a network partition looks, is dropped and dialled again),
 * so the rate limits count in memory instead, as when Redis refuses connections.
 * - Until its first connection is made, commands wait for it (at most REDIS_TIMEOUT_MS each), so a worker's first
 *   requests and sign-ins count in the shared budget and not in this process's memory. A Redis that refuses, or does
 *   not answer within REDIS_CONNECT_TIMEOUT_MS, fails those commands: they count in memory.
 * - Once connected, commands fail at once while it is disconnected (no offline queue): the rate limits count in
 *   memory meanwhile, an outage never holds a request for longer than REDIS_TIMEOUT_MS, and /readyz says so.
 */
export function sharedRedis(): Redis | null {
  const { REDIS_URL: url, REDIS_TIMEOUT_MS: timeout } = config();
  if (!url) return null;
  if (!shared.redis) {
    const client = new Redis(url, {
      enableOfflineQueue: true,
      // A lost connection fails every command waiting on it at once (none is sent again on the next one: each has
      // been counted in memory), so a request waits for one stall at most, never one per command.
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      lazyConnect: false,
      connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
      commandTimeout: timeout,
      socketTimeout: timeout,
    });
    client.once("ready", () => {
      client.options.enableOfflineQueue = false;
    });
    client.on("ready", () => redisAnswers(true));
    client.on("error", (error: Error) => redisAnswers(false, error.message));
    client.on("close", () => redisAnswers(false));
    shared.redis = client;
  }
  return shared.redis;
}

/**
 * A limiter of `points` requests per `duration` seconds per key, in the configured store. A shared store that
 * cannot be reached falls back to this process's own memory for that request (an "insurance" limiter), so an
 * outage of Redis never stops the API; it is logged.
 * @param keyPrefix the budget's name ("key", "ip", ...), part of every stored key.
 */
export function createRateLimiter(keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
  const store = rateLimitStore();
  if (!shared.limiterLogged) {
    shared.limiterLogged = true;
    log.info({ store }, `rate limits counted in ${store === "memory" ? "this process's memory" : store}`);
  }
  const memory = new RateLimiterMemory({ keyPrefix, points, duration });
  if (store === "redis") {
    const client = sharedRedis();
    if (!client) throw new Error("rate limits are counted in Redis but REDIS_URL is not set");
    return new RateLimiterRedis({ storeClient: client, keyPrefix: `sandpiper:${keyPrefix}`, points, duration, insuranceLimiter: memory });
  }
  if (store === "postgres") {
    // The service's one connection pool (lib/platform/db.ts): no second pool to size, watch and close.
    return new RateLimiterPostgres({
      storeClient: getPool(),
      storeType: "pool",
      tableName: "rate_limits",
      tableCreated: true,
      keyPrefix,
      points,
      duration,
      insuranceLimiter: memory,
    });
  }
  return memory;
}
