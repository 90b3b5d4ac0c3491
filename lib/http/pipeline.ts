import { randomUUID } from "node:crypto";
import { z as zod, type z } from "zod";
import { authenticateApiKey, type AuthenticatedKey, type Scope } from "@/lib/keys/api-keys";
import { normalizeIp, sourceIp } from "@/lib/auth/ip";
import { getDb, TX_OPTIONS, type Db, type Tx } from "@/lib/db";
import { apiError } from "@/lib/errors";
import { isJsonContentType, readRawBody } from "@/lib/http/body";
import { parseJsonBody, queryObject, requestQuery } from "@/lib/http/json";
import { bodyHash, requireIdempotencyKey, runIdempotent, type StoredResponse } from "@/lib/http/idempotency";
import { enforceIpRateLimit, enforceKeyRateLimit } from "@/lib/http/rate-limit";
import { errorResponse, jsonResponse, toApiError } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";
import { log } from "@/lib/log";

/** What a handler receives: typed, validated input and the authenticated merchant. */
export type ApiContext<B, Q, T extends Tx | null = Tx | null> = {
  requestId: string;
  ip: string | null;
  apiKey: AuthenticatedKey;
  merchant: AuthenticatedKey["merchant"];
  body: B;
  query: Q;
  params: Record<string, string>;
  /** The request's headers (content negotiation, e.g. `Accept: text/event-stream`). */
  headers: Headers;
  /** Aborted when the client goes away (long-running answers such as event streams stop then). */
  signal: AbortSignal;
  /** The transaction of an idempotent request (typed non-null for idempotent endpoints; null otherwise); write through it. */
  tx: T;
  /** `tx` when present, else the shared client. */
  db: Db;
  now: Date;
};

/**
 * A handler's result; `resourceId` lets a replay re-read the current state (store payments). `stream`, for
 * answers that are written over time (server-sent events), replaces the JSON body; never on idempotent endpoints.
 */
export type ApiResult = { status: number; body: unknown; resourceId?: string | null; headers?: Record<string, string>; stream?: ReadableStream<Uint8Array> };

export type ApiOptions<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, I extends boolean = boolean> = {
  scope: Scope;
  /** docs/api.md: Idempotency-Key required (and the handler runs inside the idempotency transaction). */
  idempotent?: I;
  /** docs/api.md "Authentication" 6: the source IP must be on the merchant's server allow-list. */
  allowList?: boolean;
  body?: B;
  query?: Q;
  /** Responses carry customer data: Cache-Control no-store. */
  noStore?: boolean;
  /** For idempotent endpoints whose replay shows the current state (docs/api.md "Idempotency" 4). */
  replay?: (ctx: ApiContext<Infer<B>, Infer<Q>, null>, stored: StoredResponse) => Promise<ApiResult>;
};

/** What an endpoint without a request body accepts when a body is sent anyway: an empty object. */
const NO_BODY = zod.strictObject({});

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;
/** An idempotent endpoint's handler always runs inside the idempotency transaction; any other has none. */
type TxFor<I extends boolean> = I extends true ? Tx : null;
type RouteContext = { params: Promise<Record<string, string | string[]>> };

/**
 * The one request pipeline for every /v1 handler (docs/architecture.md "Request pipeline"), in this order:
 * request id, 415, 413, source-IP rate limit 429 (also for invalid keys), API key 401, merchant active 401, key
 * rate limit 429, scope 403, IP allow-list 403,
 * Idempotency-Key 400, JSON parse and strict validation 400, idempotency replay or 409, handler, error mapping.
 * Every response carries X-Request-Id; errors use `{ error: { code, message, requestId } }`.
 */
export function merchantApi<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, I extends boolean = false>(
  options: ApiOptions<B, Q, I>,
  handler: (ctx: ApiContext<Infer<B>, Infer<Q>, TxFor<I>>) => Promise<ApiResult>,
) {
  return async (request: Request, route?: RouteContext): Promise<Response> => {
    const requestId = randomUUID();
    const started = performance.now();
    let merchantId: string | undefined;
    let response: Response;
    try {
      const result = await run(request, route, requestId, (id) => (merchantId = id));
      const headers = { ...(options.noStore ? { "Cache-Control": "no-store" } : {}), ...result.headers, "X-Request-Id": requestId };
      response = result.stream ? new Response(result.stream, { status: result.status, headers }) : jsonResponse(result.status, result.body, headers);
    } catch (error) {
      response = errorResponse(toApiError(error, requestId), requestId);
    }
    log.info(
      {
        requestId,
        merchantId,
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        latencyMs: Math.round((performance.now() - started) * 10) / 10,
      },
      "request",
    );
    return response;
  };

  async function run(
    request: Request,
    route: RouteContext | undefined,
    requestId: string,
    setMerchant: (id: string) => void,
  ): Promise<ApiResult> {
    // An endpoint without a request body (a redelivery) takes a POST with none at all; a body sent to it anyway
    // is checked like any other: JSON, and nothing but `{}`.
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    const raw = hasBody && !options.body ? await readRawBody(request) : null;
    const sentBody = hasBody && (options.body !== undefined || (raw !== null && raw.length > 0));
    if (sentBody && !isJsonContentType(request.headers.get("content-type"))) {
      throw apiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json");
    }
    const bytes = sentBody ? (raw ?? (await readRawBody(request))) : null;
    const db = getDb();
    const now = new Date();
    const ip = sourceIp(request.headers);
    await enforceIpRateLimit(ip);
    const apiKey = await authenticateApiKey(db, request.headers.get("authorization"), now);
    setMerchant(apiKey.merchant.id);
    await enforceKeyRateLimit(apiKey.id);
    if (!apiKey.scopes.includes(options.scope)) {
      throw apiError("INSUFFICIENT_SCOPE", `this API key lacks the ${options.scope} scope; do not retry automatically`);
    }
    if (options.allowList) await requireAllowedIp(db, apiKey.merchant.id, ip);
    const idempotencyKey = options.idempotent ? requireIdempotencyKey(request.headers.get("idempotency-key")) : null;

    const url = new URL(request.url);
    const parsedBody = bytes ? parseJsonBody(bytes) : undefined;
    if (!options.body && parsedBody !== undefined) parseOrThrow(NO_BODY, parsedBody, "body");
    const body = (options.body ? parseOrThrow(options.body, parsedBody, "body") : undefined) as Infer<B>;
    const query = (options.query ? parseOrThrow(options.query, queryObject(requestQuery(request)), "query") : undefined) as Infer<Q>;
    const params = await resolveParams(route);
    const base = { requestId, ip, apiKey, merchant: apiKey.merchant, body, query, params, now, headers: request.headers, signal: request.signal };

    if (!idempotencyKey) return handler({ ...base, tx: null as TxFor<I>, db });

    const scope = { merchantId: apiKey.merchant.id, key: idempotencyKey, method: request.method, path: url.pathname, hash: bodyHash(options.body ? parsedBody : undefined) };
    const { replayed, response } = await runIdempotent(
      db,
      scope,
      async (tx) => {
        const result = await handler({ ...base, tx: tx as TxFor<I>, db: tx });
        return { status: result.status, body: result.body, resourceId: result.resourceId ?? null };
      },
      TX_OPTIONS,
    );
    if (!replayed) return response;
    const replay = options.replay ? await options.replay({ ...base, tx: null, db }, response) : response;
    return { ...replay, headers: { "Idempotency-Replayed": "true" } };
  }
}

async function resolveParams(route: RouteContext | undefined): Promise<Record<string, string>> {
  const raw = (route ? await route.params : undefined) ?? {};
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
}

/**
 * docs/api.md "Authentication" 6: exact IPv4/IPv6 match against the merchant's server allow-list.
 * @throws ApiError 403 IP_NOT_ALLOWED
 */
async function requireAllowedIp(db: Db, merchantId: string, ip: string | null): Promise<void> {
  const normalized = ip ? normalizeIp(ip) : null;
  // Raw SQL: runs on every create.
  const [allowed] = normalized
    ? await db.$queryRaw<{ id: string }[]>`SELECT id FROM allowed_ips WHERE merchant_id = ${merchantId}::uuid AND address = ${normalized}`
    : [];
  if (!allowed) throw apiError("IP_NOT_ALLOWED", "requests to this endpoint must come from an approved merchant server IP address");
}
