import { describe, expect, it } from "vitest";
import { keyDisplayPrefix } from "@/lib/domain/keys/api-keys";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { db, depositBody, eventually, messageOf, newMerchant, type TestMerchant } from "../support/fixtures";
import { amountEntryMerchant, customerAction, openSession } from "../support/checkout-sessions";
import { startReceiver } from "../support/receiver";
import { createStorePayment, waitForCheckout } from "../support/store";
import { assertPresent, present } from "../../scripts/harness/present";

// docs/api.md "Test helpers" over real HTTP against the built service: each helper moves an object the way its page
// or job does (same service), answers the documented shape, replays with its Idempotency-Key, writes the ledger
// entry, event and delivery only where the real path does, and answers another merchant's id with 404 leaving the
// object untouched. The last describe block is the scripted run a merchant's CI can copy: no browser, no waiting.

const errorOf = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];

/** What a merchant has that a helper could write: payments, ledger entries, events, deliveries, audit rows. */
async function writes(merchantId: string) {
  return {
    payments: await db.payment.count({ where: { merchantId } }),
    ledgerEntries: await db.ledgerEntry.count({ where: { payment: { merchantId } } }),
    events: await db.event.count({ where: { merchantId } }),
    deliveries: await db.delivery.count({ where: { merchantId } }),
    audit: await db.auditLog.count({ where: { merchantId } }),
  };
}

/** Sends the same helper request twice with one Idempotency-Key: the second is the stored answer, replayed. */
async function expectReplay(m: TestMerchant, path: string, body: unknown, first: { status: number; body: unknown }) {
  const key = `replay-${path.split("/").slice(-2).join("-")}-${Date.now()}`;
  const a = await m.api(path, { method: "POST", body, idempotencyKey: key });
  const b = await m.api(path, { method: "POST", body, idempotencyKey: key });
  expect(b.status).toBe(a.status);
  expect(b.headers.get("idempotency-replayed")).toBe("true");
  expect(b.body).toEqual(a.body);
  expect(a.status).toBe(first.status);
}

describe("POST /v1/sandbox/checkout-sessions/{id}/quote and /confirm: the customer's steps through the API", () => {
  it("quote answers the session and the quote the page shows, with the page's validation; confirm ends it in AWAITING_VERIFICATION; no payment, event or ledger", async () => {
    const m = await amountEntryMerchant();
    const other = await amountEntryMerchant();
    const session = await openSession(m);
    const before = await writes(m.merchant.id);

    // The page's validation: an amount that is not decimal text, an unknown member, a currency not offered.
    expect(errorOf(await m.api(`/v1/sandbox/checkout-sessions/${session.id}/quote`, { body: { amount: 100, currency: "USD" } }))).toEqual([
      400,
      "VALIDATION_ERROR",
    ]);
    expect(errorOf(await m.api(`/v1/sandbox/checkout-sessions/${session.id}/quote`, { body: { amount: "100.00", currency: "USD", rate: "1" } }))).toEqual([
      400,
      "VALIDATION_ERROR",
    ]);
    const sibling = await openSession(m);
    const eur = { amount: "100.00", currency: "EUR" };
    const viaApi = await m.api(`/v1/sandbox/checkout-sessions/${session.id}/quote`, { body: eur });
    const viaPage = await customerAction(sibling.customerCheckout.url, "quote", eur);
    expect(errorOf(viaApi)).toEqual([400, "VALIDATION_ERROR"]);
    expect(messageOf(viaApi)).toBe(viaPage.body.error.message);
    expect(
      errorOf(await m.api(`/v1/sandbox/checkout-sessions/${session.id}/quote`, { body: { amount: "100.00", currency: "USD" }, idempotencyKey: null })),
    ).toEqual([400, "VALIDATION_ERROR"]);

    // Another merchant's key: 404, the session untouched.
    expect(errorOf(await other.api(`/v1/sandbox/checkout-sessions/${session.id}/quote`, { body: { amount: "100.00", currency: "USD" } }))).toEqual([
      404,
      "NOT_FOUND",
    ]);
    expect(errorOf(await other.api(`/v1/sandbox/checkout-sessions/${session.id}/confirm`, { body: { amount: "100.00", currency: "USD" } }))).toEqual([
      404,
      "NOT_FOUND",
    ]);
    expect((await db.checkoutSession.findUniqueOrThrow({ where: { id: session.id } })).state).toBe("AWAITING_AMOUNT");

    // Quote: 100.00 USD at 3.6725 x 1.015 x 1.005 = 374.62 AED, the page's figures.
    const quoted = await m.api(`/v1/sandbox/checkout-sessions/${session.id}/quote`, { body: { amount: "100.00", currency: "USD" } });
    expect(quoted.status, quoted.text).toBe(200);
    expect(quoted.body).toMatchObject({ id: session.id, state: "QUOTED", amount: "100.00", currency: "USD", paymentId: null });
    expect(quoted.body.quote).toMatchObject({
      chargeCurrency: "AED",
      chargeAmount: "374.62",
      effectiveRate: expect.stringMatching(/^3\.746/),
      bankAccount: { iban: expect.any(String) },
    });
    expect(quoted.body.quote.bankAccount).not.toHaveProperty("id");
    const read = await m.api(`/v1/checkout-sessions/${session.id}`);
    const { quote: _quote, ...asRead } = quoted.body;
    expect(read.body).toEqual(asRead);
    // The page, quoting the same on its own session, shows the same charge.
    const pageQuote = await customerAction(sibling.customerCheckout.url, "quote", { amount: "100.00", currency: "USD" });
    expect(pageQuote.body).toEqual({ state: "QUOTED", amount: "100.00", currency: "USD" });
    const siblingRow = await db.checkoutSession.findUniqueOrThrow({ where: { id: sibling.id } });
    expect((siblingRow.quote as { chargeAmount: string }).chargeAmount).toBe(quoted.body.quote.chargeAmount);

    // Confirm: a total other than the quoted one is refused, as on a stale page; the quoted one ends the flow.
    const wrong = await m.api(`/v1/sandbox/checkout-sessions/${session.id}/confirm`, { body: { amount: "99.00", currency: "USD" } });
    expect(errorOf(wrong)).toEqual([409, "INVALID_STATE"]);
    const confirmed = await m.api(`/v1/sandbox/checkout-sessions/${session.id}/confirm`, { body: { amount: "100.00", currency: "USD" } });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toMatchObject({
      state: "AWAITING_VERIFICATION",
      amount: "100.00",
      currency: "USD",
      paymentId: null,
      verification: { state: "NOT_CONFIGURED" },
    });
    expect(confirmed.body.quote).toEqual(quoted.body.quote);
    await expectReplay(m, `/v1/sandbox/checkout-sessions/${session.id}/confirm`, { amount: "100.00", currency: "USD" }, confirmed);
    const again = await m.api(`/v1/sandbox/checkout-sessions/${session.id}/quote`, { body: { amount: "5.00", currency: "USD" } });
    expect(errorOf(again)).toEqual([409, "INVALID_STATE"]);
    expect(again.body.error.message).toMatch(/already confirmed/);

    // Confirming a total creates no payment, event, delivery, ledger entry or audit row (docs/api.md "Overview" 5).
    expect(await writes(m.merchant.id)).toEqual(before);
  });

  it("a replayed quote answers the first quote, even after the customer chose again", async () => {
    const m = await amountEntryMerchant();
    const session = await openSession(m);
    const path = `/v1/sandbox/checkout-sessions/${session.id}/quote`;
    const first = await m.api(path, { body: { amount: "10.00", currency: "USD" }, idempotencyKey: `quote-${session.id}` });
    expect(first.status).toBe(200);
    expect((await m.api(path, { body: { amount: "20.00", currency: "USD" } })).body.amount).toBe("20.00");
    const replay = await m.api(path, { body: { amount: "10.00", currency: "USD" }, idempotencyKey: `quote-${session.id}` });
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(errorOf(await m.api(path, { body: { amount: "30.00", currency: "USD" }, idempotencyKey: `quote-${session.id}` }))).toEqual([
      409,
      "IDEMPOTENCY_CONFLICT",
    ]);
    expect((await m.api(`/v1/checkout-sessions/${session.id}`)).body.amount).toBe("20.00");
  });
});

describe("POST /v1/sandbox/checkout-sessions/{id}/expire", () => {
  it("expires the session now through the sweep's transition; the page and the API see EXPIRED; another merchant gets 404", async () => {
    const m = await amountEntryMerchant();
    const other = await amountEntryMerchant();
    const session = await openSession(m);
    const before = await writes(m.merchant.id);
    expect(errorOf(await other.api(`/v1/sandbox/checkout-sessions/${session.id}/expire`, { method: "POST" }))).toEqual([404, "NOT_FOUND"]);
    expect(errorOf(await m.api(`/v1/sandbox/checkout-sessions/${session.id}/expire`, { method: "POST", idempotencyKey: null }))).toEqual([
      400,
      "VALIDATION_ERROR",
    ]);
    const untouched = await db.checkoutSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(untouched.state).toBe("AWAITING_AMOUNT");
    expect(untouched.expiresAt.toISOString()).toBe(session.customerCheckout.expiresAt);

    const started = Date.now();
    const expired = await m.api(`/v1/sandbox/checkout-sessions/${session.id}/expire`, { method: "POST" });
    expect(expired.status, expired.text).toBe(200);
    expect(expired.body).toMatchObject({ id: session.id, state: "EXPIRED" });
    expect(Date.parse(expired.body.customerCheckout.expiresAt)).toBeGreaterThanOrEqual(started - 1000);
    expect(Date.parse(expired.body.customerCheckout.expiresAt)).toBeLessThanOrEqual(Date.now());
    expect((await db.checkoutSession.findUniqueOrThrow({ where: { id: session.id } })).state).toBe("EXPIRED");
    expect((await m.api(`/v1/checkout-sessions/${session.id}`)).body.state).toBe("EXPIRED");
    // The customer's page refuses to act on it, and so does the quote helper.
    const page = await customerAction(session.customerCheckout.url, "quote", { amount: "1.00", currency: "USD" });
    expect([page.status, page.body.error.code]).toEqual([409, "INVALID_STATE"]);
    expect(errorOf(await m.api(`/v1/sandbox/checkout-sessions/${session.id}/quote`, { body: { amount: "1.00", currency: "USD" } }))).toEqual([
      409,
      "INVALID_STATE",
    ]);
    // Expiring again answers it as it is; a replay answers the first answer.
    const repeat = await m.api(`/v1/sandbox/checkout-sessions/${session.id}/expire`, { method: "POST" });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(expired.body);
    await expectReplay(m, `/v1/sandbox/checkout-sessions/${session.id}/expire`, undefined, repeat);
    // Sessions send no callbacks (docs/callbacks.md).
    expect(await writes(m.merchant.id)).toEqual(before);
  });

  it("a confirmed session expires too (AWAITING_VERIFICATION -> EXPIRED, as the sweep does)", async () => {
    const m = await amountEntryMerchant();
    const session = await openSession(m);
    await m.api(`/v1/sandbox/checkout-sessions/${session.id}/quote`, { body: { amount: "1.00", currency: "USD" } });
    expect((await m.api(`/v1/sandbox/checkout-sessions/${session.id}/confirm`, { body: { amount: "1.00", currency: "USD" } })).body.state).toBe(
      "AWAITING_VERIFICATION",
    );
    expect((await m.api(`/v1/sandbox/checkout-sessions/${session.id}/expire`, { method: "POST" })).body.state).toBe("EXPIRED");
  });
});

describe("POST /v1/sandbox/store-payments/{id}/confirm: the store's test confirmation", () => {
  it("SUCCEEDED on a READY checkout: payment SUCCEEDED with one ledger entry, payment.succeeded delivered; repeat unchanged; another outcome 409; another merchant 404", async () => {
    const rx = await startReceiver();
    const m = await newMerchant();
    const other = await newMerchant();
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const p = await createStorePayment(m, { amount: "12.34" });
    await waitForCheckout(m, p.id, "READY");
    const path = `/v1/sandbox/store-payments/${p.id}/confirm`;
    expect(errorOf(await other.api(path, { body: { outcome: "SUCCEEDED" } }))).toEqual([404, "NOT_FOUND"]);
    expect(errorOf(await m.api(path, { body: { outcome: "PAID" } }))).toEqual([400, "VALIDATION_ERROR"]);
    expect(errorOf(await m.api(path, { body: { outcome: "SUCCEEDED" }, idempotencyKey: null }))).toEqual([400, "VALIDATION_ERROR"]);
    expect(await writes(m.merchant.id)).toMatchObject({ ledgerEntries: 0, events: 0 });

    const done = await m.api(path, { body: { outcome: "SUCCEEDED" } });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ id: p.id, status: "SUCCEEDED", checkout: { state: "SUCCEEDED", url: null } });
    expect(done.body.finalizedAt).not.toBeNull();
    expect(await db.ledgerEntry.count({ where: { paymentId: p.id } })).toBe(1);
    const events = await m.api(`/v1/events?paymentId=${p.id}`);
    expect(events.body.items.map((e: { type: string }) => e.type)).toEqual(["payment.succeeded"]);
    const [got] = await rx.waitFor(1);
    assertPresent(got, "got");
    expect(JSON.parse(got?.body.toString())).toMatchObject({ type: "payment.succeeded", data: { id: p.id, status: "SUCCEEDED" } });
    await eventually(async () => (await m.api(`/v1/events/${events.body.items[0].id}`)).body.delivery.state === "SUCCEEDED");

    // Repeating the outcome answers it unchanged (the page's double click pays once); a replay is the stored answer.
    const repeat = await m.api(path, { body: { outcome: "SUCCEEDED" } });
    expect(repeat.status).toBe(200);
    expect(repeat.body.status).toBe("SUCCEEDED");
    await expectReplay(m, path, { outcome: "SUCCEEDED" }, repeat);
    const declined = await m.api(path, { body: { outcome: "FAILED" } });
    expect(errorOf(declined)).toEqual([409, "INVALID_STATE"]);
    expect(declined.body.error.message).toMatch(/checkout\.state is SUCCEEDED/);
    expect(await db.ledgerEntry.count({ where: { paymentId: p.id } })).toBe(1);
    expect(await db.event.count({ where: { paymentId: p.id } })).toBe(1);
    await rx.close();
  });

  it("FAILED declines: payment FAILED, payment.failed, no ledger entry", async () => {
    const m = await newMerchant();
    const p = await createStorePayment(m, { amount: "12.34" });
    await waitForCheckout(m, p.id, "READY");
    const done = await m.api(`/v1/sandbox/store-payments/${p.id}/confirm`, { body: { outcome: "FAILED" } });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ status: "FAILED", checkout: { state: "FAILED" } });
    expect(await db.ledgerEntry.count({ where: { paymentId: p.id } })).toBe(0);
    expect((await db.event.findMany({ where: { paymentId: p.id } })).map((e) => e.type)).toEqual(["payment.failed"]);
  });

  it("409 INVALID_STATE names the state when the checkout is not READY (REJECTED), and for a payment that is not a store payment", async () => {
    const m = await newMerchant();
    const p = await createStorePayment(m, { amount: "1.00" }); // below the cheapest product less 20 %: REJECTED
    await waitForCheckout(m, p.id, "REJECTED");
    const before = await writes(m.merchant.id);
    const refused = await m.api(`/v1/sandbox/store-payments/${p.id}/confirm`, { body: { outcome: "SUCCEEDED" } });
    expect(errorOf(refused)).toEqual([409, "INVALID_STATE"]);
    expect(refused.body.error.message).toMatch(/checkout\.state is REJECTED/);
    const plain = await m.api("/v1/payments", { body: depositBody() });
    const notStore = await m.api(`/v1/sandbox/store-payments/${plain.body.id}/confirm`, { body: { outcome: "SUCCEEDED" } });
    expect(errorOf(notStore)).toEqual([409, "INVALID_STATE"]);
    expect(notStore.body.error.message).toMatch(/not a store payment/);
    expect(await writes(m.merchant.id)).toEqual({ ...before, payments: before.payments + 1 });
  });

  it("409 while the store has not answered yet (QUEUED): the message says to wait for READY", async () => {
    const m = await newMerchant();
    const p = await createStorePayment(m, { amount: "12.34" });
    await waitForCheckout(m, p.id, "READY");
    // Put the checkout back to QUEUED with its handoff far ahead, as one whose store has not answered yet.
    await db.storeCheckout.update({ where: { paymentId: p.id }, data: { state: "QUEUED", token: null, nextHandoffAt: new Date(Date.now() + 3_600_000) } });
    const refused = await m.api(`/v1/sandbox/store-payments/${p.id}/confirm`, { body: { outcome: "SUCCEEDED" } });
    expect(errorOf(refused)).toEqual([409, "INVALID_STATE"]);
    expect(refused.body.error.message).toMatch(/checkout\.state is QUEUED.*until checkout\.state is READY/);
    expect((await db.payment.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("PENDING");
  });
});

describe("POST /v1/sandbox/deliveries/{id}/attempt", () => {
  it("runs a retry now instead of after its wait; 409 once delivered or not configured; another merchant gets 404", async () => {
    const rx = await startReceiver((_r, i) => ({ status: i === 0 ? 503 : 200 }));
    const m = await newMerchant();
    const other = await newMerchant();
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    const created = await m.api("/v1/payments", { body: depositBody() });
    await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "SUCCEEDED" } });
    await rx.waitFor(1);
    const event = (await m.api(`/v1/events?paymentId=${created.body.id}`)).body.items[0];
    // The first attempt failed: the normal schedule waits at least 30 s.
    const retrying = await eventually(async () => {
      const d = (await m.api(`/v1/events/${event.id}`)).body.delivery.deliveries[0];
      return d.attempts.length === 1 && d.nextAttemptAt ? d : null;
    });
    expect(Date.parse(retrying.nextAttemptAt) - Date.now()).toBeGreaterThan(20_000);
    const path = `/v1/sandbox/deliveries/${retrying.id}/attempt`;

    const row = () => db.delivery.findUniqueOrThrow({ where: { id: retrying.id }, select: { state: true, attemptCount: true, nextAttemptAt: true } });
    const untouched = await row();
    expect(errorOf(await other.api(path, { method: "POST" }))).toEqual([404, "NOT_FOUND"]);
    expect(errorOf(await m.api(path, { method: "POST", idempotencyKey: null }))).toEqual([400, "VALIDATION_ERROR"]);
    expect(await row()).toEqual(untouched);

    const asked = Date.now();
    const due = await m.api(path, { method: "POST", idempotencyKey: `attempt-${retrying.id}` });
    expect(due.status, due.text).toBe(200);
    expect(due.body).toMatchObject({
      id: retrying.id,
      eventId: event.id,
      state: "PENDING",
      attemptCount: 1,
      lastError: expect.stringContaining("503"),
      deliveredAt: null,
      fastRetries: false,
    });
    expect(Date.parse(due.body.nextAttemptAt)).toBeLessThanOrEqual(Date.now());
    await rx.waitFor(2);
    expect(present(rx?.received[1], "rx?.received[1]").at - asked, "sent at once, not after the 30 s wait").toBeLessThan(10_000);
    expect(present(rx?.received[1], "rx?.received[1]").headers["x-service-event-id"]).toBe(event.id);
    const delivered = await eventually(async () => {
      const d = (await m.api(`/v1/events/${event.id}`)).body.delivery.deliveries[0];
      return d.state === "SUCCEEDED" ? d : null;
    });
    expect(delivered.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([503, 200]);

    const refused = await m.api(path, { method: "POST" });
    expect(errorOf(refused)).toEqual([409, "INVALID_STATE"]);
    expect(refused.body.error.message).toMatch(/already delivered/);
    // The replay of the first request answers its stored answer and sends nothing more.
    const replay = await m.api(path, { method: "POST", idempotencyKey: `attempt-${retrying.id}` });
    expect([replay.status, replay.headers.get("idempotency-replayed")]).toEqual([200, "true"]);
    expect(replay.body).toEqual(due.body);
    // waits on purpose: a replay sends nothing, so nothing can be awaited; a send would reach the local receiver within it
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.received).toHaveLength(2);
    expect(await db.ledgerEntry.count({ where: { paymentId: created.body.id } })).toBe(1);
    await rx.close();
  });

  it("409 for a NOT_CONFIGURED delivery, naming what to do", async () => {
    const m = await newMerchant();
    const created = await m.api("/v1/payments", { body: depositBody() });
    await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "FAILED" } });
    const event = (await m.api(`/v1/events?paymentId=${created.body.id}`)).body.items[0];
    const delivery = (await m.api(`/v1/events/${event.id}`)).body.delivery.deliveries[0];
    expect(delivery.state).toBe("NOT_CONFIGURED");
    const refused = await m.api(`/v1/sandbox/deliveries/${delivery.id}/attempt`, { method: "POST" });
    expect(errorOf(refused)).toEqual([409, "INVALID_STATE"]);
    expect(refused.body.error.message).toMatch(/no callback address.*redeliver/);
  });
});

describe("GET and PUT /v1/sandbox/settings: fast retries", () => {
  it("off by default; PUT switches it with one audit row; the same value again changes nothing; bad bodies are 400", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    const read = await m.api("/v1/sandbox/settings");
    expect(read.body).toEqual({ fastRetries: false, callbackRetries: { attempts: 8, waitsSeconds: [30, 120, 300, 600, 1200, 2400, 3600] } });
    expect(errorOf(await m.api("/v1/sandbox/settings", { method: "PUT", body: { fastRetries: "yes" } }))).toEqual([400, "VALIDATION_ERROR"]);
    expect(errorOf(await m.api("/v1/sandbox/settings", { method: "PUT", body: { fastRetries: true, chaos: true } }))).toEqual([400, "VALIDATION_ERROR"]);
    expect(errorOf(await m.api("/v1/sandbox/settings", { method: "POST", body: { fastRetries: true } }))).toEqual([405, "METHOD_NOT_ALLOWED"]);

    const on = await m.api("/v1/sandbox/settings", { method: "PUT", body: { fastRetries: true } });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toEqual({ fastRetries: true, callbackRetries: { attempts: 8, waitsSeconds: [0.5, 2, 5, 10, 20, 40, 60] } });
    expect((await m.api("/v1/sandbox/settings", { method: "PUT", body: { fastRetries: true } })).body.fastRetries).toBe(true);
    const audit = await db.auditLog.findMany({ where: { merchantId: m.merchant.id, action: "merchant.fast_retries" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: m.owner.id,
      actorName: `api key ${keyDisplayPrefix(m.key)}…`, // the prefix the keys page shows, never the key's id
      entityId: m.merchant.id,
      before: { fastRetries: false },
      after: { fastRetries: true },
    });
    expect((await db.merchant.findUniqueOrThrow({ where: { id: other.merchant.id } })).fastRetries).toBe(false);
    expect((await other.api("/v1/sandbox/settings")).body.fastRetries).toBe(false);
    const off = await m.api("/v1/sandbox/settings", { method: "PUT", body: { fastRetries: false } });
    expect(off.body.callbackRetries.waitsSeconds[0]).toBe(30);
    expect(await db.auditLog.count({ where: { merchantId: m.merchant.id, action: "merchant.fast_retries" } })).toBe(2);
  });
});

describe("a merchant's CI, scripted end to end through the API only", () => {
  it("checkout session: create, quote, confirm; payment: a receiver that fails twice then succeeds is delivered in seconds with fast retries", async () => {
    // 1. Customer amount-entry: the session reaches its last real state without a browser.
    const ae = await amountEntryMerchant();
    const session = await openSession(ae);
    const quoted = await ae.api(`/v1/sandbox/checkout-sessions/${session.id}/quote`, { body: { amount: "250.00", currency: "USD" } });
    expect(quoted.body).toMatchObject({ state: "QUOTED", quote: { chargeCurrency: "AED" } });
    const confirmed = await ae.api(`/v1/sandbox/checkout-sessions/${session.id}/confirm`, { body: { amount: "250.00", currency: "USD" } });
    expect(confirmed.body.state).toBe("AWAITING_VERIFICATION");
    expect((await ae.api(`/v1/checkout-sessions/${session.id}`)).body.state).toBe("AWAITING_VERIFICATION");

    // 2. Callbacks: a receiver that answers 500 twice, then 200; fast retries on.
    const rx = await startReceiver((_r, i) => ({ status: i < 2 ? 500 : 200 }));
    const m = await newMerchant();
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
    expect((await m.api("/v1/sandbox/settings", { method: "PUT", body: { fastRetries: true } })).body.fastRetries).toBe(true);
    const started = Date.now();
    const created = await m.api("/v1/payments", { body: depositBody() });
    const done = await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "SUCCEEDED" } });
    expect(done.body.status).toBe("SUCCEEDED");
    const event = (await m.api(`/v1/events?paymentId=${created.body.id}`)).body.items[0];
    const delivered = await eventually(async () => {
      const d = (await m.api(`/v1/events/${event.id}`)).body.delivery;
      return d.state === "SUCCEEDED" ? d.deliveries[0] : null;
    }, 60_000);
    expect(Date.now() - started, "delivered within a minute").toBeLessThan(60_000);
    expect(delivered.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 200]);
    expect(rx.received).toHaveLength(3);
    // Waits of the fast schedule: about 0.5 s and 2 s (plus the worker's poll), not 30 s and 2 min.
    expect(present(rx?.received[2], "rx?.received[2]").at - present(rx?.received[0], "rx?.received[0]").at).toBeLessThan(15_000);
    expect(new Set(rx.received.map((r) => r.headers["x-service-event-id"]))).toEqual(new Set([event.id]));
    await rx.close();
  }, 90_000);
});
