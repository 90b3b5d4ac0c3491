// Type-level tests of the request pipeline (docs/architecture.md "Request pipeline"): a handler's answer is checked
// against its operation entry's success answer, its context follows the entry's idempotency mode, and a route passes
// exactly the load its entry declares. Checked by `tsc --noEmit` (npm run typecheck; tsconfig.json includes every .ts
// file) and never run: each `@ts-expect-error` fails the type check when the line under it compiles.
import { expectTypeOf } from "vitest";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";
import type { Prisma, SelectOf, Tx } from "@/lib/platform/db";
import { createPaymentLoad, CreatePaymentLoaded } from "@/lib/domain/payments/create";
import { listLoad, paymentLoad, type ListLoaded } from "@/lib/domain/payments/read";
import type { PaymentRow } from "@/lib/domain/payments/serialize";
import type { Payment } from "@/lib/contract/schemas/api/payment-resource";
import type { FailureCode } from "@/lib/contract/schemas/api/failure-codes";

declare const payment: Payment;
declare const stream: ReadableStream<Uint8Array>;
const page = { items: [payment], total: 1, page: 1, limit: 20, pages: 1 };

/** Answers: the entry's success status and a body its success schema accepts, nothing else. */
export function answers() {
  merchantApi(OPERATIONS.getPayment, { load: paymentLoad }, async () => ({ status: 200, body: payment }));
  merchantApi(OPERATIONS.listPayments, { load: listLoad }, async () => ({ status: 200, body: page }));
  // @ts-expect-error amount is decimal text in the Payment schema, not a number
  merchantApi(OPERATIONS.getPayment, { load: paymentLoad }, async () => ({ status: 200, body: { ...payment, amount: 1123.52 } }));
  // @ts-expect-error a body without the Payment's required members
  merchantApi(OPERATIONS.getPayment, { load: paymentLoad }, async () => ({ status: 200, body: { id: payment.id } }));
  // @ts-expect-error another operation's answer: a page of payments where one payment is due
  merchantApi(OPERATIONS.getPayment, { load: paymentLoad }, async () => ({ status: 200, body: page }));
  // @ts-expect-error 201 where the entry's success status is 200
  merchantApi(OPERATIONS.completeSandboxPayment, async () => ({ status: 201, body: payment }));
  // @ts-expect-error a store payment's answer needs its checkout (StorePayment), a Payment's may lack it
  merchantApi(OPERATIONS.confirmSandboxStorePayment, async () => ({ status: 200, body: payment }));
  merchantApi(OPERATIONS.streamEvents, async () => ({ status: 200, body: null, headers: {}, stream }));
  // @ts-expect-error a stream from an endpoint whose entry declares no event stream
  merchantApi(OPERATIONS.listEvents, async () => ({ status: 200, body: null, headers: {}, stream }));
}

/** Loads: present exactly when the entry says `load: true`, and the one that names the entry's operation. */
export function loads() {
  // @ts-expect-error getPayment's entry declares a load; the route must pass it
  merchantApi(OPERATIONS.getPayment, async () => ({ status: 200, body: payment }));
  // @ts-expect-error a load that names another operation, though its input would fit
  merchantApi(OPERATIONS.getPayment, { load: { ...paymentLoad, operationId: "expireSandboxPayment" as const } }, async () => ({ status: 200, body: payment }));
  // @ts-expect-error completeSandboxPayment's entry declares no load
  merchantApi(OPERATIONS.completeSandboxPayment, { load: paymentLoad }, async () => ({ status: 200, body: payment }));
}

/** The context: input as the entry's schemas give it, `tx` and `commit` as its idempotency mode gives them. */
export function contexts() {
  merchantApi(OPERATIONS.completeSandboxPayment, async (ctx) => {
    expectTypeOf(ctx.body).toEqualTypeOf<{ outcome: "SUCCEEDED" | "FAILED"; failureCode?: FailureCode | undefined }>();
    expectTypeOf(ctx.tx).toEqualTypeOf<Tx>();
    expectTypeOf(ctx.commit).toBeNull();
    expectTypeOf(ctx.loaded).toBeUndefined();
    return { status: 200, body: payment };
  });
  merchantApi(OPERATIONS.listPayments, { load: listLoad }, async (ctx) => {
    expectTypeOf(ctx.tx).toBeNull();
    expectTypeOf(ctx.loaded).toEqualTypeOf<ListLoaded>();
    expectTypeOf(ctx.query.limit).toEqualTypeOf<number>();
    return { status: 200, body: page };
  });
  merchantApi(OPERATIONS.getPayment, { load: paymentLoad }, async (ctx) => {
    expectTypeOf(ctx.loaded).toEqualTypeOf<PaymentRow | null>();
    return { status: 200, body: payment };
  });
  merchantApi(OPERATIONS.createPayment, { load: createPaymentLoad }, async (ctx) => {
    expectTypeOf(ctx.tx).toBeNull();
    expectTypeOf(ctx.commit).toBeFunction();
    return ctx.commit({ status: 201, body: payment, resourceId: payment.id }, null!, null!);
  });
}

/**
 * The create's columns: the SELECT names its columns after CreatePaymentLoaded's members (SelectOf), so a column renamed
 * on one side only, missing, or added without a member, fails the type check; the row schema then reads every member.
 */
export function createColumns(sql: Prisma.Sql) {
  const columns: SelectOf<typeof CreatePaymentLoaded> = {
    settings: sql,
    blocked: sql,
    velocityRules: sql,
    referenceTaken: sql,
    pricingVersion: sql,
    rates: sql,
    bankAccounts: sql,
    scenarioRule: sql,
  };
  const { blocked: _blocked, ...withoutBlocked } = columns;
  // @ts-expect-error blocked renamed in the SELECT (isBlocked) but not in the row schema
  const renamed: SelectOf<typeof CreatePaymentLoaded> = { ...withoutBlocked, isBlocked: sql };
  // @ts-expect-error referenceTaken left out of the SELECT
  const missing: SelectOf<typeof CreatePaymentLoaded> = {
    settings: sql,
    blocked: sql,
    velocityRules: sql,
    pricingVersion: sql,
    rates: sql,
    bankAccounts: sql,
    scenarioRule: sql,
  };
  expectTypeOf(CreatePaymentLoaded.parse({})).toHaveProperty("blocked").toEqualTypeOf<boolean>();
  expectTypeOf(CreatePaymentLoaded.parse({})).toHaveProperty("referenceTaken").toEqualTypeOf<boolean>();
  return [columns, renamed, missing];
}
