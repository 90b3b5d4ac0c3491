import { z } from "zod";
import { API_ERROR_CODES, ERROR_STATUS, type ErrorCode } from "@/lib/contract/errors";
import { EVENT_TYPES } from "@/lib/contract/schemas/api/events";
import { callbackHeaderNames } from "@/lib/contract/callbacks/signing";
import { IDEMPOTENCY_KEY_PATTERN } from "@/lib/application/http/idempotency";
import { ERROR_MEANINGS } from "@/lib/application/openapi/error-codes";
import { OPERATION_LIST, operationErrors, type Operation } from "@/lib/application/openapi/operations";
import { CUSTOMER_OPERATION_LIST, CUSTOMER_PAGES_TAG, customerOperationErrors, type CustomerOperation } from "@/lib/application/openapi/customer-operations";
import { CustomerPageAmount, CustomerSessionAnswer, StoreConfirmationAnswer } from "@/lib/contract/schemas/api/customer-pages";
import { CheckoutSession } from "@/lib/contract/schemas/api/checkout-session-resource";
import { CreateCheckoutSession } from "@/lib/contract/schemas/api/checkout-sessions";
import { Customer } from "@/lib/contract/schemas/api/common";
import { ErrorCode as ErrorCodeSchema, ErrorEnvelope } from "@/lib/contract/schemas/api/error-resource";
import { RequestLogEntry, RequestLogList } from "@/lib/contract/schemas/api/requests";
import {
  Event,
  EventEnvelope,
  EventList,
  EventRedelivery,
  EventStreamPage,
  EventSummary,
  ForwardsRecorded,
  ListenerForward,
  RecordForwards,
} from "@/lib/contract/schemas/api/events";
import { CheckoutObject, Payment, PaymentList, PaymentSummary, PricingSnapshot } from "@/lib/contract/schemas/api/payment-resource";
import { CompletePayment, CompleteSandboxPayment, CreatePayment } from "@/lib/contract/schemas/api/payments";
import { FailureCode, PaymentFailure } from "@/lib/contract/schemas/api/failure-codes";
import {
  CreateScenarioRule,
  DeletedScenarioRule,
  PaymentScenario,
  ScenarioMatch,
  ScenarioRule,
  ScenarioRuleList,
  UpdateScenarioRule,
} from "@/lib/contract/schemas/api/scenario-rules";
import {
  AdvanceSandboxClock,
  CallbackSecretRotation,
  CallbackSecretState,
  ListenerSecretRotation,
  ListenerSecretState,
  RotateSecret,
  QuotedCheckoutSession,
  SandboxClock,
  SandboxClockMove,
  SandboxDelivery,
  SandboxSettings,
  SessionAmount,
  UpdateSandboxSettings,
} from "@/lib/contract/schemas/api/sandbox";
import { StorePayment } from "@/lib/contract/schemas/api/store-payment-resource";
import { CreateStorePayment } from "@/lib/contract/schemas/api/store-payments";

/** docs/api.md "Versioning" 2: the machine-readable contract is at version 1.5.0. */
export const CONTRACT_VERSION = "1.5.0";

/** The named schemas of the document (`#/components/schemas/<name>`); operation bodies and results must be here. */
const COMPONENTS = {
  Payment,
  PaymentSummary,
  PaymentList,
  PricingSnapshot,
  CheckoutObject,
  Customer,
  Error: ErrorEnvelope,
  ErrorCode: ErrorCodeSchema,
  CreatePayment,
  CompletePayment,
  CompleteSandboxPayment,
  FailureCode,
  PaymentFailure,
  StorePayment,
  CreateStorePayment,
  CheckoutSession,
  CreateCheckoutSession,
  EventEnvelope,
  Event,
  EventSummary,
  EventList,
  EventRedelivery,
  EventStreamPage,
  RecordForwards,
  ForwardsRecorded,
  ListenerForward,
  RequestLogEntry,
  RequestLogList,
  SessionAmount,
  QuotedCheckoutSession,
  SandboxDelivery,
  SandboxSettings,
  UpdateSandboxSettings,
  ScenarioRule,
  ScenarioRuleList,
  ScenarioMatch,
  CreateScenarioRule,
  UpdateScenarioRule,
  DeletedScenarioRule,
  PaymentScenario,
  SandboxClock,
  SandboxClockMove,
  AdvanceSandboxClock,
  CallbackSecretState,
  CallbackSecretRotation,
  RotateSecret,
  ListenerSecretState,
  ListenerSecretRotation,
  CustomerPageAmount,
  CustomerSessionAnswer,
  StoreConfirmationAnswer,
} satisfies Record<string, z.ZodType>;

export type JsonSchema = { [key: string]: unknown };
type Ref = { $ref: string };
export type ResponseObject = { description: string; headers?: Record<string, Ref>; content?: Record<string, { schema: JsonSchema; example?: unknown }> };
export type ParameterObject = { name: string; in: "path" | "query" | "header"; required: boolean; description?: string; schema: JsonSchema };
export type OperationObject = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: (ParameterObject | Ref)[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema; example?: unknown }> };
  responses: Record<string, ResponseObject>;
  [extension: `x-${string}`]: unknown;
};
export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  /** The callbacks the service sends (OpenAPI 3.1 webhooks), one per event type. */
  webhooks: Record<string, { post: OperationObject }>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
    parameters: Record<string, ParameterObject>;
    headers: Record<string, { description: string; schema: JsonSchema }>;
  };
  "x-error-codes": { code: ErrorCode; status: number; meaning: string }[];
};

const schemaRef = (name: string): Ref => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string): Ref => ({ $ref: `#/components/headers/${name}` });

/** zod `.describe()` text lives in the global registry; the document's own registry only names components. */
function withDescriptions(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }) {
  const description = z.globalRegistry.get(ctx.zodSchema as z.ZodType)?.description;
  if (description && !ctx.jsonSchema.description) ctx.jsonSchema.description = description;
}

function componentSchemas(): { schemas: Record<string, JsonSchema>; nameOf: Map<z.ZodType, string> } {
  const registry = z.registry<{ id: string }>();
  const nameOf = new Map<z.ZodType, string>();
  for (const [id, schema] of Object.entries(COMPONENTS)) {
    registry.add(schema, { id });
    nameOf.set(schema, id);
  }
  const generated = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io: "input",
    uri: (id) => `#/components/schemas/${id}`,
    override: withDescriptions,
  }) as { schemas: Record<string, JsonSchema> };
  const schemas = Object.fromEntries(Object.entries(generated.schemas).map(([id, { $schema: _s, $id: _i, ...rest }]) => [id, rest]));
  return { schemas, nameOf };
}

/** A standalone (unnamed) schema, e.g. one query parameter. */
function inlineSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", override: withDescriptions }) as JsonSchema;
  return rest;
}

function errorResponse(status: number, codes: ErrorCode[]): ResponseObject {
  const headers: Record<string, Ref> = { "X-Request-Id": headerRef("X-Request-Id") };
  if (status === 401) headers["WWW-Authenticate"] = headerRef("WWW-Authenticate");
  if (status === 429 || codes.includes("SERVICE_UNAVAILABLE")) headers["Retry-After"] = headerRef("Retry-After");
  return {
    description: codes.map((code) => `${code}: ${ERROR_MEANINGS[code]}`).join("\n"),
    headers,
    content: {
      "application/json": {
        // The envelope, with `code` narrowed to the codes this operation answers with this status.
        schema: { allOf: [schemaRef("Error"), { type: "object", properties: { error: { type: "object", properties: { code: { enum: codes } } } } }] },
      },
    },
  };
}

/** The error responses of an operation's codes, one per status, in status order. */
function errorResponses(errorCodes: ErrorCode[]): Record<string, ResponseObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries([...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => [status, errorResponse(status, codes)]));
}

/** The reference to a named component, or a thrown Error naming the operation when `schema` is not one. */
function componentOf(nameOf: Map<z.ZodType, string>, operationId: string) {
  return (schema: z.ZodType, what: string): Ref => {
    const name = nameOf.get(schema);
    if (!name) throw new Error(`${operationId}: the ${what} schema is not a named component; add it to COMPONENTS`);
    return schemaRef(name);
  };
}

/**
 * A customer page's action (lib/application/openapi/customer-operations.ts): no API key (`security: []`), the link's token as
 * the `{token}` path parameter, `x-bearer-link: true`; answers carry X-Request-Id and Cache-Control no-store.
 */
function buildCustomerOperation(op: CustomerOperation, nameOf: Map<z.ZodType, string>): OperationObject {
  const component = componentOf(nameOf, op.operationId);
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    tags: [op.tag],
    security: [],
    parameters: [{ name: "token", in: "path", required: true, description: op.token, schema: { type: "string" } }],
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: component(op.body, "request body"), ...(op.example ? { example: op.example } : {}) } },
          },
        }
      : {}),
    responses: {
      [op.success.status]: {
        description: op.success.description,
        headers: { "X-Request-Id": headerRef("X-Request-Id"), "Cache-Control": headerRef("Cache-Control") },
        content: { "application/json": { schema: component(op.success.schema, "success") } },
      },
      ...errorResponses(customerOperationErrors(op)),
    },
    "x-bearer-link": true,
  };
}

function buildOperation(op: Operation, nameOf: Map<z.ZodType, string>): OperationObject {
  const component = componentOf(nameOf, op.operationId);
  const parameters: (ParameterObject | Ref)[] = [];
  if (op.pathId) parameters.push({ name: "id", in: "path", required: true, description: op.pathId.description, schema: { type: "string", format: "uuid" } });
  for (const [name, member] of Object.entries(op.query?.shape ?? {})) {
    parameters.push({ name, in: "query", required: !member.safeParse(undefined).success, schema: inlineSchema(member) });
  }
  if (op.idempotent) parameters.push({ $ref: "#/components/parameters/Idempotency-Key" });

  const successHeaders: Record<string, Ref> = { "X-Request-Id": headerRef("X-Request-Id") };
  if (op.idempotent) successHeaders["Idempotency-Replayed"] = headerRef("Idempotency-Replayed");
  if (op.noStore) successHeaders["Cache-Control"] = headerRef("Cache-Control");
  const responses: Record<string, ResponseObject> = {
    [op.success.status]: {
      description: op.success.description,
      headers: successHeaders,
      content: {
        "application/json": { schema: component(op.success.schema, "success") },
        ...(op.eventStream ? { "text/event-stream": { schema: { type: "string", description: op.eventStream } } } : {}),
      },
    },
  };
  Object.assign(responses, errorResponses(operationErrors(op)));

  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description + (op.merchantFlow === "amount-entry" ? " Requires customer amount-entry to be enabled for the merchant." : ""),
    tags: [op.tag],
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: component(op.body, "request body"), ...(op.example ? { example: op.example } : {}) } },
          },
        }
      : {}),
    responses,
    "x-scope": op.scope,
    "x-idempotent": op.idempotent,
    "x-ip-allow-list": op.allowList,
  };
}

const DESCRIPTION = `Sandbox payment orchestration: deposits, withdrawals, fixed-amount store checkout and customer amount-entry sessions. Sandbox only: no real charge or money movement ever occurs; every payment has environment = sandbox.

Requests and responses are application/json, UTF-8 (request bodies at most 32 KiB, member names unique, strings well-formed Unicode without NUL; references, names and descriptions also without bidirectional control characters U+202A to U+202E and U+2066 to U+2069 or the separators U+2028 and U+2029). Amounts are decimal strings, never JSON numbers. Timestamps are ISO 8601 in UTC. Record identifiers are UUIDs. All paths of the merchant API carry the prefix /v1; the customer pages' own actions (tag Customer pages, under /checkout and /store) take no API key: the link's token in their path is the credential.

Authentication: Authorization: Bearer <API_KEY> with a server-side sandbox key (sk_sandbox_...). A key is bound to one merchant, valid 90 days, and carries scopes payments:read, payments:create and sandbox:simulate. POST /v1/store-payments and POST /v1/checkout-sessions also require an approved merchant server IP address.

Idempotency: where an operation lists the Idempotency-Key header it is required (8 to 128 characters of letters, digits, '-', '_', '.', ':'). The key is bound to merchant, method, path and body; a replay carries Idempotency-Replayed: true; the same key with a different body answers 409 IDEMPOTENCY_CONFLICT. On a time-out, retry with the same key and body.

Errors: every non-2xx response under /v1 is {"error": {"code", "message", "requestId"}}; every response carries X-Request-Id (equal to requestId). The message of a request sent with a valid key ends with where to look it up in the request log (GET /v1/requests/{requestId}, or the console's Requests page) while the log is on; branch on code, never on the message. Retry only transient errors (429 after Retry-After, 500, 503) with the same Idempotency-Key and body. An unknown path under /v1 answers 404 NOT_FOUND and an unserved method 405 METHOD_NOT_ALLOWED with an Allow header. Limits: 300 requests a minute per API key and 600 per source IP.

This document is public (no API key needed) at /v1/openapi.json; a readable reference is at /docs.`;

/** The callbacks part of the contract (docs/guides/receive-and-verify-callbacks.md "Receiving callbacks"): also shown on /docs. */
export const CALLBACK_RULES = {
  signing:
    "X-Service-Signature is the lowercase hex (64 characters) HMAC-SHA256 of the bytes of the timestamp header's text, a '.', and the raw request body as received. The key is the whole callback secret string, 'whsec_' included, as UTF-8 bytes: it is not base64-decoded (as Standard Webhooks libraries do). Compare in constant time. The secret is shown once, when the callback address is saved; saving an address again generates a new one.",
  receiver: [
    "Verify the signature against the raw body (no JSON re-serialisation), in constant time.",
    "Refuse a timestamp more than 300 seconds from your clock, and a request whose X-Service-Event-Id differs from the body's id.",
    "Compare reference, original amount, currency and environment with your own record.",
    "Store the event id as unique, in the same transaction as the order update.",
    "Answer 2xx only after that commit, and also to an event you already processed; at most 64 KiB of your answer is read.",
  ],
  delivery:
    "At least once: duplicates are possible (same event id, new timestamp). Time-out 5 s; any non-2xx answer, time-out or connection failure is retried, at most 8 attempts, with waits growing from 30 s to 1 h; redirects are not followed. Callbacks go to the configured public https address on port 443; to receive them on a developer's machine use `sandpiper listen` (docs/callbacks.md). Every event can also be read, followed and redelivered through the Events operations.",
} as const;

/** One webhook of the document: the callback of one event type. */
function webhook(type: (typeof EVENT_TYPES)[number]): { post: OperationObject } {
  const names = callbackHeaderNames();
  const header = (name: string, description: string, schema: JsonSchema): ParameterObject => ({ name, in: "header", required: true, description, schema });
  const when = {
    "payment.succeeded": "a payment becomes SUCCEEDED",
    "payment.failed": "a payment becomes FAILED",
    "payment.expired": "a pending payment becomes EXPIRED",
  }[type];
  return {
    post: {
      operationId: `${type.replace(/\.(\w)/, (_m, c: string) => c.toUpperCase())}Callback`,
      summary: `${type}: sent when ${when}`,
      description: `${CALLBACK_RULES.signing}\n\n${CALLBACK_RULES.delivery}`,
      tags: ["Events"],
      security: [],
      parameters: [
        header(names.eventId, "The event id; equals the body's id and stays the same across retries and redeliveries.", { type: "string", format: "uuid" }),
        header(names.timestamp, "Unix seconds (10 digits), renewed on every attempt; refuse one more than 300 s from your clock.", {
          type: "string",
          pattern: "^[0-9]{10}$",
        }),
        header(names.signature, "Lowercase hex HMAC-SHA256 of timestamp + '.' + raw body, keyed with the whole whsec_... secret as UTF-8 bytes.", {
          type: "string",
          pattern: "^[0-9a-f]{64}$",
        }),
      ],
      requestBody: {
        required: true,
        content: { "application/json": { schema: { allOf: [schemaRef("EventEnvelope"), { type: "object", properties: { type: { const: type } } }] } } },
      },
      responses: {
        "2XX": { description: "Received and durably stored (or already processed). A short body is enough; at most 64 KiB is read." },
        default: { description: "Anything else (or no answer within 5 s) is retried, at most 8 attempts in all." },
      },
    },
  };
}

let cached: OpenApiDocument | undefined;

/**
 * The OpenAPI 3.1 document of the merchant API, built from the zod schemas (lib/contract/schemas) and the operations
 * registry (lib/application/openapi/operations.ts, and lib/application/openapi/customer-operations.ts for the customer pages' actions, which take
 * no API key): every endpoint, the bearer security scheme, the Idempotency-Key request
 * header, the Idempotency-Replayed, Retry-After and X-Request-Id response headers, and every error code with
 * its status (lib/contract/errors.ts). Built once per process.
 * @throws Error when an operation's body or success schema is not a named component (a programming error).
 */
export function openApiDocument(): OpenApiDocument {
  if (cached) return cached;
  const { schemas, nameOf } = componentSchemas();
  const paths: OpenApiDocument["paths"] = {};
  for (const op of OPERATION_LIST) {
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: buildOperation(op, nameOf) };
  }
  for (const op of CUSTOMER_OPERATION_LIST) {
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: buildCustomerOperation(op, nameOf) };
  }
  paths["/v1/openapi.json"] = {
    get: {
      operationId: "getOpenApiDocument",
      summary: "This document",
      description: "The machine-readable contract. Public: no API key needed.",
      tags: ["Contract"],
      security: [],
      responses: { 200: { description: "The OpenAPI 3.1 document.", content: { "application/json": { schema: { type: "object" } } } } },
    },
  };
  cached = {
    openapi: "3.1.0",
    info: { title: "Sandpiper merchant API", version: CONTRACT_VERSION, description: DESCRIPTION },
    servers: [{ url: "/", description: "This Sandpiper instance" }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "Payments", description: "Sandbox deposits and withdrawals." },
      { name: "Store payments", description: "Fixed-amount store checkout (legacy flow)." },
      { name: "Checkout sessions", description: "Customer amount-entry flow." },
      { name: "Sandbox", description: "Simulation of test results; no money moves." },
      { name: "Events", description: "The callbacks' events: list, follow with a cursor, read with deliveries, redeliver, stream to listeners." },
      { name: "Requests", description: "The request log: every API request of the merchant's keys, with its answer, for debugging by requestId." },
      {
        name: CUSTOMER_PAGES_TAG,
        description:
          "What the hosted customer pages send: the checkout page's quote and confirm, the store page's test Pay and Decline. Not for the merchant's server and not in the client: no API key, the link's token in the path is the credential (a bearer link). Limited per source IP and per link (429 RATE_LIMITED with Retry-After).",
      },
      { name: "Contract", description: "This document." },
    ],
    paths,
    webhooks: Object.fromEntries(EVENT_TYPES.map((type) => [type, webhook(type)])),
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "sk_sandbox_<base62>",
          description: "Server-side sandbox API key. Never put it in browser or mobile code.",
        },
      },
      parameters: {
        "Idempotency-Key": {
          name: "Idempotency-Key",
          in: "header",
          required: true,
          description: "Binds the request to merchant, method, path and body; retry with the same key and body.",
          schema: { type: "string", minLength: 8, maxLength: 128, pattern: IDEMPOTENCY_KEY_PATTERN.source },
        },
      },
      headers: {
        "X-Request-Id": {
          description: "Request id (uuid), on every response; equals error.requestId. Keep it for support.",
          schema: { type: "string", format: "uuid" },
        },
        "Idempotency-Replayed": { description: "true on a replayed response of an idempotent request.", schema: { type: "string", const: "true" } },
        "Retry-After": {
          description: "Whole seconds to wait before retrying with the same Idempotency-Key and body.",
          schema: { type: "string", pattern: "^[0-9]+$" },
        },
        "WWW-Authenticate": { description: "Bearer", schema: { type: "string", const: "Bearer" } },
        "Cache-Control": { description: "no-store: the response carries customer data.", schema: { type: "string", const: "no-store" } },
      },
    },
    "x-error-codes": API_ERROR_CODES.map((code) => ({ code, status: ERROR_STATUS[code], meaning: ERROR_MEANINGS[code] })),
  };
  return cached;
}
