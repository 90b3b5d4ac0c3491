// The request pipeline binds each route to its operation entry (docs/architecture.md "Request pipeline"): a load runs
// exactly where the entry declares one, and only the load that names the entry's operation. The types refuse the
// rest at compile time (test/unit/pipeline-types.test-d.ts); these are the checks made once when a route module loads,
// for what a cast lets through.
import { describe, expect, it } from "vitest";
import { merchantApi } from "@/lib/application/http/pipeline";
import { OPERATIONS } from "@/lib/application/openapi/operations";
import { createPaymentLoad } from "@/lib/domain/payments/create";
import { listLoad, paymentLoad } from "@/lib/domain/payments/read";

const handler = async (): Promise<never> => {
  throw new Error("not run");
};
// Untyped on purpose: what a cast (or JavaScript) could pass.
const untyped = merchantApi as (op: unknown, ...rest: unknown[]) => unknown;

describe("merchantApi: the load its operation entry declares", () => {
  // What the routes built here answer is checked in test/integration/pipeline.test.ts ("a route built from an entry
  // and its load answers ..."), which has a database.
  it("takes each entry's own load", () => {
    expect(merchantApi(OPERATIONS.createPayment, { load: createPaymentLoad }, handler)).toBeTypeOf("function");
    expect(merchantApi(OPERATIONS.getPayment, { load: paymentLoad }, handler)).toBeTypeOf("function");
    expect(merchantApi(OPERATIONS.listPayments, { load: listLoad }, handler)).toBeTypeOf("function");
    expect(merchantApi(OPERATIONS.completeSandboxPayment, handler)).toBeTypeOf("function");
  });

  it("refuses a missing load, an extra one and another operation's", () => {
    expect(() => untyped(OPERATIONS.getPayment, handler)).toThrow(/getPayment: its route's load \(none\)/);
    expect(() => untyped(OPERATIONS.getPayment, {}, handler)).toThrow(TypeError);
    expect(() => untyped(OPERATIONS.completeSandboxPayment, { load: paymentLoad }, handler)).toThrow(/completeSandboxPayment: its route's load \(getPayment\)/);
    expect(() => untyped(OPERATIONS.getPayment, { load: listLoad }, handler)).toThrow(/getPayment: its route's load \(listPayments\)/);
  });
});
