import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { ERROR_STATUS, type ErrorCode } from "@/lib/contract/errors";
import { OPERATION_LIST, OPERATIONS, type Operation } from "@/lib/application/openapi/operations";
import type { Scope } from "@/lib/domain/keys/api-keys";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { db, eventually, forwardTokenOf, newMerchant, type ApiResponse, type TestMerchant } from "./fixtures";
import { waitUntil } from "../../scripts/harness/wait";
import { assertPresent, present } from "../../scripts/harness/present";

// Table-driven helpers over the operations registry (lib/application/openapi/operations.ts): the access matrix and the
// hostile-input properties iterate over every operation whose route file exists, so an endpoint added on
// another branch is covered as soon as its route lands, with no test change.

const root = path.resolve(__dirname, "../..");

/** The registry's operations whose route handler exists in this tree. */
export const implementedOperations: Operation[] = OPERATION_LIST.filter((op) => fs.existsSync(path.join(root, op.route)));

/**
 * A merchant that may use `op` (amount-entry enabled for checkout sessions, legacy store flow otherwise); an
 * operation on an `{id}` takes the flow of the operation that creates its records, and so on back. For the callback
 * secret's operations the merchant has a callback address (a loopback one nothing listens on), and so a secret.
 */
export async function merchantFor(op: Operation, opts: { scopes?: Scope[] } = {}): Promise<TestMerchant> {
  const m = await newMerchant({ amountEntryEnabled: flowOf(op) === "amount-entry", ...opts });
  if (op.path.startsWith("/v1/sandbox/callback-secret")) await setCallbackUrl(db, { merchantId: m.merchant.id, url: "http://127.0.0.1:9/callbacks" });
  return m;
}

/** The flow of `op`, else of the operation that creates its records (followed back to the first). */
function flowOf(op: Operation): Operation["merchantFlow"] {
  const creator = op.pathId ? (OPERATIONS as Record<string, Operation>)[op.pathId.createdBy] : undefined;
  return op.merchantFlow ?? (creator ? flowOf(creator) : undefined);
}

/** The operation's example body with a fresh reference (references are unique per merchant). */
export function exampleBody(op: Operation): Record<string, unknown> | undefined {
  if (!op.example) return undefined;
  const body = JSON.parse(JSON.stringify(op.example)) as Record<string, unknown>;
  if ("reference" in body) body.reference = `${String(body.reference)}-${randomUUID()}`;
  return body;
}

/**
 * The operation's valid body as key `key` sends it: {@link exampleBody}, and for `recordForwards` the forward token of
 * a stream of that key (docs/callbacks.md "Forwards on the service"), when the key can open one and gets a token.
 */
export async function validBody(op: Operation, key: string): Promise<Record<string, unknown> | undefined> {
  const body = exampleBody(op);
  if (body && op.operationId === "recordForwards") {
    const token = await forwardTokenOf(key).catch(() => null);
    if (token) body.forwardToken = token;
  }
  return body;
}

/** The concrete path of `op` for a record id. */
export function pathOf(op: Operation, id?: string): string {
  return op.path.replace("{id}", id ?? randomUUID());
}

/**
 * A record `op` addresses by `{id}`, created by the operation the registry names (`pathId.createdBy`) with its
 * example body, as merchant `m`. Returns undefined for operations without `{id}`.
 */
export async function recordFor(op: Operation, m: TestMerchant): Promise<string | undefined> {
  if (!op.pathId) return undefined;
  const creator = (OPERATIONS as Record<string, Operation>)[op.pathId.createdBy];
  assertPresent(creator, "creator");
  // A delivery with attempts left needs a callback address: a loopback one nothing listens on, so it stays PENDING.
  const delivery = op.path.startsWith("/v1/sandbox/deliveries/");
  if (delivery) await setCallbackUrl(db, { merchantId: m.merchant.id, url: "http://127.0.0.1:9/callbacks" });
  const id = await recordFor(creator, m);
  const res = await m.api(pathOf(creator, id), { method: creator.method, body: exampleBody(creator) });
  expect(res.status, `creating a record for ${op.operationId}: ${res.text}`).toBe(creator.success.status);
  // A logged request is named by its requestId (the log is written within a second; a read flushes it first).
  if (op.tag === "Requests") return res.headers.get("x-request-id") ?? undefined;
  if (creator.operationId === "createStorePayment") {
    // The store's test confirmation needs the handoff done: wait until the checkout is no longer QUEUED.
    await eventually(async () => (await m.api(`/v1/payments/${res.body.id}`)).body.checkout.state !== "QUEUED", 15_000);
  }
  if (op.tag !== "Events" && !delivery) return res.body.id;
  // An event is recorded by the completion: read its id (and its delivery's) from the Events API.
  const events = await m.api(`/v1/events?paymentId=${res.body.id}`);
  expect(events.body.items, `the event of ${res.body.id}`).toHaveLength(1);
  if (!delivery) return events.body.items[0].id;
  const event = await m.api(`/v1/events/${events.body.items[0].id}`);
  return event.body.delivery.deliveries[0].id;
}

/** Sends `op`'s valid request as merchant `m` (fresh Idempotency-Key), with overrides. */
export async function sendValid(op: Operation, m: TestMerchant, id: string | undefined, over: Parameters<TestMerchant["api"]>[1] = {}) {
  const body = op.body ? await validBody(op, over.key ?? m.key) : undefined;
  return m.api(pathOf(op, id), { method: op.method, ...(body ? { body } : {}), ...over });
}

/**
 * What the merchant has in the database: rows of every table a request could write, and the latest update. Read
 * once the background work of earlier accepted requests is done: while a store checkout of the merchant is still
 * QUEUED, the handoff job will move it to READY or REJECTED (a FAILED payment and its event), so this waits for
 * that (at most 10 s) rather than count the job's writes as the next request's.
 */
export async function footprint(merchantId: string) {
  await waitUntil(
    async () => {
      const [queued] = await db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM store_checkouts s JOIN payments p ON p.id = s.payment_id
        WHERE p.merchant_id = ${merchantId}::uuid AND s.state = 'QUEUED'`;
      return queued?.n === 0;
    },
    { what: "the merchant's QUEUED store checkouts handed off" },
  ).catch(() => undefined); // still queued after 10 s: counted as they are
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT (SELECT count(*) FROM payments WHERE merchant_id = ${merchantId}::uuid)::int AS payments,
           (SELECT max(updated_at) FROM payments WHERE merchant_id = ${merchantId}::uuid) AS "paymentsUpdatedAt",
           (SELECT count(*) FROM store_checkouts s JOIN payments p ON p.id = s.payment_id WHERE p.merchant_id = ${merchantId}::uuid)::int AS "storeCheckouts",
           (SELECT count(*) FROM idempotency_records WHERE merchant_id = ${merchantId}::uuid)::int AS "idempotencyRecords",
           (SELECT count(*) FROM checkout_sessions WHERE merchant_id = ${merchantId}::uuid)::int AS "checkoutSessions",
           (SELECT count(*) FROM events WHERE merchant_id = ${merchantId}::uuid)::int AS events`;
  return present(row, "the footprint row");
}

const STACK_TRACE = /\n\s+at |\.(?:ts|js|mjs|cjs):\d+|node_modules|PrismaClient|invalid input syntax|\bSELECT\b/i;

/**
 * Asserts a contract error: a 4xx status, the envelope with a known code whose status it is (call() already
 * checked it against the document), and no stack trace or internals in the text. Returns the code.
 */
export function expectContractError(res: ApiResponse, allowed?: ErrorCode[]): ErrorCode {
  expect(res.status, res.text).toBeGreaterThanOrEqual(400);
  expect(res.status, res.text).toBeLessThan(500);
  const code = res.body?.error?.code as ErrorCode;
  expect(ERROR_STATUS[code], res.text).toBe(res.status);
  if (allowed) expect(allowed, res.text).toContain(code);
  expect(res.text).not.toMatch(STACK_TRACE);
  return code;
}
