import { createHash, randomUUID } from "node:crypto";
import { z as zod } from "zod";
import { authenticateRequest, keyDisplayPrefix, readLoad, type AuthenticatedKey } from "@/lib/domain/keys/api-keys";
import { sandboxNow, systemNow } from "@/lib/platform/clock";
import { normalizeIp, sourceIp } from "@/lib/domain/auth/ip";
import { getDb, TX_OPTIONS, type Db, type Tx } from "@/lib/platform/db";
import type { Prisma } from "@/lib/platform/generated/prisma/client";
import { ApiError, apiError } from "@/lib/contract/errors";
import { isJsonContentType, readRawBody } from "@/lib/application/http/body";
import {
  requestSchemas,
  type Answer,
  type BodySchemaOf,
  type Endpoint,
  type JsonAnswer,
  type Load,
  type LoadInput,
  type LoadOf,
  type Parsed,
  type PathParams,
  type QuerySchemaOf,
  type StoredAnswer,
} from "@/lib/application/http/endpoint";
import { parseJsonBody, queryObject, requestQuery } from "@/lib/application/http/json";
import {
  bodyHash,
  commitIdempotent,
  idempotencyRecordColumn,
  requireIdempotencyKey,
  runIdempotent,
  storedFromColumn,
  type IdempotencyScope,
  type StoredResponse,
} from "@/lib/application/http/idempotency";
import { enforceIpRateLimit, enforceKeyRateLimit } from "@/lib/application/http/rate-limit";
import { errorResponse, jsonResponse, toApiError } from "@/lib/application/http/respond";
import { toJson } from "@/lib/contract/json";
import { parseOrThrow } from "@/lib/application/http/validation";
import { log } from "@/lib/platform/log";
import { observeRequest } from "@/lib/platform/metrics/metrics";
import { inSpan } from "@/lib/platform/tracing/tracing";
import { recordRequest, withLogPointer } from "@/lib/application/request-log/writer";
import { processState } from "@/lib/platform/process-state";

/**
 * Writes a first answer together with the endpoint's effects in one statement (lib/application/http/idempotency.ts
 * commitIdempotent) and gives the answer back; when a concurrent identical request answered first, its stored answer
 * with `replayed: true`.
 */
export type Commit<E extends Endpoint> = (response: StoredAnswer<E>, effects: Prisma.Sql, checks: Prisma.Sql) => Promise<JsonAnswer<E>>;

/**
 * What a handler of endpoint `E` (an operation entry of lib/application/openapi/operations.ts) receives: its validated input as
 * the entry's schemas give it, the authenticated merchant, and what its idempotency mode gives it.
 */
export type ApiContext<E extends Endpoint, L = undefined> = {
  requestId: string;
  ip: string | null;
  apiKey: AuthenticatedKey;
  merchant: AuthenticatedKey["merchant"];
  body: Parsed<BodySchemaOf<E>>;
  query: Parsed<QuerySchemaOf<E>>;
  /** The path's `{name}` parameters (checked present by the pipeline; values as the route received them). */
  params: PathParams<E>;
  /** The request's headers (content negotiation, e.g. `Accept: text/event-stream`). */
  headers: Headers;
  /** Aborted when the client goes away (long-running answers such as event streams stop then). */
  signal: AbortSignal;
  /** The idempotency transaction (`idempotency: "transaction"`; null on other endpoints); write through it. */
  tx: E["idempotency"] extends "transaction" ? Tx : null;
  /** `tx` when present, else the shared client. */
  db: Db;
  now: Date;
  /** The endpoint's load row as its `parse` typed it (undefined without a load). */
  loaded: L;
  /** `idempotency: "statement"`: writes the first answer's record with the endpoint's effects ({@link Commit}). */
  commit: E["idempotency"] extends "statement" ? Commit<E> : null;
};

/** A handler of endpoint `E`: its success answer is typed by the entry's `success` (lib/application/http/endpoint.ts Answer). */
export type Handler<E extends Endpoint, L = undefined> = (ctx: ApiContext<E, L>) => Promise<Answer<E>>;

/** What a replay handler receives: a handler's context, outside any transaction. */
export type ReplayContext<E extends Endpoint, L = undefined> = Omit<ApiContext<E, L>, "tx" | "commit"> & { tx: null; commit: null };

/**
 * The parts of an endpoint that are code, not data, passed by its route file beside the entry: `load`, exactly when the
 * entry says `load: true` (the {@link LoadOf} naming this operation); `replay`, for idempotent endpoints whose replay
 * shows the current state (docs/api.md "Idempotency" 4).
 */
export type EndpointParts<E extends Endpoint, L = undefined> = (E extends { load: true } ? { load: LoadOf<E, L> } : { load?: undefined }) & {
  replay?: (ctx: ReplayContext<E, L>, stored: StoredAnswer<E>) => Promise<JsonAnswer<E>>;
};

/** Any answer as the pipeline writes it (a handler's {@link Answer}, a stored one, or a replay). */
type ApiResult = {
  status: number;
  body: unknown;
  resourceId?: string | null;
  headers?: Record<string, string>;
  stream?: ReadableStream<Uint8Array>;
  replayed?: boolean;
};
/** A handler's context as the pipeline builds it, before the route's types narrow it. */
type AnyContext = Omit<ApiContext<Endpoint, unknown>, "body" | "query" | "tx" | "commit"> & {
  body: unknown;
  query: unknown;
  tx: Tx | null;
  commit: ((response: StoredResponse, effects: Prisma.Sql, checks: Prisma.Sql) => Promise<ApiResult>) | null;
};
/** A handler and the endpoint's parts as the pipeline calls them, once their types have been checked at the route. */
type AnyHandler = (ctx: AnyContext) => Promise<ApiResult>;
type AnyParts = { load?: Load<LoadInput<unknown, unknown>, unknown>; replay?: (ctx: AnyContext, stored: StoredResponse) => Promise<ApiResult> };

/** What the pipeline learnt of a request on its way, for the request log: the key's merchant, the key, the raw body. */
type Seen = { merchantId?: string; apiKeyId?: string; keyPrefix?: string; body?: Buffer | null };

/** What an endpoint without a request body accepts when a body is sent anyway: an empty object. */
const NO_BODY = zod.strictObject({});

type RouteContext = { params: Promise<Record<string, string | string[]>> };
/** A Next.js route handler. */
export type RouteHandler = (request: Request, route?: RouteContext) => Promise<Response>;

/**
 * The one request pipeline for every /v1 handler (docs/architecture.md "Request pipeline"), run with an operation
 * entry of lib/application/openapi/operations.ts (`endpoint`: scope, idempotency mode, allow-list, body and query schemas,
 * no-store, load, success answer), in this order:
 * request id, 415, 413, API key 401 and merchant active 401 (each after spending the source IP's budget: 429 when it
 * is exhausted), key rate limit 429, source-IP rate limit 429 (only requests their key's limit admitted), scope 403,
 * IP allow-list 403,
 * Idempotency-Key 400, JSON parse and strict validation 400, idempotency replay or 409, handler, error mapping.
 * Every response carries X-Request-Id; errors use `{ error: { code, message, requestId } }`.
 *
 * `merchantApi(OPERATIONS.x, handler)`, or `merchantApi(OPERATIONS.x, { load, replay }, handler)`
 * ({@link EndpointParts}); the handler's context and answer are typed from the entry, so an answer that its success
 * schema does not accept does not compile.
 * @throws TypeError when the route module loads, if `parts.load` disagrees with the entry (missing, extra, or another
 *   operation's): the types refuse that already, this catches a cast.
 */
export function merchantApi<E extends Endpoint & { load?: undefined }>(endpoint: E, handler: Handler<E>): RouteHandler;
export function merchantApi<E extends Endpoint, L = undefined>(endpoint: E, parts: EndpointParts<E, L>, handler: Handler<E, L>): RouteHandler;
export function merchantApi(endpoint: Endpoint, partsOrHandler: object, lastHandler?: object): RouteHandler {
  // The overloads above checked the route's parts and handler against the entry; from here they run untyped.
  const [parts, handler] = (typeof partsOrHandler === "function" ? [{}, partsOrHandler] : [partsOrHandler, lastHandler]) as [AnyParts, AnyHandler];
  if ((endpoint.load === true) !== (parts.load !== undefined) || (parts.load && parts.load.operationId !== endpoint.operationId)) {
    throw new TypeError(`${endpoint.operationId}: its route's load (${parts.load?.operationId ?? "none"}) is not the one its operation entry declares`);
  }
  const schemas = requestSchemas(endpoint);
  const idempotent = endpoint.idempotency !== "none";

  // docs/operating.md "Traces": one span per request (a no-op when tracing is off), its database queries below it.
  return (request: Request, route?: RouteContext): Promise<Response> =>
    inSpan(`${request.method} ${endpoint.operationId}`, { "sandpiper.operation": endpoint.operationId }, async (span) => {
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
        const headers: Record<string, string> = { ...(endpoint.noStore ? { "Cache-Control": "no-store" } : {}), ...result.headers, "X-Request-Id": requestId };
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
      observeRequest(endpoint.operationId, response.status, latencyMs / 1000, replayedAnswer, errorCode);
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
      span.setAttributes({
        "sandpiper.request_id": requestId,
        "sandpiper.merchant_id": seen.merchantId ?? "",
        "http.request.method": request.method,
        "url.path": url.pathname,
        "http.response.status_code": response.status,
      });
      return response;
    });

  async function run(request: Request, route: RouteContext | undefined, requestId: string, seen: Seen): Promise<ApiResult> {
    // An endpoint without a request body (a redelivery) takes a POST with none at all; a body sent to it anyway
    // is checked like any other: JSON, and nothing but `{}`.
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    const raw = hasBody && !schemas.body ? await readRawBody(request) : null;
    const sentBody = hasBody && (schemas.body !== undefined || (raw !== null && raw.length > 0));
    if (sentBody && !isJsonContentType(request.headers.get("content-type"))) {
      throw apiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json");
    }
    const bytes = sentBody ? (raw ?? (await readRawBody(request))) : null;
    seen.body = bytes;
    const db = getDb();
    const now = systemNow();
    const ip = sourceIp(request.headers);
    // The input is checked before the key, so the endpoint's reads can join the authentication statement; its
    // errors are answered after the key's, in the pipeline's order.
    const url = new URL(request.url);
    const input = checkInput(bytes, request);
    const idempotencyHeader = idempotent ? attempt(() => requireIdempotencyKey(request.headers.get("idempotency-key"))) : null;
    const params = await resolveParams(route, endpoint);
    // The endpoint's reads are made at the merchant's sandbox time, known only once the key is read: they are built
    // with the offset this key's merchant had last time, and made again below only if it has changed since.
    const guess = clockGuess(request.headers.get("authorization"));
    const loadAt = guess.offsetMs === 0n ? now : sandboxNow(guess.offsetMs, now);
    const load = input.ok && parts.load ? parts.load.sql({ body: input.value.body, query: input.value.query, params, now: loadAt }) : null;
    const idempotencyColumn = idempotencyHeader?.ok ? [idempotencyRecordColumn(idempotencyHeader.value)] : [];
    // docs/api.md "Limits": the source address's budget counts what its keys' budgets admitted and every request
    // without a valid key; a request its own key's budget refused spends nothing of the address's, so one key's
    // flood never refuses another merchant's key on the same address.
    const auth = await authenticateRequest(request.headers.get("authorization"), now, {
      allowListIp: endpoint.allowList ? (ip ? normalizeIp(ip) : null) : undefined,
      columns: idempotencyColumn,
      load,
    }).catch(async (error: unknown) => {
      await enforceIpRateLimit(ip);
      throw error;
    });
    const apiKey = auth.apiKey;
    seen.merchantId = apiKey.merchant.id;
    seen.apiKeyId = apiKey.id;
    seen.keyPrefix = keyDisplayPrefix((request.headers.get("authorization") ?? "").replace(/^Bearer +/i, ""));
    await enforceKeyRateLimit(apiKey.id);
    await enforceIpRateLimit(ip);
    if (!apiKey.scopes.includes(endpoint.scope)) {
      throw apiError("INSUFFICIENT_SCOPE", `this API key lacks the ${endpoint.scope} scope; do not retry automatically`);
    }
    if (endpoint.allowList && !auth.ipAllowed) {
      throw apiError("IP_NOT_ALLOWED", "requests to this endpoint must come from an approved merchant server IP address");
    }
    if (idempotencyHeader && !idempotencyHeader.ok) throw idempotencyHeader.error;
    if (!input.ok) throw input.error;
    const { body, query, parsedBody } = input.value;
    // A merchant whose sandbox clock is moved works at its sandbox time, and the endpoint's reads are made for it.
    const offsetMs = apiKey.merchant.clockOffsetMs;
    guess.remember(offsetMs);
    const at = offsetMs === 0n ? now : sandboxNow(offsetMs, now);
    const reload = offsetMs !== guess.offsetMs && parts.load ? parts.load.sql({ body, query, params, now: at }) : null;
    const row = reload ? await readLoad(apiKey.merchant.id, reload) : load ? auth.row : {};
    const base = {
      requestId,
      ip,
      apiKey,
      merchant: apiKey.merchant,
      body,
      query,
      params,
      now: at,
      headers: request.headers,
      signal: request.signal,
      loaded: parts.load ? parts.load.parse(row) : undefined,
    };

    if (!idempotencyHeader) return handler({ ...base, tx: null, db, commit: null });

    const scope: IdempotencyScope = {
      merchantId: apiKey.merchant.id,
      key: idempotencyHeader.value,
      method: request.method,
      path: url.pathname,
      hash: bodyHash(schemas.body ? parsedBody : undefined),
    };
    const stored = storedFromColumn(scope, auth.row.idempotencyRecord);
    if (stored) return replayed(base, stored);
    if (endpoint.idempotency === "statement") {
      const commit = async (response: StoredResponse, effects: Prisma.Sql, checks: Prisma.Sql): Promise<ApiResult> => {
        const outcome = await commitIdempotent(scope, response, effects, checks);
        return outcome.replayed ? { ...outcome.response, replayed: true } : outcome.response;
      };
      const result = await handler({ ...base, tx: null, db, commit });
      return result.replayed ? replayed(base, { status: result.status, body: result.body, resourceId: result.resourceId ?? null }) : result;
    }
    const outcome = await runIdempotent(
      db,
      scope,
      async (tx) => {
        const result = await handler({ ...base, tx, db: tx, commit: null });
        return { status: result.status, body: result.body, resourceId: result.resourceId ?? null };
      },
      { ...TX_OPTIONS, known: "absent" },
    );
    return outcome.replayed ? replayed(base, outcome.response) : outcome.response;
  }

  /** A stored answer, as the endpoint shows a replay (docs/api.md "Idempotency" 4). */
  async function replayed(base: Omit<AnyContext, "tx" | "db" | "commit">, stored: StoredResponse): Promise<ApiResult> {
    const replay = parts.replay ? await parts.replay({ ...base, tx: null, db: getDb(), commit: null }, stored) : stored;
    return { ...replay, headers: { "Idempotency-Replayed": "true" } };
  }

  /** The JSON body and query, parsed and validated; an error is kept to be thrown in the pipeline's order. */
  function checkInput(bytes: Buffer | null, request: Request) {
    return attempt(() => {
      const parsedBody = bytes ? parseJsonBody(bytes) : undefined;
      if (!schemas.body && parsedBody !== undefined) parseOrThrow(NO_BODY, parsedBody, "body");
      const body: unknown = schemas.body ? parseOrThrow(schemas.body, parsedBody, "body") : undefined;
      const query: unknown = schemas.query ? parseOrThrow(schemas.query, queryObject(requestQuery(request)), "query") : undefined;
      return { body, query, parsedBody };
    });
  }
}

/** Keys whose merchant's sandbox clock was last seen moved, at most this many (beyond it the guesses start over). */
const CLOCK_GUESSES_MAX = 10_000;

/**
 * The sandbox clock offset (milliseconds) the merchant of the key in `authorization` had when this process last
 * authenticated it: 0 for a key not seen with a moved clock. Only a guess, checked against the key's statement on
 * every request (docs/architecture.md "Hot paths"); `remember` records what that statement read. Keys are kept as a
 * SHA-256 of the header, never the header itself, and only while their merchant's clock is moved, so a process
 * whose merchants never move their clocks hashes nothing.
 */
function clockGuess(authorization: string | null): { offsetMs: bigint; remember: (offsetMs: bigint) => void } {
  const guesses = (processState().clockOffsetByKey ??= new Map<string, bigint>());
  let id: string | null = null;
  const keyId = () =>
    (id ??= createHash("sha256")
      .update(authorization ?? "")
      .digest("base64url"));
  const offsetMs = authorization && guesses.size > 0 ? (guesses.get(keyId()) ?? 0n) : 0n;
  return {
    offsetMs,
    remember: (seen) => {
      if (seen === offsetMs || !authorization) return;
      if (seen === 0n) guesses.delete(keyId());
      else {
        if (guesses.size >= CLOCK_GUESSES_MAX) guesses.clear();
        guesses.set(keyId(), seen);
      }
    },
  };
}

/** The value of `fn`, or the error it threw, to be thrown later. */
function attempt<T>(fn: () => T): { ok: true; value: T } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * The route's dynamic segments by name (a catch-all joined with `/`).
 * @throws Error when a `{name}` of the entry's path is not among them: the route file's folder and its operation
 *   entry disagree (a programming error, answered 500 INTERNAL_ERROR)
 */
async function resolveParams(route: RouteContext | undefined, endpoint: Endpoint): Promise<Record<string, string>> {
  const raw = (route ? await route.params : undefined) ?? {};
  const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
  for (const [, name] of endpoint.path.matchAll(/\{([^}]+)\}/g)) {
    if (name !== undefined && params[name] === undefined) throw new Error(`${endpoint.operationId}: its route gave no "${name}" path parameter`);
  }
  return params;
}
