// @sandpiper/client: a typed client of the Sandpiper API (docs/client.md). The types come from the service's OpenAPI
// document (src/schema.ts, src/operations.ts: generated); this file is the small hand-written layer on top of
// openapi-fetch: Idempotency-Keys, retries, typed errors and pages.
import { randomUUID } from "node:crypto";
import createFetchClient, { type Client, type FetchResponse, type MaybeOptionalInit } from "openapi-fetch";
import type { HttpMethod, PathsWithMethod, RequiredKeysOf } from "openapi-typescript-helpers";
import { errorFromAnswer, SandpiperError, type ErrorCode } from "./errors.js";
import { OPERATIONS, type OperationId } from "./operations.js";
import { retryingFetch, type RetryOptions } from "./retry.js";
import type { components, paths } from "./schema.js";

export { SandpiperError, type ErrorCode } from "./errors.js";
export {
  verifyCallback,
  listenerSecret,
  type CallbackEvent,
  type EventType,
  type VerifyFailureReason,
  type VerifyOptions,
  type VerifyResult,
} from "./callbacks.js";
export { OPERATIONS, type OperationId } from "./operations.js";
export type { RetryOptions } from "./retry.js";
export type { components, paths, webhooks, operations } from "./schema.js";

/** Every schema of the API by name, e.g. `Schemas["Payment"]`. */
export type Schemas = components["schemas"];
export type Payment = Schemas["Payment"];
export type CreatePayment = Schemas["CreatePayment"];
/** Why a FAILED payment failed (`payment.failure.code`): the union of the service's failure codes. */
export type FailureCode = Schemas["FailureCode"];

export type ClientOptions = RetryOptions & {
  /** The service's address, e.g. `http://localhost:3000` (no `/v1`). */
  baseUrl: string;
  /** A secret API key (`sk_sandbox_...`); sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Makes an Idempotency-Key for a request that needs one and was given none (default: a random UUID). */
  idempotencyKey?: () => string;
  /** The fetch to send with (default: the global fetch). */
  fetch?: typeof fetch;
};

type Operation = (typeof OPERATIONS)[OperationId];
/** The query parameters of `method` at `path` that are whole numbers (OPERATIONS' `numericQuery`). */
type NumericQuery<P, M> = Extract<Operation, { path: P; method: Uppercase<M & string> }>["numericQuery"][number];
/** A query with its whole-number parameters accepting a number too (sent as its decimal text). */
type WithNumbers<Q, N> = { [K in keyof Q]: K extends N ? Q[K] | number : Q[K] };

/**
 * The document's paths as the client takes them: the Idempotency-Key header optional (the client makes one when none
 * is given; the operations that require it are in OPERATIONS), and a whole-number query parameter (`limit`, `page`)
 * given as a number or as its text.
 */
export type ClientPaths = {
  [P in keyof paths]: {
    [M in keyof paths[P]]: paths[P][M] extends { parameters: infer Params extends Record<string, unknown> }
      ? Omit<paths[P][M], "parameters"> & {
          parameters: Omit<Params, "header" | "query"> &
            (Params extends { header: infer H } ? { header?: Partial<H> } : unknown) &
            (Params extends { query?: infer Q }
              ? undefined extends Params["query"]
                ? { query?: WithNumbers<Q, NumericQuery<P, M>> }
                : { query: WithNumbers<Q, NumericQuery<P, M>> }
              : unknown);
        }
      : paths[P][M];
  };
};

type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];
/** The answer's body of a successful call of `method` at `path` with the options `I`. */
type Answer<P extends keyof ClientPaths, M extends HttpMethod, I> = NonNullable<
  FetchResponse<ClientPaths[P][M & keyof ClientPaths[P]] & Record<string | number, any>, I, `${string}/${string}`>["data"]
>;
/** A method of the client: the typed path and options of openapi-fetch; resolves to the answer's body. */
type Call<M extends HttpMethod> = <P extends PathsWithMethod<ClientPaths, M>, I extends MaybeOptionalInit<ClientPaths[P], M>>(
  path: P,
  ...init: InitParam<I>
) => Promise<Answer<P, M, I>>;
/** The method named after an operation: its options (`{params, body}`) only, the path and method are the operation's. */
type OperationCall<K extends OperationId> = <
  I extends MaybeOptionalInit<ClientPaths[(typeof OPERATIONS)[K]["path"]], Lowercase<(typeof OPERATIONS)[K]["method"]>>,
>(
  ...init: InitParam<I>
) => Promise<Answer<(typeof OPERATIONS)[K]["path"], Lowercase<(typeof OPERATIONS)[K]["method"]>, I>>;
/** One method per operation of the document, named by its operationId (e.g. `client.updateScenarioRule`). */
export type OperationMethods = { [K in OperationId]: OperationCall<K> };

/** The paths of the lists the client pages through: every GET answering a page ({items, total, page, limit, pages}). */
export type ListPath = Extract<Operation, { paginated: true }>["path"];
type ListQuery<P extends ListPath> = Omit<NonNullable<ClientPaths[P]["get"]["parameters"]["query"]>, "page">;
type ListItem<P extends ListPath> = paths[P]["get"]["responses"][200]["content"]["application/json"]["items"][number];

export type SandpiperClient = OperationMethods & {
  GET: Call<"get">;
  POST: Call<"post">;
  PUT: Call<"put">;
  PATCH: Call<"patch">;
  DELETE: Call<"delete">;
  /**
   * Every item of a list (any ListPath: payments, events, logged requests, scenario rules, ...) matching `query`,
   * page after page (docs/client.md "Lists"), in the list's order; `query.limit` is the page size (default 100, the
   * largest) where the list takes one. Events with `query.after` (an event id): every event that became visible
   * after it, oldest first, following the cursor.
   * @throws SandpiperError as the list's requests do.
   */
  list<P extends ListPath>(path: P, query?: ListQuery<P>): AsyncGenerator<ListItem<P>, void, undefined>;
  /** The openapi-fetch client underneath (answers as `{data, error, response}`; the same keys and retries). */
  raw: Client<ClientPaths>;
};

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

const IDEMPOTENT = new Set(
  Object.values(OPERATIONS)
    .filter((o) => o.idempotent)
    .map((o) => `${o.method} ${o.path}`),
);

/**
 * Whether the operation at `method` and the path template `schemaPath` (e.g. `/v1/payments/{id}`) requires an
 * Idempotency-Key, as the OpenAPI document says.
 */
export function requiresIdempotencyKey(method: string, schemaPath: string): boolean {
  return IDEMPOTENT.has(`${method.toUpperCase()} ${schemaPath}`);
}

/**
 * A client of one service with one API key (docs/client.md). `GET`, `POST`, `PUT`, `PATCH` and `DELETE` take the path
 * as the API reference writes it and openapi-fetch's typed `{params: {path, query}, body}`; the method named after
 * each operationId (e.g. `createPayment`, `deleteScenarioRule`) takes the options only. Each resolves to the answer's
 * body; a whole-number query parameter may be a number. A request to an
 * operation that requires an Idempotency-Key gets one (unless `headers` gives it), kept across its retries; a
 * network error, 429 or 5xx is sent again with the same key and body (see {@link RetryOptions}).
 * @throws SandpiperError (from each method) for an error answer, after the retries: `status`, `code`, `message`, `requestId`.
 */
export function createClient(options: ClientOptions): SandpiperClient {
  const makeKey = options.idempotencyKey ?? (() => randomUUID());
  const raw = createFetchClient<ClientPaths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(options.fetch ?? globalThis.fetch, options),
  });
  raw.use({
    onRequest({ request, schemaPath }) {
      if (requiresIdempotencyKey(request.method, schemaPath) && !request.headers.has("idempotency-key")) request.headers.set("Idempotency-Key", makeKey());
      return request;
    },
  });
  const call =
    (method: Method) =>
    async (path: string, init?: Record<string, unknown>): Promise<unknown> => {
      const result = await (raw[method] as (p: string, i?: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(path, init);
      if (!result.response.ok) throw errorFromAnswer(result.response, result.error);
      return result.data;
    };
  const GET = call("GET") as (path: string, init: unknown) => Promise<unknown>;
  const pageQuery = new Map(Object.values(OPERATIONS).map((o) => [o.path, (o.numericQuery as readonly string[]).includes("page")]));
  async function* list<P extends ListPath>(path: P, query?: ListQuery<P>): AsyncGenerator<ListItem<P>, void, undefined> {
    let after = (query as { after?: string } | undefined)?.after;
    if (path === "/v1/events" && after !== undefined) {
      // The events feed after a cursor: oldest first, each page read after the last item of the one before.
      for (;;) {
        const answer = (await GET(path, { params: { query: { limit: 100, ...query, after } } })) as { items: (ListItem<P> & { id: string })[]; total: number };
        yield* answer.items;
        const last = answer.items.at(-1);
        if (!last || answer.total <= answer.items.length) return;
        after = last.id;
      }
    }
    // A list without page and limit parameters (every item on one page) is read once.
    const paged = pageQuery.get(path) === true;
    for (let page = 1; ; page++) {
      const answer = (await GET(path, { params: { query: paged ? { limit: 100, ...query, page } : query } })) as {
        items: ListItem<P>[];
        page: number;
        pages: number;
      };
      yield* answer.items;
      if (!paged || answer.items.length === 0 || answer.page >= answer.pages) return;
    }
  }
  const named = Object.fromEntries(
    Object.entries(OPERATIONS).map(([operationId, o]) => {
      const send = call(o.method);
      return [operationId, (init?: Record<string, unknown>) => send(o.path, init)];
    }),
  ) as unknown as OperationMethods;
  return {
    ...named,
    GET: GET as Call<"get">,
    POST: call("POST") as Call<"post">,
    PUT: call("PUT") as Call<"put">,
    PATCH: call("PATCH") as Call<"patch">,
    DELETE: call("DELETE") as Call<"delete">,
    list,
    raw,
  };
}

/** Whether `error` is a SandpiperError with `code`. */
export function isApiError(error: unknown, code?: ErrorCode): error is SandpiperError {
  return error instanceof SandpiperError && (code === undefined || error.code === code);
}
