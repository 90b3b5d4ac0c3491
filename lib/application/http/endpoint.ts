import type { z } from "zod";
import type { Prisma } from "@/lib/platform/generated/prisma/client";
import type { Scope } from "@/lib/domain/keys/api-keys";

/**
 * How an endpoint keeps its `Idempotency-Key` (docs/architecture.md "Request pipeline", "Consistency"): `"none"`: no
 * key; `"transaction"`: the key is required and the handler runs inside the idempotency transaction (`ctx.tx`);
 * `"statement"`: the key is required and the handler writes its answer and effects in one statement through
 * `ctx.commit`, with no interactive transaction (a hot path, docs/architecture.md "Hot paths").
 */
export type Idempotency = "none" | "transaction" | "statement";

/**
 * What the request pipeline (lib/application/http/pipeline.ts `merchantApi`) runs an endpoint with: the part of an operation
 * entry of lib/application/openapi/operations.ts that is not documentation (docs/architecture.md "Request pipeline"). The entry
 * is the one place these are set; a route file passes the entry itself.
 */
export type Endpoint = {
  operationId: string;
  /** OpenAPI path template, e.g. `/v1/payments/{id}`: its `{name}` parameters are the handler's `params`. */
  path: string;
  scope: Scope;
  idempotency: Idempotency;
  /** docs/api.md "Authentication" 6: the source IP must be on the merchant's server allow-list. */
  allowList: boolean;
  /** Responses carry customer data: `Cache-Control: no-store`. */
  noStore: boolean;
  /** Request body (a registered component schema): what the document publishes. */
  body?: z.ZodType;
  /**
   * The schema the request pipeline validates the body with, when a domain rule must answer a member's absence
   * with its own code (missing customer members -> 400 CUSTOMER_PROFILE_REQUIRED). Derived from `body` with
   * `.extend` (only members made optional), so it accepts everything `body` accepts and refuses every member
   * `body` forbids; lib/application/openapi/operations.test.ts checks that. Default: `body`.
   */
  bodyValidator?: z.ZodType;
  /** Query parameters (a strict object schema; each member is one parameter). */
  query?: z.ZodObject;
  /**
   * The endpoint reads what it needs in the key's statement (docs/architecture.md "Hot paths"): its route passes the
   * {@link Load} exported beside its service, which names this operation; `merchantApi` refuses a missing, extra or
   * other operation's load (types, and once when the route module loads).
   */
  load?: true;
  /** Also answers `Accept: text/event-stream` with server-sent events (documented beside the JSON answer). */
  eventStream?: string;
  /** The success answer: its status and the schema its body satisfies (handlers are typed against it). */
  success: { status: 200 | 201; schema: z.ZodType };
};

/** The schema the pipeline validates an endpoint's body with: `bodyValidator` when declared, else `body`. */
export type BodySchemaOf<E> = E extends { bodyValidator: infer V extends z.ZodType } ? V : E extends { body?: infer B } ? B : undefined;
/** The endpoint's query schema, or undefined. */
export type QuerySchemaOf<E> = E extends { query?: infer Q } ? Q : undefined;
/** A validated input as the handler receives it (`z.output` of its schema; undefined without one). */
export type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * The schemas the pipeline validates an endpoint's input with, read once when its route module loads: the body with
 * `bodyValidator` when the entry has one (see {@link Endpoint}), else with the published `body`; the query as
 * published. {@link BodySchemaOf} is the same choice for the handler's types.
 */
export function requestSchemas(endpoint: Endpoint): { body: z.ZodType | undefined; query: z.ZodObject | undefined } {
  return { body: endpoint.bodyValidator ?? endpoint.body, query: endpoint.query };
}

/**
 * The body of an endpoint's success answer: what its success schema accepts (`z.input`, the side the OpenAPI document
 * publishes). The pipeline writes the body as JSON without parsing it again (no work per request), so this type is
 * what guarantees the shape: a body of JSON values that the schema accepts is sent as it is.
 */
export type SuccessBody<E extends Endpoint> = z.input<E["success"]["schema"]>;

/**
 * A handler's success answer, typed against the endpoint's entry: `status` its success status, `body` a
 * {@link SuccessBody}. `resourceId` lets a replay re-read the current state (store payments); `replayed` is set by
 * `ctx.commit` when a concurrent identical request answered first. Errors are thrown (lib/contract/errors.ts `ApiError`).
 */
export type JsonAnswer<E extends Endpoint> = {
  status: E["success"]["status"];
  body: SuccessBody<E>;
  resourceId?: string | null;
  headers?: Record<string, string>;
  stream?: undefined;
  replayed?: boolean;
};

/** An answer written over time (server-sent events), for endpoints whose entry declares `eventStream`. */
export type StreamAnswer<E extends Endpoint> = {
  status: E["success"]["status"];
  body: null;
  headers: Record<string, string>;
  stream: ReadableStream<Uint8Array>;
};

/** What a handler of endpoint `E` answers: JSON, or a stream where the entry declares one. */
export type Answer<E extends Endpoint> = JsonAnswer<E> | (E extends { eventStream: string } ? StreamAnswer<E> : never);

/** An idempotent endpoint's stored first answer (only success answers are stored). */
export type StoredAnswer<E extends Endpoint> = { status: E["success"]["status"]; body: SuccessBody<E>; resourceId: string | null };

/** The names of the `{name}` parameters of a path template such as `/v1/payments/{id}` (a union of literals). */
export type PathParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | PathParamNames<Rest> : never;

/**
 * The path parameters of endpoint `E` by name, from its operation entry's `path` template (`{ id: string }` for
 * `/v1/payments/{id}`); the request pipeline checks each is present before the handler runs.
 */
export type PathParams<E> = E extends { path: infer P extends string } ? { readonly [K in PathParamNames<P>]: string } : Readonly<Record<never, string>>;

/** What an endpoint reads in the request's one authentication statement, from its validated input and path parameters. */
export type LoadInput<B, Q, P = Readonly<Record<never, string>>> = { body: B; query: Q; params: P; now: Date };

/**
 * An endpoint's reads in the request's one authentication statement (docs/architecture.md "Hot paths"), exported
 * beside the service that uses them. `operationId`: the operation it serves (its entry says `load: true`). `sql`: a
 * SELECT run as a LATERAL join of the statement (it sees the key's merchant as `m`; null reads nothing, e.g. for a
 * malformed id). `parse`: checks the row's columns (an empty row when `sql` read nothing) and gives the handler's
 * typed `loaded`, so a column renamed on one side fails there (a zod error: 500), never reads as a silent `undefined`.
 */
export type Load<In, L> = { operationId: string; sql: (input: In) => Prisma.Sql | null; parse: (row: Record<string, unknown>) => L };

/** The load endpoint `E` runs with: its input typed from the entry's schemas, naming the entry's operation. */
export type LoadOf<E extends Endpoint, L> = Load<LoadInput<Parsed<BodySchemaOf<E>>, Parsed<QuerySchemaOf<E>>, PathParams<E>>, L> & {
  operationId: E["operationId"];
};
