// @sandpiper/client: a typed client of the Sandpiper API (docs/client.md). The types come from the service's OpenAPI
// document (src/schema.ts, src/operations.ts: generated); this file is the small hand-written layer on top of
// openapi-fetch: Idempotency-Keys, retries, typed errors and pages.
import { randomUUID } from "node:crypto";
import createFetchClient, { type Client, type FetchResponse, type MaybeOptionalInit } from "openapi-fetch";
import type { HttpMethod, PathsWithMethod, RequiredKeysOf } from "openapi-typescript-helpers";
import { errorFromAnswer, SandpiperError, type ErrorCode } from "./errors.js";
import { OPERATIONS } from "./operations.js";
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

/**
 * The document's paths with the Idempotency-Key header optional: the client makes one when none is given. The
 * operations that require it are in OPERATIONS.
 */
export type ClientPaths = {
  [P in keyof paths]: {
    [M in keyof paths[P]]: paths[P][M] extends { parameters: { header: infer H } }
      ? Omit<paths[P][M], "parameters"> & { parameters: Omit<paths[P][M]["parameters"], "header"> & { header?: Partial<H> } }
      : paths[P][M];
  };
};

type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];
/** A method of the client: the typed path and options of openapi-fetch; resolves to the answer's body. */
type Call<M extends HttpMethod> = <P extends PathsWithMethod<ClientPaths, M>, I extends MaybeOptionalInit<ClientPaths[P], M>>(
  path: P,
  ...init: InitParam<I>
) => Promise<NonNullable<FetchResponse<ClientPaths[P][M] & Record<string | number, any>, I, `${string}/${string}`>["data"]>>;

/** The paths of the lists the client pages through. */
export type ListPath = "/v1/payments" | "/v1/events" | "/v1/requests";
type ListQuery<P extends ListPath> = Omit<NonNullable<paths[P]["get"]["parameters"]["query"]>, "page">;
type ListItem<P extends ListPath> = paths[P]["get"]["responses"][200]["content"]["application/json"]["items"][number];

export type SandpiperClient = {
  GET: Call<"get">;
  POST: Call<"post">;
  PUT: Call<"put">;
  /**
   * Every item of a list (payments, events or logged requests) matching `query`, page after page (docs/client.md
   * "Lists"), in the list's order; `query.limit` is the page size (default 100, the largest). Events with
   * `query.after` (an event id): every event that became visible after it, oldest first, following the cursor.
   * @throws SandpiperError as the list's requests do.
   */
  list<P extends ListPath>(path: P, query?: ListQuery<P>): AsyncGenerator<ListItem<P>, void, undefined>;
  /** The openapi-fetch client underneath (answers as `{data, error, response}`; the same keys and retries). */
  raw: Client<ClientPaths>;
};

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
 * A client of one service with one API key (docs/client.md). Each method takes the path as the API reference writes
 * it and openapi-fetch's typed `{params: {path, query}, body}`, and resolves to the answer's body. A request to an
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
    (method: "GET" | "POST" | "PUT") =>
    async (path: string, init?: Record<string, unknown>): Promise<unknown> => {
      const result = (await (raw[method] as (p: string, i?: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(path, init)) as {
        data?: unknown;
        error?: unknown;
        response: Response;
      };
      if (!result.response.ok) throw errorFromAnswer(result.response, result.error);
      return result.data;
    };
  const GET = call("GET") as Call<"get">;
  async function* list<P extends ListPath>(path: P, query?: ListQuery<P>): AsyncGenerator<ListItem<P>, void, undefined> {
    let after = (query as { after?: string } | undefined)?.after;
    if (path === "/v1/events" && after !== undefined) {
      // The events feed after a cursor: oldest first, each page read after the last item of the one before.
      for (;;) {
        const answer = await (GET as (p: string, i: unknown) => Promise<{ items: (ListItem<P> & { id: string })[]; total: number }>)(path, {
          params: { query: { limit: "100", ...query, after } },
        });
        yield* answer.items;
        if (answer.items.length === 0 || answer.total <= answer.items.length) return;
        after = answer.items[answer.items.length - 1].id;
      }
    }
    for (let page = 1; ; page++) {
      const answer = await (GET as (p: string, i: unknown) => Promise<{ items: ListItem<P>[]; page: number; pages: number }>)(path, {
        params: { query: { limit: "100", ...query, page: String(page) } },
      });
      yield* answer.items;
      if (answer.items.length === 0 || answer.page >= answer.pages) return;
    }
  }
  return { GET, POST: call("POST") as Call<"post">, PUT: call("PUT") as Call<"put">, list, raw };
}

/** Whether `error` is a SandpiperError with `code`. */
export function isApiError(error: unknown, code?: ErrorCode): error is SandpiperError {
  return error instanceof SandpiperError && (code === undefined || error.code === code);
}
