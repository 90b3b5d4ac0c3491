import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { apiError } from "@/lib/errors";

/** SPEC "Limits": 300 requests per minute per API key, 600 per source IP (env overrides for operators). */
const perKey = new RateLimiterMemory({
  keyPrefix: "key",
  points: Number(process.env.RATE_LIMIT_PER_KEY ?? 300),
  duration: 60,
});
const perIp = new RateLimiterMemory({
  keyPrefix: "ip",
  points: Number(process.env.RATE_LIMIT_PER_IP ?? 600),
  duration: 60,
});

/**
 * Consumes one request from the key's and the source IP's budgets.
 * @throws ApiError 429 RATE_LIMITED with Retry-After (whole seconds) when either is exhausted.
 */
export async function enforceRateLimits(apiKeyId: string, ip: string | null): Promise<void> {
  const results = await Promise.allSettled([perKey.consume(apiKeyId), perIp.consume(ip ?? "unknown")]);
  const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
  if (rejected.length === 0) return;
  const waitMs = Math.max(
    ...rejected.map((r) => (r.reason instanceof RateLimiterRes ? r.reason.msBeforeNext : 60_000)),
  );
  const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
  throw apiError("RATE_LIMITED", `too many requests; retry after ${retryAfter} s with the same Idempotency-Key`, {
    "Retry-After": retryAfter,
  });
}
