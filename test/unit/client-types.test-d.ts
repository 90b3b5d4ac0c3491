// Type-level tests of the TypeScript client (docs/client.md "Requests", "Lists"): every operation of the OpenAPI
// document is a named method, list() takes every paginated list, whole-number query parameters take numbers, and
// error codes are the document's union. Checked by `tsc --noEmit` (tsconfig.json includes every .ts file) and never
// run: each `@ts-expect-error` fails the type check when the line under it compiles. The runtime side (the method
// list against the document itself) is test/unit/client-operations.test.ts.
import { expectTypeOf } from "vitest";
import type * as cliTypes from "../../clients/cli/types/main";
import {
  createClient,
  type ErrorCode,
  type ListPath,
  type OperationId,
  type OperationMethods,
  type SandpiperClient,
  type Schemas,
} from "../../clients/typescript/src/index";
import type { operations, paths, webhooks } from "../../clients/typescript/src/schema";
import { main, MAIN_HELP } from "@/clients/cli/src/main";

declare const client: SandpiperClient;

/** A GET operation of the document whose 200 answer is the page envelope. */
type PaginatedPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { "application/json": infer B } } } } }
    ? B extends { items: unknown[]; total: number; page: number; limit: number; pages: number }
      ? P
      : never
    : never;
}[keyof paths];
/** A callback's operation (the document's `webhooks`): sent by the service, not called by the client. */
type WebhookOperation = { [N in keyof webhooks]: webhooks[N][keyof webhooks[N]] }[keyof webhooks];
/** Every operationId under the document's paths, from the generated `operations` interface (not from OPERATIONS). */
type DocumentOperationId = { [K in keyof operations]: operations[K] extends WebhookOperation ? never : K }[keyof operations];

/** Every operation of the document has a method on the client, and nothing else is named after one. */
export function everyOperation() {
  expectTypeOf<DocumentOperationId>().toEqualTypeOf<OperationId>();
  expectTypeOf<keyof OperationMethods>().toEqualTypeOf<DocumentOperationId>();
  const methods: { [K in DocumentOperationId]: (...args: never[]) => Promise<unknown> } = client;
  expectTypeOf(createClient).returns.toEqualTypeOf<SandpiperClient>();
  return methods;
}

/** PATCH and DELETE: typed paths and bodies, on the generic methods and the named ones. */
export async function patchAndDelete(id: string) {
  const updated = await client.updateScenarioRule({ params: { path: { id } }, body: { enabled: false } });
  expectTypeOf(updated).toEqualTypeOf<Schemas["ScenarioRule"]>();
  expectTypeOf(await client.PATCH("/v1/sandbox/scenario-rules/{id}", { params: { path: { id } }, body: { enabled: true } })).toEqualTypeOf<
    Schemas["ScenarioRule"]
  >();
  await client.DELETE("/v1/sandbox/scenario-rules/{id}", { params: { path: { id } } });
  await client.deleteScenarioRule({ params: { path: { id } } });
  // @ts-expect-error the path parameter is required
  await client.deleteScenarioRule({});
  // @ts-expect-error DELETE has no such path
  await client.DELETE("/v1/payments/{id}", { params: { path: { id } } });
  const payment = await client.createPayment({ body: { reference: "r", amount: "1.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" } });
  expectTypeOf(payment).toEqualTypeOf<Schemas["Payment"]>();
  // @ts-expect-error amount is decimal text, not a number
  await client.createPayment({ body: { reference: "r", amount: 1, currency: "USD", method: "GATEWAY", direction: "DEPOSIT" } });
}

/** list() takes exactly the paginated lists of the document; each item is the list's item type. */
export async function lists() {
  expectTypeOf<ListPath>().toEqualTypeOf<PaginatedPath>();
  expectTypeOf<ListPath>().toEqualTypeOf<"/v1/payments" | "/v1/events" | "/v1/requests" | "/v1/sandbox/scenario-rules">();
  for await (const rule of client.list("/v1/sandbox/scenario-rules")) expectTypeOf(rule).toEqualTypeOf<Schemas["ScenarioRule"]>();
  for await (const r of client.list("/v1/requests", { limit: 5, errorCode: "NOT_FOUND" })) expectTypeOf(r.errorCode).toEqualTypeOf<ErrorCode | null>();
  // @ts-expect-error a single payment is not a list
  client.list("/v1/payments/{id}");
  // @ts-expect-error the list pages itself: no page in its query
  client.list("/v1/payments", { page: 2 });
}

/** Whole-number query parameters take a number or its text; other parameters keep their types. */
export async function numbers() {
  await client.listPayments({ params: { query: { limit: 5, page: 2 } } });
  await client.GET("/v1/payments", { params: { query: { limit: "5" } } });
  await client.GET("/v1/events", { params: { query: { limit: 5, page: 1 } } });
  await client.listRequests({ params: { query: { limit: 100 } } });
  // @ts-expect-error status is an enum, not a number
  await client.listPayments({ params: { query: { status: 1 } } });
  // @ts-expect-error the stream's 18-digit cursor stays text (a JS number cannot hold every value)
  await client.streamEvents({ params: { query: { cursor: 5 } } });
  // @ts-expect-error a boolean is not a page size
  await client.listEvents({ params: { query: { limit: true } } });
}

/** An error code is the document's union wherever one appears. */
export function errorCodes(entry: Schemas["RequestLogEntry"], envelope: Schemas["Error"]) {
  expectTypeOf(entry.errorCode).toEqualTypeOf<ErrorCode | null>();
  expectTypeOf(envelope.error.code).toEqualTypeOf<ErrorCode>();
  expectTypeOf<"VALIDATION_ERROR">().toMatchTypeOf<ErrorCode>();
  // @ts-expect-error not an error code of the API
  const unknown: Schemas["RequestLogEntry"]["errorCode"] = "NO_SUCH_CODE";
  return unknown;
}

/** The CLI package's hand-written types are those of clients/cli/src/main.ts, its bundle's entry. */
export function cliPackageTypes() {
  expectTypeOf(main).toEqualTypeOf<typeof cliTypes.main>();
  expectTypeOf(MAIN_HELP).toMatchTypeOf<typeof cliTypes.MAIN_HELP>();
}
