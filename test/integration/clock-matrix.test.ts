import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { listConsolePayments } from "@/lib/domain/payments/payment-views";
import { overview } from "@/lib/domain/reports/overview";
import { paymentsOverview } from "@/lib/domain/reports/payments-overview";
import { ListPaymentsQuery } from "@/lib/contract/schemas/api/payments";
import { actorOf } from "../support/console";
import { baseUrl, db, depositBody, eventually, newMerchant, type TestMerchant } from "../support/fixtures";
import { listen, waitForLine, type Running } from "../support/listener";
import { startReceiver } from "../support/receiver";
import { startRobustReceiver } from "../../scripts/harness/robust-receiver";
import { customerAction, openSession } from "../support/checkout-sessions";
import { createStorePayment, storeAction, waitForCheckout } from "../support/store";

// The merchant's test loop across sandbox clock offsets (docs/api.md "Sandbox clock", docs/architecture.md "Which
// clock a column holds"): at the real time, 2 hours ahead and 35 days ahead, the same flow gives the same results.
// Create and conclude a payment, one declined by a scenario rule, one expired by moving the clock; each event's
// callback succeeds on its retry (fast retries); a `sandpiper listen` process forwards every event and its forward
// records are all taken; the console's list of today's payments, its today figures and its chart hold each payment
// once, on the real day it was made; "Callbacks needing attention" is 0. A store payment paid on its page and an
// amount-entry session quoted and confirmed by its customer work the same at every offset.

const H = 3_600_000;
const OFFSETS = [
  { label: "0", by: null, offsetMs: 0 },
  { label: "+2 h", by: "2h", offsetMs: 2 * H },
  { label: "+35 days", by: "35d", offsetMs: 35 * 24 * H },
] as const;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  await Promise.all(cleanups.map((c) => c()));
});

async function create(m: TestMerchant, prefix: string): Promise<string> {
  const res = await m.api("/v1/payments", { body: depositBody({ reference: `${prefix}${crypto.randomUUID()}` }) });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** Starts `sandpiper listen` for the merchant, forwarding to a receiver that verifies the signature. */
async function listener(m: TestMerchant): Promise<{ run: Running; received: Map<string, number> }> {
  const rx = await startRobustReceiver({ failFirst: 0 });
  const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "clock-matrix-")), "state.json");
  const run = listen(["--forward-to", rx.url, "--api-url", baseUrl(), "--api-key", m.key, "--state-file", stateFile]);
  cleanups.push(async () => {
    run.child.kill("SIGTERM");
    await run.exited;
    await rx.close();
  });
  rx.state.secret = await run.secret;
  await waitForLine(run, /Ready: following/);
  return { run, received: rx.state.events };
}

describe.each(OFFSETS)("the merchant's loop with the sandbox clock at $label", ({ by, offsetMs }) => {
  it("gives the same results as at the real time: every forward recorded, every count right", async () => {
    const m = await newMerchant();
    // The callback receiver answers 500 to the first attempt of each event: every callback succeeds on its retry.
    const firstSeen = new Set<string>();
    const callbacks = await startReceiver((r) => {
      const id = String(r.headers["x-service-event-id"]);
      if (firstSeen.has(id)) return {};
      firstSeen.add(id);
      return { status: 500 };
    });
    cleanups.push(() => callbacks.close());
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: callbacks.url });
    expect((await m.api("/v1/sandbox/settings", { method: "PUT", body: { fastRetries: true } })).status).toBe(200);
    if (by) expect((await m.api("/v1/sandbox/clock/advance", { body: { by } })).body.offsetMs).toBe(offsetMs);
    const rule = await m.api("/v1/sandbox/scenario-rules", {
      body: { name: "nofunds- declined", enabled: true, match: { referencePrefix: "nofunds-" }, outcome: "FAILED", failureCode: "insufficient_funds" },
    });
    expect(rule.status, rule.text).toBe(201);
    const { run, received } = await listener(m);

    // Create, conclude, decline by rule, expire by moving the clock a day.
    const paid = await create(m, "paid-");
    expect((await m.api(`/v1/sandbox/payments/${paid}/complete`, { body: { outcome: "SUCCEEDED" } })).status).toBe(200);
    const declined = await create(m, "nofunds-");
    const lapsing = await create(m, "lapse-");
    await eventually(async () => (await m.api(`/v1/payments/${declined}`)).body.status === "FAILED", 15_000);
    const moved = await m.api("/v1/sandbox/clock/advance", { body: { by: "1d" } });
    expect(moved.body.expired, moved.text).toEqual({ payments: 1, checkoutSessions: 0 });
    const payments = await Promise.all([paid, declined, lapsing].map(async (id) => (await m.api(`/v1/payments/${id}`)).body));
    expect(payments.map((p) => [p.status, p.failure?.code ?? null])).toEqual([
      ["SUCCEEDED", null],
      ["FAILED", "insufficient_funds"],
      ["EXPIRED", null],
    ]);
    expect(Math.abs(Date.parse(payments[0].createdAt) - (Date.now() + offsetMs)), "created at the sandbox time").toBeLessThan(H);

    // Every event: its callback succeeded on the second attempt, and the listener's forward of it is recorded.
    const events = await db.event.findMany({ where: { paymentId: { in: [paid, declined, lapsing] } }, select: { id: true, type: true } });
    expect(events.map((e) => e.type).sort()).toEqual(["payment.expired", "payment.failed", "payment.succeeded"]);
    for (const { id } of events) {
      const shown = await eventually(async () => {
        const e = (await m.api(`/v1/events/${id}`)).body;
        return e.delivery?.state === "SUCCEEDED" && e.forwards?.[0]?.state === "DELIVERED" ? e : null;
      }, 20_000);
      expect(shown.delivery.deliveries[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
      expect(received.get(id), "forwarded once").toBe(1);
    }
    expect(
      run.lines.filter((l) => /did not record/.test(l)),
      "every forward record taken",
    ).toEqual([]);

    // The console: today's list, today's figures and the chart hold each payment once, on the real day.
    const owner = actorOf({ ...m.owner, role: "MERCHANT", merchantId: m.merchant.id });
    const today = dubaiDay();
    const list = await listConsolePayments(db, owner, ListPaymentsQuery.parse({ from: today, to: today }));
    expect([list.total, list.items.map((p) => p.id).sort()]).toEqual([3, [paid, declined, lapsing].sort()]);
    const charts = await paymentsOverview(db, owner);
    expect(charts.today).toMatchObject({ day: today, payments: 3, succeeded: 1 });
    expect(charts.outcomes.at(-1)).toMatchObject({ succeeded: 1, failed: 1, expired: 1, pending: 0, total: 3 });
    expect(charts.outcomes.reduce((n, d) => n + d.total, 0)).toBe(3);
    const figures = await overview(db, owner);
    expect([figures.deliveriesNeedingAttention, figures.deliveredByListener]).toEqual([0, 0]);
    expect((await m.api("/v1/payments")).body.total, "the API's list").toBe(3);
  }, 40_000);

  it("a store payment paid on its store page and an amount-entry session confirmed by its customer work as at the real time", async () => {
    const store = await newMerchant();
    const entry = await newMerchant({ amountEntryEnabled: true });
    for (const m of [store, entry]) if (by) expect((await m.api("/v1/sandbox/clock/advance", { body: { by } })).body.offsetMs).toBe(offsetMs);

    // The store payment: handed off to the store, paid on its page, SUCCEEDED, created at the sandbox time, and on
    // the console's list and today's figures of the real day.
    const created = await createStorePayment(store);
    const ready = await waitForCheckout(store, created.id, "READY", 15_000);
    const paid = await storeAction(ready.checkout.url, "pay");
    expect([paid.status, paid.body]).toEqual([200, { state: "SUCCEEDED", status: "SUCCEEDED" }]);
    const read = (await store.api(`/v1/payments/${created.id}`)).body;
    expect(read.status).toBe("SUCCEEDED");
    expect(Math.abs(Date.parse(read.createdAt) - (Date.now() + offsetMs)), "created at the sandbox time").toBeLessThan(H);
    const owner = actorOf({ ...store.owner, role: "MERCHANT", merchantId: store.merchant.id });
    const today = dubaiDay();
    const list = await listConsolePayments(db, owner, ListPaymentsQuery.parse({ from: today, to: today }));
    expect(list.items.map((p) => p.id)).toEqual([created.id]);
    expect((await paymentsOverview(db, owner)).today).toMatchObject({ day: today, payments: 1, succeeded: 1 });

    // The amount-entry session: quoted and confirmed on the customer's page; its link lasts from the sandbox time.
    const session = await openSession(entry);
    const url = session.customerCheckout.url;
    expect(Date.parse(session.customerCheckout.expiresAt) - (Date.now() + offsetMs), "expires after the sandbox time").toBeGreaterThan(0);
    expect((await customerAction(url, "quote", { amount: "250.50", currency: "AED" })).body).toEqual({ state: "QUOTED", amount: "250.50", currency: "AED" });
    expect((await customerAction(url, "confirm", { amount: "250.50", currency: "AED" })).body.state).toBe("AWAITING_VERIFICATION");
    expect((await entry.api(`/v1/checkout-sessions/${session.id}`)).body).toMatchObject({ state: "AWAITING_VERIFICATION", amount: "250.50", currency: "AED" });
  }, 40_000);
});
