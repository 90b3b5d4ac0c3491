import { randomUUID } from "node:crypto";
import { z as zod, type z } from "zod";
import { authenticateRequest, keyDisplayPrefix, readLoad, type AuthenticatedKey, type Scope } from "@/lib/keys/api-keys";
import { sandboxNow, systemNow } from "@/lib/clock";
import { normalizeIp, sourceIp } from "@/lib/auth/ip";
import { getDb, TX_OPTIONS, type Db, type Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError, apiError } from "@/lib/errors";
import { isJsonContentType, readRawBody } from "@/lib/http/body";
import { parseJsonBody, queryObject, requestQuery } from "@/lib/http/json";
import { bodyHash, commitIdempotent, idempotencyRecordColumn, requireIdempotencyKey, runIdempotent, storedFromColumn, type IdempotencyScope, type StoredResponse } from "@/lib/http/idempotency";
import { enforceIpRateLimit, enforceKeyRateLimit } from "@/lib/http/rate-limit";
import { errorResponse, jsonResponse, toApiError, toJson } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";
import { log } from "@/lib/log";
import { recordRequest, withLogPointer } from "@/lib/request-log/writer";

/** What a handler receives: typed, validated input and the authenticated merchant. */
export type ApiContext<B, Q, T extends Tx | null = Tx | null, L = undefined> = {
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
  /** The endpoint's `load` row as its `parse` typed it (undefined without a `load`). */
  loaded: L;
  /**
   * Single-statement idempotent endpoints (`idempotent: "statement"`): writes the first answer's record together with
   * the endpoint's effects in one statement (lib/http/idempotency.ts commitIdempotent). Null on other endpoints.
   */
  commit: ((response: StoredResponse, effects: Prisma.Sql, checks: Prisma.Sql) => Promise<ApiResult>) | null;
};

/**
 * A handler's result; `resourceId` lets a replay re-read the current state (store payments). `stream`, for
 * answers that are written over time (server-sent events), replaces the JSON body; never on idempotent endpoints.
 */
export type ApiResult = {
  status: number;
  body: unknown;
  resourceId?: string | null;
  headers?: Record<string, string>;
  stream?: ReadableStream<Uint8Array>;
  /** Set by `commit` when a concurrent identical request answered first: this is its stored answer. */
  replayed?: boolean;
};

/** What an endpoint reads in the request's one authentication statement, from its validated input. */
export type LoadInput<B, Q> = { body: B; query: Q; params: Record<string, string>; now: Date };

/**
 * An endpoint's reads in the request's one authentication statement (docs/architecture.md "Hot paths"), owned by the
 * operation that makes them. `sql`: a SELECT run as a LATERAL join of the statement (it sees the key's merchant as
 * `m`; null reads nothing, e.g. for a malformed id). `parse`: checks the row's columns (an empty row when `sql` read
 * nothing) and gives the handler's typed `loaded`, so a column renamed on one side fails there (a zod error: 500),
 * never reads as a silent `undefined`.
 */
export type Load<In, L> = { sql: (input: In) => Prisma.Sql | null; parse: (row: Record<string, unknown>) => L };

export type ApiOptions<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, I extends boolean = boolean, L = undefined> = {
  scope: Scope;
  /**
   * docs/api.md: Idempotency-Key required, and the handler runs inside the idempotency transaction; `"statement"`:
   * no transaction, the handler writes its answer and effects in one statement through `ctx.commit`.
   */
  idempotent?: I | "statement";
  /**
   * What the endpoint reads in the authentication statement ({@link Load}), so it reads what it needs in the same
   * round trip (docs/architecture.md "Hot paths"). Not run when the input is invalid; it runs with the key's
   * statement even when the key is then refused (its result is not used).
   */
  load?: Load<LoadInput<Infer<B>, Infer<Q>>, L>;
  /** docs/api.md "Authentication" 6: the source IP must be on the merchant's server allow-list. */
  allowList?: boolean;
  body?: B;
  query?: Q;
  /** Responses carry customer data: Cache-Control no-store. */
  noStore?: boolean;
  /** For idempotent endpoints whose replay shows the current state (docs/api.md "Idempotency" 4). */
  replay?: (ctx: ApiContext<Infer<B>, Infer<Q>, null, L>, stored: StoredResponse) => Promise<ApiResult>;
};

/** What the pipeline learnt of a request on its way, for the request log: the key's merchant, the key, the raw body. */
type Seen = { merchantId?: string; apiKeyId?: string; keyPrefix?: string; body?: Buffer | null };

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
export function merchantApi<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, I extends boolean = false, L = undefined>(
  options: ApiOptions<B, Q, I, L>,
  handler: (ctx: ApiContext<Infer<B>, Infer<Q>, TxFor<I>, L>) => Promise<ApiResult>,
) {
  return async (request: Request, route?: RouteContext): Promise<Response> => {
    const requestId = randomUUID();
    const createdAt = systemNow();
    const started = performance.now();
    const seen: Seen = {};
    let response: Response;
    let responseText: string | null = null;
    let errorCode: string | null = null;
    let replayedAnswer = false;
    try {
      const result = await run(request, route, requestId, seen);
      const headers: Record<string, string> = { ...(options.noStore ? { "Cache-Control": "no-store" } : {}), ...result.headers, "X-Request-Id": requestId };
      replayedAnswer = headers["Idempotency-Replayed"] === "true";
      if (result.stream) {
        response = new Response(result.stream, { status: result.status, headers });
      } else {
        responseText = toJson(result.body);
        response = jsonResponse(result.status, responseText, headers, true);
      }
    } catch (error) {
      const mapped = toApiError(error, requestId);
      // docs/api.md "Request log": a recorded request's error message says where to look it up.
      const apiErr = new ApiError(mapped.code, withLogPointer(mapped.message, requestId, Boolean(seen.merchantId && seen.apiKeyId)), mapped.headers);
      errorCode = apiErr.code;
      response = errorResponse(apiErr, requestId);
      responseText = toJson({ error: { code: apiErr.code, message: apiErr.message, requestId } });
    }
    const url = new URL(request.url);
    const latencyMs = Math.round((performance.now() - started) * 10) / 10;
    log.info({ requestId, merchantId: seen.merchantId, method: request.method, path: url.pathname, status: response.status, latencyMs }, "request");
    // docs/api.md "Request log": every request of an authenticated key, queued here and written off the path.
    if (seen.merchantId && seen.apiKeyId) {
      recordRequest({
        requestId,
        merchantId: seen.merchantId,
        apiKeyId: seen.apiKeyId,
        keyPrefix: seen.keyPrefix ?? "",
        method: request.method,
        path: url.pathname,
        query: url.search ? url.search.slice(1) : null,
        status: response.status,
        errorCode,
        idempotencyKey: request.headers.get("idempotency-key"),
        replayed: replayedAnswer,
        latencyMs: Math.round(latencyMs),
        requestBody: seen.body ? seen.body.toString("utf8") : null,
        responseBody: responseText,
        createdAt,
      });
    }
    return response;
  };

  async function run(request: Request, route: RouteContext | undefined, requestId: string, seen: Seen): Promise<ApiResult> {
    // An endpoint without a request body (a redelivery) takes a POST with none at all; a body sent to it anyway
    // is checked like any other: JSON, and nothing but `{}`.
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    const raw = hasBody && !options.body ? await readRawBody(request) : null;
    const sentBody = hasBody && (options.body !== undefined || (raw !== null && raw.length > 0));
    if (sentBody && !isJsonContentType(request.headers.get("content-type"))) {
      throw apiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json");
    }
    const bytes = sentBody ? (raw ?? (await readRawBody(request))) : null;
    seen.body = bytes;
    const db = getDb();
    const now = systemNow();
    const ip = sourceIp(request.headers);
    await enforceIpRateLimit(ip);
    // The input is checked before the key, so the endpoint's reads can join the authentication statement; its
    // errors are answered after the key's, in the pipeline's order.
    const url = new URL(request.url);
    const input = checkInput(bytes, request);
    const idempotencyHeader = options.idempotent ? attempt(() => requireIdempotencyKey(request.headers.get("idempotency-key"))) : null;
    const params = await resolveParams(route);
    const load = input.ok && options.load ? options.load.sql({ body: input.value.body, query: input.value.query, params, now }) : null;
    const idempotencyColumn = idempotencyHeader?.ok ? [idempotencyRecordColumn(idempotencyHeader.value)] : [];
    const auth = await authenticateRequest(request.headers.get("authorization"), now, {
      allowListIp: options.allowList ? (ip ? normalizeIp(ip) : null) : undefined,
      columns: idempotencyColumn,
      load,
    });
    const apiKey = auth.apiKey;
    seen.merchantId = apiKey.merchant.id;
    seen.apiKeyId = apiKey.id;
    seen.keyPrefix = keyDisplayPrefix((request.headers.get("authorization") ?? "").replace(/^Bearer +/i, ""));
    await enforceKeyRateLimit(apiKey.id);
    if (!apiKey.scopes.includes(options.scope)) {
      throw apiError("INSUFFICIENT_SCOPE", `this API key lacks the ${options.scope} scope; do not retry automatically`);
    }
    if (options.allowList && !auth.ipAllowed) {
      throw apiError("IP_NOT_ALLOWED", "requests to this endpoint must come from an approved merchant server IP address");
    }
    if (idempotencyHeader && !idempotencyHeader.ok) throw idempotencyHeader.error;
    if (!input.ok) throw input.error;
    const { body, query, parsedBody } = input.value;
    // A merchant whose sandbox clock is moved works at its sandbox time, and the endpoint's reads are made for it.
    const moved = apiKey.merchant.clockOffsetMs !== 0n;
    const at = moved ? sandboxNow(apiKey.merchant.clockOffsetMs, now) : now;
    const reload = moved && options.load ? options.load.sql({ body, query, params, now: at }) : null;
    const row = reload ? await readLoad(apiKey.merchant.id, reload) : load ? auth.row : {};
    const base = {
      requestId, ip, apiKey, merchant: apiKey.merchant, body, query, params, now: at, headers: request.headers, signal: request.signal,
      loaded: (options.load ? options.load.parse(row) : undefined) as L,
    };

    if (!idempotencyHeader) return handler({ ...base, tx: null as TxFor<I>, db, commit: null });

    const scope: IdempotencyScope = { merchantId: apiKey.merchant.id, key: idempotencyHeader.value, method: request.method, path: url.pathname, hash: bodyHash(options.body ? parsedBody : undefined) };
    const stored = storedFromColumn(scope, auth.row.idempotencyRecord);
    if (stored) return replayed(base, stored);
    if (options.idempotent === "statement") {
      const commit = async (response: StoredResponse, effects: Prisma.Sql, checks: Prisma.Sql): Promise<ApiResult> => {
        const outcome = await commitIdempotent(scope, response, effects, checks);
        return outcome.replayed ? { ...outcome.response, replayed: true } : outcome.response;
      };
      const result = await handler({ ...base, tx: null as TxFor<I>, db, commit });
      return result.replayed ? replayed(base, { status: result.status, body: result.body, resourceId: result.resourceId ?? null }) : result;
    }
    const outcome = await runIdempotent(
      db,
      scope,
      async (tx) => {
        const result = await handler({ ...base, tx: tx as TxFor<I>, db: tx, commit: null });
        return { status: result.status, body: result.body, resourceId: result.resourceId ?? null };
      },
      { ...TX_OPTIONS, known: "absent" },
    );
    return outcome.replayed ? replayed(base, outcome.response) : outcome.response;
  }

  /** A stored answer, as the endpoint shows a replay (docs/api.md "Idempotency" 4). */
  async function replayed(base: Omit<ApiContext<Infer<B>, Infer<Q>, null, L>, "tx" | "db" | "commit">, stored: StoredResponse): Promise<ApiResult> {
    const replay = options.replay ? await options.replay({ ...base, tx: null, db: getDb(), commit: null }, stored) : stored;
    return { ...replay, headers: { "Idempotency-Replayed": "true" } };
  }

  /** The JSON body and query, parsed and validated; an error is kept to be thrown in the pipeline's order. */
  function checkInput(bytes: Buffer | null, request: Request) {
    return attempt(() => {
      const parsedBody = bytes ? parseJsonBody(bytes) : undefined;
      if (!options.body && parsedBody !== undefined) parseOrThrow(NO_BODY, parsedBody, "body");
      const body = (options.body ? parseOrThrow(options.body, parsedBody, "body") : undefined) as Infer<B>;
      const query = (options.query ? parseOrThrow(options.query, queryObject(requestQuery(request)), "query") : undefined) as Infer<Q>;
      return { body, query, parsedBody };
    });
  }
}

/** The value of `fn`, or the error it threw, to be thrown later. */
function attempt<T>(fn: () => T): { ok: true; value: T } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

async function resolveParams(route: RouteContext | undefined): Promise<Record<string, string>> {
  const raw = (route ? await route.params : undefined) ?? {};
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
}
