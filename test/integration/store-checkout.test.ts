import { afterAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { base64url, decodeJwt } from "jose";
import { InngestTestEngine } from "@inngest/test";
import { baseUrl, db, limitUsed, newMerchant, type TestMerchant } from "../support/fixtures";
import { startReceiver } from "../support/receiver";
import { createStorePayment, eurStoreMerchant, openStorePage, storeAction, storeBody, waitForCheckout } from "../support/store";
import { authenticateRequest } from "@/lib/domain/keys/api-keys";
import { transaction } from "@/lib/platform/db";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { verifyCallback } from "@/clients/cli/src/verify";
import { STORE_HANDOFF_DUE_EVENT } from "@/lib/domain/notify/inngest-client";
import { createInngestFunctions } from "@/lib/application/jobs/inngest";
import { pollingWaits } from "../support/inngest";
import { fromMinor } from "@/lib/contract/money/currency";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { applyTransition, lockPayment } from "@/lib/domain/payments/transitions";
import type { HandoffAnswer, HandoffPayload, SignedHandoff, StoreConnector } from "@/lib/simulators/test-store/connector";
import type { CreateStorePayment } from "@/lib/contract/schemas/api/store-payments";
import { createStorePayment as createInProcess } from "@/lib/simulators/store/create-store-payment";
import { expireStoreCheckouts } from "@/lib/domain/payments/expire";
import { handOffCheckout } from "@/lib/simulators/store/handoff";
import { handoffKey, signHandoff } from "@/lib/simulators/test-store/handoff-signing";
import { SandboxStore } from "@/lib/simulators/test-store/sandbox-store";
import { later, realInstant } from "@/lib/platform/clock";
import { assertPresent, present } from "../../scripts/harness/present";

// The store checkout after creation: the signed handoff and the sandbox store's answer, the lifecycle
// QUEUED -> READY | REJECTED, READY -> SUCCEEDED | FAILED from the store page's test confirmation, QUEUED |
// READY -> EXPIRED with the payment (docs/api.md "Overview" 4, 6, 7; docs/api.md "Store checkout").
//
// "Parked" checkouts are created in this process with a clock days ahead: their first handoff is due then,
// so the running service's job leaves them alone and the test drives the handoff itself (handOffCheckout
// with the same clock). Each parked checkout uses a later day, so no earlier one is still open at its time.

const errorOf = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

let parkDay = 1 + Math.floor(Math.random() * 1000);
/** A store payment created in this process at a time days ahead; returns its id and that time. */
async function parked(m: TestMerchant, over: Record<string, unknown> = {}) {
  const at = realInstant(Date.now() + parkDay++ * 86_400_000);
  const apiKey = (await authenticateRequest(`Bearer ${m.key}`, new Date())).apiKey;
  const body = {
    reference: `parked-${randomUUID()}`,
    amount: "12.34",
    currency: "AED" as const,
    customer: { username: "parked", firstName: "P", lastName: "Q", email: "p@example.com" },
    ...over,
  };
  const payment = await transaction((tx) => createInProcess(tx, { apiKey, body, now: at }));
  return { id: payment.id, at };
}

/** A EUR store merchant whose callbacks go to a fresh loopback receiver; `secret` verifies them. */
async function merchantWithReceiver() {
  const m = await eurStoreMerchant();
  const rx = await startReceiver();
  closers.push(rx.close);
  const { secret } = await setCallbackUrl(db, { merchantId: m.merchant.id, url: rx.url });
  return { m, rx, secret };
}

const checkoutOf = (paymentId: string) => db.storeCheckout.findUniqueOrThrow({ where: { paymentId } });
const eventsOf = (paymentId: string) => db.event.findMany({ where: { paymentId }, orderBy: { createdAt: "asc" } });

/** A valid handoff payload for the sandbox store (charge in fils). */
function payload(over: Partial<HandoffPayload> = {}): HandoffPayload {
  return {
    v: 1,
    reference: "order-1",
    paymentId: randomUUID(),
    chargeMinor: "1234",
    chargeAmount: "12.34",
    chargeCurrency: "AED",
    amount: "12.34",
    currency: "AED",
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
    issuedAt: new Date().toISOString(),
    ...over,
  };
}

/** The token with its charge claims changed in transit (signature kept): chargeMinor `minor`, chargeAmount to match. */
function tamperedInTransit(signed: SignedHandoff, minor: string): SignedHandoff {
  const [header, body, signature] = signed.token.split(".");
  const claims = decodeJwt(signed.token);
  const changed = base64url.encode(JSON.stringify({ ...claims, chargeMinor: minor, chargeAmount: fromMinor(BigInt(minor)) }));
  expect(changed).not.toBe(body);
  return { token: `${header}.${changed}.${signature}` };
}

describe("the sandbox store verifies every handoff", () => {
  it("answers a valid signed handoff READY with a 256-bit token and a basket whose subtotal - discount is the charge", async () => {
    const key = await handoffKey(db);
    const answer = await new SandboxStore().handoff(await signHandoff(payload(), key));
    expect(answer).toMatchObject({ outcome: "READY", matchType: "DISCOUNTED_BASKET", subtotalMinor: 1249n, discountMinor: 15n });
    const ready = answer as Extract<HandoffAnswer, { outcome: "READY" }>;
    expect(ready.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(ready.lines.map((l) => [l.sku, l.unitPriceMinor, l.quantity])).toEqual([
      ["ELC-044", 799n, 1],
      ["BTY-001", 450n, 1],
    ]);
  });

  it("refuses a tampered handoff (claims changed after signing, signature changed, wrong key) as BAD_SIGNATURE", async () => {
    const key = await handoffKey(db);
    const signed = await signHandoff(payload(), key);
    const store = new SandboxStore();
    expect(await store.handoff(tamperedInTransit(signed, "1000"))).toEqual({ outcome: "REFUSED", reason: "BAD_SIGNATURE" });
    const [header, body, signature] = signed.token.split(".");
    assertPresent(signature, "signature");
    const flipped = { token: `${header}.${body}.${(signature[0] === "a" ? "b" : "a") + signature.slice(1)}` };
    expect(await store.handoff(flipped)).toEqual({ outcome: "REFUSED", reason: "BAD_SIGNATURE" });
    expect(await store.handoff(await signHandoff(payload(), Buffer.from("another key entirely, 32+ bytes long")))).toEqual({
      outcome: "REFUSED",
      reason: "BAD_SIGNATURE",
    });
    expect(await store.handoff({ token: `${header}.${body}.not-a-signature` })).toEqual({ outcome: "REFUSED", reason: "BAD_SIGNATURE" });
  });

  it("refuses a stale handoff (issued over 60 s ago, over 30 s ahead, or for an expired checkout) and a malformed one", async () => {
    const key = await handoffKey(db);
    const store = new SandboxStore();
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    expect(await store.handoff(await signHandoff(payload({ issuedAt: ago(61_000) }), key))).toEqual({ outcome: "REFUSED", reason: "STALE" });
    expect(await store.handoff(await signHandoff(payload({ issuedAt: ago(-31_000) }), key))).toEqual({ outcome: "REFUSED", reason: "STALE" });
    expect(await store.handoff(await signHandoff(payload({ expiresAt: ago(1) }), key))).toEqual({ outcome: "REFUSED", reason: "STALE" });
    expect((await store.handoff(await signHandoff(payload({ issuedAt: ago(55_000) }), key))).outcome).toBe("READY");
    // A store with its own (slow) clock: the same handoff is stale 61 s later.
    const signed = await signHandoff(payload(), key);
    expect(await new SandboxStore({ clock: () => new Date(Date.now() + 61_000) }).handoff(signed)).toEqual({ outcome: "REFUSED", reason: "STALE" });
    expect(await store.handoff(await signHandoff(payload({ chargeAmount: "12.35" }), key))).toEqual({ outcome: "REFUSED", reason: "MALFORMED" });
    expect(await store.handoff(await signHandoff({ ...payload(), extra: 1 } as HandoffPayload, key))).toEqual({ outcome: "REFUSED", reason: "MALFORMED" });
    expect(await store.handoff({ token: "not a token" })).toEqual({ outcome: "REFUSED", reason: "MALFORMED" });
  });
});

describe("handoff job", () => {
  it("a handoff tampered in transit is refused; the checkout stays QUEUED, is retried after 1 s with a fresh signature and becomes READY", async () => {
    const m = await newMerchant();
    const { id, at } = await parked(m);
    const sent: SignedHandoff[] = [];
    let tamper = true;
    const store = new SandboxStore();
    const inTransit: StoreConnector = {
      handoff: async (signed) => {
        sent.push(signed);
        if (!tamper) return store.handoff(signed);
        tamper = false;
        return store.handoff(tamperedInTransit(signed, "1"));
      },
    };
    const first = await handOffCheckout(id, { now: at, connector: inTransit });
    expect(first).toEqual({ outcome: "RETRY", state: "QUEUED", nextHandoffAt: new Date(at.getTime() + 1000) });
    expect(await checkoutOf(id)).toMatchObject({ state: "QUEUED", handoffAttempts: 1, token: null });
    // Not due yet: nothing is claimed.
    expect((await handOffCheckout(id, { now: later(at, 999), connector: inTransit })).outcome).toBeNull();
    const second = await handOffCheckout(id, { now: later(at, 1000), connector: inTransit });
    expect(second).toMatchObject({ outcome: "READY", state: "READY", nextHandoffAt: null });
    expect(sent).toHaveLength(2);
    const bodies = sent.map((s) => decodeJwt(s.token));
    expect(bodies[0]).toMatchObject({
      v: 1,
      paymentId: id,
      chargeMinor: "1234",
      chargeAmount: "12.34",
      chargeCurrency: "AED",
      amount: "12.34",
      currency: "AED",
    });
    expect(present(sent?.[0], "sent?.[0]").token).not.toBe(present(sent[1], "sent[1]").token);
    expect(await checkoutOf(id)).toMatchObject({ state: "READY", handoffAttempts: 2, subtotalMinor: 1249n, discountMinor: 15n });
    expect((await db.payment.findUniqueOrThrow({ where: { id } })).status).toBe("PENDING");
  });

  it("transient failures back off 1 s, 2 s, 4 s; an answer whose subtotal - discount is not the charge is never written", async () => {
    const m = await newMerchant();
    const { id, at } = await parked(m);
    const store = new SandboxStore();
    const answers: ((s: SignedHandoff) => Promise<HandoffAnswer>)[] = [
      async () => {
        throw new Error("connect ECONNREFUSED");
      },
      async () => {
        throw new Error("socket hang up");
      },
      async (s) => ({ ...((await store.handoff(s)) as Extract<HandoffAnswer, { outcome: "READY" }>), discountMinor: 16n }),
      (s) => store.handoff(s),
    ];
    const connector: StoreConnector = { handoff: (s) => answers.shift()!(s) };
    let now = at;
    const waits: number[] = [];
    for (;;) {
      const r = await handOffCheckout(id, { now, connector });
      if (r.state !== "QUEUED") break;
      waits.push(r.nextHandoffAt!.getTime() - now.getTime());
      now = r.nextHandoffAt!;
    }
    expect(waits).toEqual([1000, 2000, 4000]);
    const c = await checkoutOf(id);
    expect(c).toMatchObject({ state: "READY", handoffAttempts: 4, subtotalMinor: 1249n, discountMinor: 15n, chargeMinor: 1234n });
  });

  it("an answer that arrives after the payment expired is discarded: the checkout stays EXPIRED without a token", async () => {
    const m = await newMerchant();
    const { id, at } = await parked(m);
    const store = new SandboxStore();
    const slow: StoreConnector = {
      handoff: async (signed) => {
        // While the store works, the payment expires (as the sweep would do it, for this payment only).
        await transaction(async (tx) => {
          const payment = await lockPayment(tx, null, id);
          await applyTransition(tx, payment, "expire", { now: at });
          await expireStoreCheckouts(tx, [id], at);
        });
        return store.handoff(signed);
      },
    };
    expect(await handOffCheckout(id, { now: at, connector: slow })).toEqual({ outcome: "DISCARDED", state: "EXPIRED", nextHandoffAt: null });
    expect(await checkoutOf(id)).toMatchObject({ state: "EXPIRED", token: null, subtotalMinor: null });
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(["payment.expired"]);
  });

  it("REJECTED (nothing fits within 20%): checkout REJECTED with the error, payment FAILED with payment.failed; the limits are given back", async () => {
    const { m, rx, secret } = await merchantWithReceiver();
    // 0.25 EUR x 4.0602 = 1.02 AED: the cheapest product costs AED 4.50, far beyond a 20 % discount.
    const p = await createStorePayment(m, { amount: "0.25", currency: "EUR" });
    expect(p.checkout.chargeAmount).toBe("1.02");
    const read = await waitForCheckout(m, p.id, "REJECTED");
    expect(read).toMatchObject({ status: "FAILED", amount: "0.25", currency: "EUR" });
    expect(read.finalizedAt).not.toBeNull();
    expect(read.checkout).toMatchObject({
      state: "REJECTED",
      url: null,
      subtotal: null,
      discount: null,
      matchType: null,
      error: "no product or basket within a 20% discount",
    });
    expect((await eventsOf(p.id)).map((e) => e.type)).toEqual(["payment.failed"]);
    const [got] = await rx.waitFor(1);
    assertPresent(got, "got");
    const verified = verifyCallback(got.body, got.headers, secret!);
    expect(verified.ok).toBe(true);
    expect(JSON.parse(got?.body.toString("utf8"))).toMatchObject({
      type: "payment.failed",
      data: { id: p.id, status: "FAILED", amount: "0.25", currency: "EUR" },
    });
    const profile = await db.pricingProfile.findFirstOrThrow({ where: { merchantId: m.merchant.id, currency: "EUR" } });
    expect(await limitUsed(profile.id, `D:${dubaiDay()}`)).toBe(0n);
    expect(await db.ledgerEntry.count({ where: { paymentId: p.id } })).toBe(0);
  });
});

describe("the store's test confirmation (store page endpoints)", () => {
  it("pay: checkout and payment SUCCEEDED, one ledger entry, a verifying payment.succeeded callback with the original amount and currency; paying again changes nothing; decline is then 409", async () => {
    const { m, rx, secret } = await merchantWithReceiver();
    const p = await createStorePayment(m, { amount: "250.00", currency: "EUR" });
    const ready = await waitForCheckout(m, p.id, "READY");

    const paid = await storeAction(ready.checkout.url, "pay");
    expect(paid.status).toBe(200);
    expect(paid.headers.get("cache-control")).toBe("no-store");
    expect(paid.body).toEqual({ state: "SUCCEEDED", status: "SUCCEEDED" });
    const after = await m.api(`/v1/payments/${p.id}`);
    expect(after.body).toMatchObject({ status: "SUCCEEDED", checkout: { state: "SUCCEEDED", url: null, chargeAmount: "1015.05" } });
    expect(after.body.finalizedAt).not.toBeNull();

    const [got] = await rx.waitFor(1);
    assertPresent(got, "got");
    const verified = verifyCallback(got.body, got.headers, secret!);
    expect(verified.ok).toBe(true);
    const event = JSON.parse(got.body.toString("utf8"));
    expect(event).toMatchObject({
      type: "payment.succeeded",
      data: { id: p.id, reference: p.reference, status: "SUCCEEDED", amount: "250.00", currency: "EUR", environment: "sandbox" },
    });
    expect(event.data).not.toHaveProperty("customer");
    expect(event.data).not.toHaveProperty("checkout");
    // The ledger entry is in the original currency (net 243.75 EUR to the merchant, 6.25 EUR fee).
    const lines = await db.ledgerLine.findMany({ where: { entry: { paymentId: p.id } } });
    expect(lines.every((l) => l.currency === "EUR")).toBe(true);
    expect(lines.reduce((sum, l) => sum + l.amountMinor, 0n)).toBe(0n);

    // A second click, or the same link later: no second payment.
    const again = await storeAction(ready.checkout.url, "pay");
    expect(again.body).toEqual({ state: "SUCCEEDED", status: "SUCCEEDED" });
    const declined = await storeAction(ready.checkout.url, "decline");
    expect(errorOf(declined)).toEqual([409, "INVALID_STATE"]);
    expect(declined.body.error.message).toBe("this checkout has already been paid");
    expect(await db.ledgerEntry.count({ where: { paymentId: p.id } })).toBe(1);
    expect((await eventsOf(p.id)).map((e) => e.type)).toEqual(["payment.succeeded"]);

    // The page now shows the result and offers no buttons.
    const page = await openStorePage(ready.checkout.url);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Payment confirmed");
    expect(page.html).not.toContain("Sandbox test confirmation");
    // This merchant has a callback address: it is notified.
    expect(page.html).toContain("is notified and updates your order");
  });

  it("paid at a merchant without a callback address: the page does not promise a notification", async () => {
    const m = await newMerchant();
    const p = await createStorePayment(m);
    const ready = await waitForCheckout(m, p.id, "READY");
    expect((await storeAction(ready.checkout.url, "pay")).status).toBe(200);
    const page = await openStorePage(ready.checkout.url);
    expect(page.html).toContain("Payment confirmed");
    expect(page.html).not.toContain("is notified and updates your order");
    expect(page.html).toContain("has not set up automatic notifications");
  });

  it("concurrent pay clicks pay once; pay and decline at once: exactly one wins", async () => {
    const m = await newMerchant();
    const a = await createStorePayment(m);
    const readyA = await waitForCheckout(m, a.id, "READY");
    const clicks = await Promise.all(Array.from({ length: 5 }, () => storeAction(readyA.checkout.url, "pay")));
    expect(clicks.map((c) => c.status)).toEqual(Array(5).fill(200));
    expect(await db.ledgerEntry.count({ where: { paymentId: a.id } })).toBe(1);
    expect(await db.event.count({ where: { paymentId: a.id } })).toBe(1);

    const b = await createStorePayment(m);
    const readyB = await waitForCheckout(m, b.id, "READY");
    const both = await Promise.all([storeAction(readyB.checkout.url, "pay"), storeAction(readyB.checkout.url, "decline")]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const final = await db.payment.findUniqueOrThrow({ where: { id: b.id }, include: { storeCheckout: true } });
    expect(final.storeCheckout!.state).toBe(final.status);
    expect(await db.event.count({ where: { paymentId: b.id } })).toBe(1);
  });

  it("decline: checkout and payment FAILED, payment.failed, no ledger entry; pay is then 409", async () => {
    const m = await newMerchant();
    const p = await createStorePayment(m);
    const ready = await waitForCheckout(m, p.id, "READY");
    const declined = await storeAction(ready.checkout.url, "decline");
    expect(declined.body).toEqual({ state: "FAILED", status: "FAILED" });
    expect((await m.api(`/v1/payments/${p.id}`)).body).toMatchObject({ status: "FAILED", checkout: { state: "FAILED", url: null } });
    expect((await eventsOf(p.id)).map((e) => e.type)).toEqual(["payment.failed"]);
    expect(await db.ledgerEntry.count({ where: { paymentId: p.id } })).toBe(0);
    const pay = await storeAction(ready.checkout.url, "pay");
    expect(errorOf(pay)).toEqual([409, "INVALID_STATE"]);
    expect(pay.body.error.message).toContain("declined");
    const page = await openStorePage(ready.checkout.url);
    expect(page.html).toContain("Payment declined");
  });

  it("unknown or malformed tokens: 404 NOT_FOUND envelope on pay/decline, a clear 404 page (no stack trace)", async () => {
    const unknown = `http://x/store/${"A".repeat(43)}`;
    for (const url of [unknown, "http://x/store/short"]) {
      const res = await storeAction(url, "pay");
      expect(errorOf(res)).toEqual([404, "NOT_FOUND"]);
      expect(res.body.error.requestId).toMatch(/^[0-9a-f-]{36}$/);
      const page = await openStorePage(url);
      expect(page.status).toBe(404);
      expect(page.html).toContain("Store checkout not found");
      expect(page.html).not.toMatch(/at .*\.(js|ts):\d+/);
    }
  });
});

describe("expiry", () => {
  it("a QUEUED checkout expires with its payment (payment.expired); it is never handed off", async () => {
    const m = await newMerchant();
    const apiKey = (await authenticateRequest(`Bearer ${m.key}`, new Date())).apiKey;
    // Created 31 minutes ago: its acceptance period (30 minutes) has ended.
    const payment = await transaction((tx) =>
      createInProcess(tx, { apiKey, body: storeBody() as CreateStorePayment, now: new Date(Date.now() - 31 * 60_000) }),
    );
    const read = await waitForCheckout(m, payment.id, "EXPIRED");
    expect(read).toMatchObject({ status: "EXPIRED", checkout: { state: "EXPIRED", url: null, subtotal: null } });
    expect((await eventsOf(payment.id)).map((e) => e.type)).toEqual(["payment.expired"]);
    expect(await checkoutOf(payment.id)).toMatchObject({ handoffAttempts: 0, token: null });
  });

  it("a READY checkout expires with its payment: the url disappears, the page shows the expired notice and pay is 409", async () => {
    const m = await newMerchant();
    const p = await createStorePayment(m);
    const ready = await waitForCheckout(m, p.id, "READY");
    const past = new Date(Date.now() - 1000);
    await db.payment.update({ where: { id: p.id }, data: { expiresAt: past } });
    await db.storeCheckout.update({ where: { paymentId: p.id }, data: { expiresAt: past } });
    // Readers racing the sweep see the payment and its checkout from one snapshot: PENDING with READY, or
    // EXPIRED with EXPIRED, never a mix.
    let expired: Record<string, any> | null = null;
    for (let round = 0; !expired && round < 300; round++) {
      const reads = await Promise.all(Array.from({ length: 8 }, () => m.api(`/v1/payments/${p.id}`)));
      for (const read of reads) {
        expect([read.status, read.body.status, read.body.checkout.state]).toEqual(
          read.body.status === "EXPIRED" ? [200, "EXPIRED", "EXPIRED"] : [200, "PENDING", "READY"],
        );
        if (read.body.status === "EXPIRED") expired = read.body;
      }
    }
    expect(expired).toMatchObject({ status: "EXPIRED", checkout: { state: "EXPIRED", url: null } });
    expect((await eventsOf(p.id)).map((e) => e.type)).toEqual(["payment.expired"]);
    const page = await openStorePage(ready.checkout.url);
    expect(page.status).toBe(200);
    expect(page.html).toContain("This checkout has expired");
    const pay = await storeAction(ready.checkout.url, "pay");
    expect(errorOf(pay)).toEqual([409, "INVALID_STATE"]);
    expect(await db.ledgerEntry.count({ where: { paymentId: p.id } })).toBe(0);
  });

  it("a READY checkout past expiresAt cannot be paid even before the sweep has run", async () => {
    const m = await newMerchant();
    const { id, at } = await parked(m);
    await handOffCheckout(id, { now: at });
    const c = await checkoutOf(id);
    expect(c.state).toBe("READY");
    await db.payment.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const pay = await storeAction(`http://x/store/${c.token}`, "pay");
    expect(errorOf(pay)).toEqual([409, "INVALID_STATE"]);
    const page = await openStorePage(`http://x/store/${c.token}`);
    expect(page.html).toContain("This checkout has expired");
  });
});

describe("the store page", () => {
  it("shows the store, the basket, subtotal, the wheel, the AED total, the original amount and the sandbox buttons; bearer-link headers", async () => {
    const m = await eurStoreMerchant();
    // 2.50 EUR x 4.0602 = 10.15 AED: Balloon Pack 5.99 + Lip Balm 4.50 = 10.49, discount 0.34.
    const p = await createStorePayment(m, { amount: "2.50", currency: "EUR" });
    const ready = await waitForCheckout(m, p.id, "READY");
    expect(ready.checkout).toMatchObject({ chargeAmount: "10.15", subtotal: "10.49", discount: "0.34", matchType: "DISCOUNTED_BASKET" });
    const page = await openStorePage(ready.checkout.url);
    expect(page.status).toBe(200);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    for (const text of [
      "Sandpiper Test Store",
      "Sandpiper Sandbox Store FZ-LLC",
      p.reference,
      "Balloon Pack, 20",
      "Lip Balm",
      // Intl.NumberFormat's currency style: the code, a no-break space, the amount.
      "AED\u00a05.99",
      "AED\u00a04.50",
      "AED\u00a010.49",
      "AED\u00a010.15",
      "Your order: EUR\u00a02.50",
      "Pay <bdi>",
      'data-testid="discount-wheel"',
      "Sandbox test confirmation — no real charge",
      "Pay AED\u00a010.15",
      // The forms that work before the script has loaded, and the discount shown by the server.
      `action="${new URL(ready.checkout.url).pathname}/pay"`,
      `action="${new URL(ready.checkout.url).pathname}/decline"`,
      "− AED\u00a00.34",
      "Decline",
    ]) {
      expect(page.html, text).toContain(text);
    }
    // The wheel's one amount label is the computed discount.
    expect(page.html).toContain('data-label="0.34"');
    expect(page.html.match(/data-label="[^"]+"/g)).toEqual(['data-label="0.34"']);
    // No customer data on the page.
    expect(page.html).not.toContain("layla@example.com");

    // Pay as the form sends it before the script has loaded (Origin null under no-referrer): 303 to the page of the result.
    const path = new URL(ready.checkout.url).pathname;
    const form = (action: "pay" | "decline") =>
      fetch(`${baseUrl()}${path}/${action}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "null" },
        body: "",
        redirect: "manual",
      });
    const paid = await form("pay");
    expect([paid.status, paid.headers.get("location")]).toEqual([303, path]);
    expect((await db.payment.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("SUCCEEDED");
    expect((await openStorePage(ready.checkout.url)).html).toContain("Payment confirmed");
    // A second tap is refused without a change; the page says so in its own words.
    const again = await form("decline");
    expect(again.headers.get("location")).toBe(`${path}?problem=INVALID_STATE&action=decline`);
    expect((await db.payment.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("SUCCEEDED");
    expect(await (await fetch(`${baseUrl()}${again.headers.get("location")}`)).text()).toContain("This checkout had already moved on");
  });
});

describe("Inngest functions (@inngest/test)", () => {
  it("store-handoff: a store-handoff.due event hands the checkout off; an unknown or malformed id does nothing", async () => {
    const m = await newMerchant();
    const { id, at } = await parked(m);
    const storeHandoff = createInngestFunctions(() => at).find((f) => f.opts.id === "store-handoff")!;
    expect(storeHandoff.id()).toBe("store-handoff");
    expect(storeHandoff.opts.triggers).toEqual([{ event: STORE_HANDOFF_DUE_EVENT }]);
    const run = (paymentId: string) =>
      new InngestTestEngine({ function: storeHandoff }).execute({ events: [{ name: STORE_HANDOFF_DUE_EVENT, data: { paymentId } }] });
    const { result, error } = await run(id);
    expect(error).toBeUndefined();
    expect(result).toEqual({ paymentId: id, outcome: "READY", state: "READY", nextHandoffAt: null });
    expect((await run(id)).result).toEqual({ paymentId: id, outcome: null, state: "READY", nextHandoffAt: null });
    expect((await run("not-a-uuid")).result).toEqual({ paymentId: null, state: null });
  });

  it("store-handoffs: the catch-up cron hands off a due checkout nobody announced", async () => {
    const m = await newMerchant();
    const { id, at } = await parked(m);
    const storeCatchUp = createInngestFunctions(() => at).find((f) => f.opts.id === "store-handoffs")!;
    expect(storeCatchUp.opts.triggers).toEqual([{ cron: "* * * * *" }]);
    const { result, error } = await new InngestTestEngine({ function: storeCatchUp }).execute({ steps: pollingWaits("store-handoffs") });
    expect(error).toBeUndefined();
    expect((result as unknown[])[0]).toMatchObject({ held: false, ready: 1 });
    expect((await checkoutOf(id)).state).toBe("READY");
  });
});
