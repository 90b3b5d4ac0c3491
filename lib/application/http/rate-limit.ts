import { createHash } from "node:crypto";
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { apiError } from "@/lib/contract/errors";
import { log } from "@/lib/platform/log";
import { config } from "@/lib/platform/config";
import { createRateLimiter } from "@/lib/platform/rate-limits/store";

/**
 * 300 requests per minute per API key and 600 per source IP (docs/api.md "Limits"; env overrides for operators;
 * RATE_LIMIT_WINDOW_SECONDS changes the minute, e.g. to test a client's retries in seconds).
 */
const apiWindowSeconds = config().RATE_LIMIT_WINDOW_SECONDS;
const perKey = createRateLimiter("key", config().RATE_LIMIT_PER_KEY, apiWindowSeconds);
const perIp = createRateLimiter("ip", config().RATE_LIMIT_PER_IP, apiWindowSeconds);
/**
 * The customer pages' actions (quote, confirm, pay, decline): per source IP and per bearer link, a minute each
 * (CUSTOMER_RATE_LIMIT_WINDOW_SECONDS changes the minute).
 */
const customerWindowSeconds = config().CUSTOMER_RATE_LIMIT_WINDOW_SECONDS;
const customerPerIp = createRateLimiter("customer-ip", config().CUSTOMER_RATE_LIMIT_PER_IP, customerWindowSeconds);
const customerPerLink = createRateLimiter("customer-link", config().CUSTOMER_RATE_LIMIT_PER_LINK, customerWindowSeconds);

/**
 * Consumes one request from the source IP's budget (docs/api.md "Limits"): the pipeline spends it for every request
 * without a valid key (missing, malformed, unknown, revoked, expired, inactive merchant) and for every request its
 * key's budget admitted, never for one its key's budget refused.
 * @throws ApiError 429 RATE_LIMITED with Retry-After (whole seconds) when it is exhausted.
 */
export function enforceIpRateLimit(ip: string | null): Promise<void> {
  return consume(perIp, ip ?? "unknown");
}

/**
 * Consumes one request from the API key's budget (after authentication).
 * @throws ApiError 429 RATE_LIMITED with Retry-After (whole seconds) when it is exhausted.
 */
export function enforceKeyRateLimit(apiKeyId: string): Promise<void> {
  return consume(perKey, apiKeyId);
}

/**
 * Consumes one action of a customer page (docs/api.md "Limits"): from the source IP's budget (120 a minute) and the
 * bearer link's (30 a minute; counted under a hash of the token, which is never stored or logged).
 * @throws ApiError 429 RATE_LIMITED with Retry-After and a message a customer can act on.
 */
export async function enforceCustomerActionLimits(ip: string | null, token: string): Promise<void> {
  const tooMany = (seconds: string) => `too many attempts on this page; wait ${seconds} seconds and try again`;
  await consume(customerPerIp, ip ?? "unknown", tooMany);
  await consume(customerPerLink, createHash("sha256").update(token).digest("hex"), tooMany);
}

/**
 * Page POSTs (the console's forms, Server Actions) per source IP: the API's per-IP budget (RATE_LIMIT_PER_IP per
 * RATE_LIMIT_WINDOW_SECONDS), counted apart. server.mjs spends one before Next.js reads a page POST's body
 * (docs/operating.md "The HTTP front").
 */
const pagePostsPerIp = createRateLimiter("page-ip", config().RATE_LIMIT_PER_IP, apiWindowSeconds);

/**
 * Consumes one page POST of the source IP `ip` (null: unknown).
 * @throws ApiError 429 RATE_LIMITED with Retry-After (whole seconds) when its budget is spent.
 */
export function enforcePagePostLimit(ip: string | null): Promise<void> {
  return consume(pagePostsPerIp, ip ?? "unknown", (seconds) => `too many form posts from this address; wait ${seconds} seconds and try again`);
}

/** docs/api.md "Limits": event streams open at once per API key and per merchant. */
export const MAX_STREAMS_PER_KEY = 10;
export const MAX_STREAMS_PER_MERCHANT = 50;
/**
 * Seconds a stream's place is held at most: a stream ends after 10 minutes (lib/domain/events/stream.ts), so a place a
 * crashed process never gave back frees itself after this.
 */
const STREAM_HOLD_SECONDS = 11 * 60;
const streamsPerKey = createRateLimiter("streams-key", MAX_STREAMS_PER_KEY, STREAM_HOLD_SECONDS);
const streamsPerMerchant = createRateLimiter("streams-merchant", MAX_STREAMS_PER_MERCHANT, STREAM_HOLD_SECONDS);

/**
 * Takes one place for an event stream of the key and of its merchant (docs/api.md "Limits": at most
 * {@link MAX_STREAMS_PER_KEY} per key and {@link MAX_STREAMS_PER_MERCHANT} per merchant open at once, counted in the
 * rate limits' store, so across every worker process).
 * @returns the function that gives the places back, to call once when the stream ends.
 * @throws ApiError 429 RATE_LIMITED saying how many streams are open and how to close them.
 */
export async function acquireStreamPlace(apiKeyId: string, merchantId: string): Promise<() => Promise<void>> {
  const take = async (limiter: RateLimiterAbstract, key: string, max: number, holder: string) => {
    try {
      await limiter.consume(key);
    } catch (reason) {
      const open = reason instanceof RateLimiterRes ? Math.min(max, reason.consumedPoints - 1) : max;
      await limiter.reward(key, 1).catch(() => undefined);
      throw apiError(
        "RATE_LIMITED",
        `${open} event streams are already open for this ${holder} (at most ${max}); close one (stop a sandpiper listen, or close its connection) and try again`,
        { "Retry-After": "5" },
      );
    }
  };
  await take(streamsPerKey, apiKeyId, MAX_STREAMS_PER_KEY, "API key");
  try {
    await take(streamsPerMerchant, merchantId, MAX_STREAMS_PER_MERCHANT, "merchant");
  } catch (error) {
    await streamsPerKey.reward(apiKeyId, 1).catch(() => undefined);
    throw error;
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await Promise.all([streamsPerKey.reward(apiKeyId, 1), streamsPerMerchant.reward(merchantId, 1)]).catch((error: unknown) =>
      log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        "an event stream's place could not be given back; it frees itself within 11 minutes",
      ),
    );
  };
}

const apiMessage = (seconds: string) => `too many requests; retry after ${seconds} s with the same Idempotency-Key`;

async function consume(limiter: RateLimiterAbstract, key: string, message: (retryAfterSeconds: string) => string = apiMessage): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (reason) {
    const waitMs = reason instanceof RateLimiterRes ? reason.msBeforeNext : 60_000;
    const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
    throw apiError("RATE_LIMITED", message(retryAfter), { "Retry-After": retryAfter });
  }
}
