// POST /v1/sandbox/merchants: the route that exists only in the @sandpiper/sandbox package's process
// (docs/guides/test-in-your-own-suite.md "A merchant per test"; docs/decisions/0198-a-merchant-per-test-over-a-sandbox-token.md).
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { systemNow } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { log } from "@/lib/platform/log";
import { processState } from "@/lib/platform/process-state";
import { apiError } from "@/lib/contract/errors";
import { MakeSandboxMerchant, SandboxMerchant } from "@/lib/contract/schemas/api/sandbox-merchants";
import { makeSandboxMerchant } from "@/lib/simulators/sandbox-merchants/make-merchant";
import { isJsonContentType, readRawBody } from "@/lib/application/http/body";
import { unknownRoute } from "@/lib/application/http/fallback";
import { parseJsonBody } from "@/lib/application/http/json";
import { errorResponse, jsonResponse, toApiError } from "@/lib/application/http/respond";
import { parseOrThrow } from "@/lib/application/http/validation";
import type { z } from "zod";

/** The SHA-256 of a text: two tokens are compared as digests of equal length, in constant time. */
const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether `authorization` is `Bearer <token>` (the scheme case-insensitive), compared in constant time.
 * @returns false for a missing or malformed header or another token
 */
export function presentsToken(authorization: string | null, token: string): boolean {
  const presented = authorization?.match(/^Bearer +(\S+)$/i)?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/**
 * Makes one merchant as the seed makes its own (lib/simulators/sandbox-merchants), in one statement, with its two
 * keys. Its console user, who owns the keys, has no password. `options`: the body as {@link MakeSandboxMerchant} parsed it.
 * @returns the 201 answer ({@link SandboxMerchant})
 * @throws ApiError 400 VALIDATION_ERROR for a callback address the policy refuses (nothing is made)
 */
export async function makeMerchantForTest(options: z.output<typeof MakeSandboxMerchant>): Promise<z.input<typeof SandboxMerchant>> {
  const now = systemNow();
  const label = `test merchant ${randomUUID().slice(0, 8)}`;
  const made = await makeSandboxMerchant(null, {
    name: label,
    allowedIps: config().SEED_ALLOWED_IPS,
    owner: { username: label.replaceAll(" ", "-"), password: null },
    callbackUrl: options.callbackUrl ?? null,
    fastRetries: options.fastRetries ?? true,
    standardRules: options.scenarioRules === "standard",
    pricing: { reason: "@sandpiper/sandbox: a merchant per test", createdById: null },
    keysLabel: "sandbox",
    now,
  });
  const keys = made.keys;
  if (keys === null) throw new Error("a sandbox merchant is made with its keys");
  return { merchantId: made.merchantId, apiKey: keys.full, keys, callbackSecret: made.callbackSecret };
}

/**
 * The handler of every method on /v1/sandbox/merchants. Without a sandbox token in this process it is the unknown
 * route's (404 NOT_FOUND, as any unknown /v1 path). With one: 405 for a method other than POST; 401 INVALID_API_KEY
 * unless `Authorization: Bearer <sandboxToken>`; 415, 413 and 400 VALIDATION_ERROR for the body (strict JSON against
 * {@link MakeSandboxMerchant}); then 201 with the new merchant. Errors in the contract's envelope, never cached.
 */
export async function sandboxMerchantsRoute(request: Request): Promise<Response> {
  const token = processState().sandboxToken;
  if (token === undefined) return unknownRoute();
  const requestId = randomUUID();
  const headers = { "X-Request-Id": requestId, "Cache-Control": "no-store" };
  try {
    if (request.method !== "POST") {
      const response = errorResponse(apiError("METHOD_NOT_ALLOWED", "method not allowed; use POST"), requestId);
      response.headers.set("Allow", "POST");
      return response;
    }
    if (!presentsToken(request.headers.get("authorization"), token)) {
      throw apiError("INVALID_API_KEY", "send Authorization: Bearer <sandboxToken>, the token startSandpiper() and sandpiper-sandbox answer", {
        "WWW-Authenticate": "Bearer",
      });
    }
    const raw = await readRawBody(request);
    let body: unknown = {};
    if (raw.length > 0) {
      if (!isJsonContentType(request.headers.get("content-type"))) throw apiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json");
      body = parseJsonBody(raw);
    }
    const made = await makeMerchantForTest(parseOrThrow(MakeSandboxMerchant, body, "body"));
    log.info({ requestId, merchantId: made.merchantId }, "sandbox merchant made");
    return jsonResponse(201, made, headers);
  } catch (error) {
    return errorResponse(toApiError(error, requestId), requestId);
  }
}
