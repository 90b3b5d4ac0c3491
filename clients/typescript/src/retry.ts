import { SandpiperError } from "./errors.js";

/** How the client retries (docs/client.md "Retries"). */
export type RetryOptions = {
  /** Requests sent at most, the first included (default 4; 1 turns retries off). */
  maxAttempts?: number;
  /** Wait before the first retry without a Retry-After, in milliseconds; doubled each time, with jitter (default 500). */
  baseDelayMs?: number;
  /** Longest wait between two attempts, Retry-After included, in milliseconds (default 60,000). */
  maxDelayMs?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The wait before attempt `next` (2, 3, ...): Retry-After when given, else exponential backoff with jitter. */
function waitMs(next: number, response: Response | null, o: Required<RetryOptions>): number {
  const retryAfter = response?.headers.get("retry-after");
  if (retryAfter && /^\d+$/.test(retryAfter)) return Math.min(Number(retryAfter) * 1000, o.maxDelayMs);
  const backoff = o.baseDelayMs * 2 ** (next - 2);
  return Math.min(backoff / 2 + Math.random() * (backoff / 2), o.maxDelayMs);
}

/** Whether an answer is worth sending again: 429 (rate limited) and every 5xx. */
export function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * A fetch that sends a request again on a network error, a 429 or a 5xx: the same method, URL, headers
 * (the Idempotency-Key included) and body bytes, up to `maxAttempts` requests, waiting the answer's
 * `Retry-After` or an exponential backoff. Returns the last answer (the caller turns an error answer into a
 * SandpiperError). An aborted request is not retried.
 * @throws SandpiperError NETWORK_ERROR (status 0) when the last attempt got no answer.
 */
export function retryingFetch(base: typeof fetch, options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const o: Required<RetryOptions> = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 60_000, ...options };
  if (!Number.isInteger(o.maxAttempts) || o.maxAttempts < 1) throw new RangeError("maxAttempts must be an integer >= 1");
  return async (request: Request) => {
    const body = request.body ? await request.arrayBuffer() : undefined;
    for (let attempt = 1; ; attempt++) {
      const sent = new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal, redirect: request.redirect });
      let response: Response | null = null;
      try {
        response = await base(sent);
      } catch (error) {
        if (request.signal.aborted || attempt >= o.maxAttempts) {
          if (request.signal.aborted) throw error;
          throw new SandpiperError({
            status: 0,
            code: "NETWORK_ERROR",
            message: `no answer from ${new URL(request.url).origin} after ${attempt} attempts: ${(error as Error).message}`,
            requestId: null,
            cause: error,
          });
        }
      }
      if (response && (!retryable(response.status) || attempt >= o.maxAttempts)) return response;
      const wait = waitMs(attempt + 1, response, o);
      await response?.body?.cancel();
      await sleep(wait);
    }
  };
}
