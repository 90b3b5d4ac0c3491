import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db, depositBody, insertPendingPayment, newMerchant } from "../support/fixtures";
import { amountEntryMerchant, customerAction, openPage, openSession, sessionBody } from "../support/checkout-sessions";
import { createStorePayment, openStorePage, storeAction, storeBody, waitForCheckout } from "../support/store";
import { getWithSession, postAction, sessionOf } from "../support/console-http";

// docs/api.md "Returning to your site" (returnUrl, cancelUrl, the console's default) and "Conventions" (merchant text
// without bidirectional controls; docs/decisions/0206-merchant-text-without-direction-controls.md).

const OWNER_PASSWORD = "owner-password-1";
const MISLEADING = "INV-\u202E0001-DNUFER\u202C-80847";
const links = (html: string) => [...html.matchAll(/<a [^>]*data-testid="return-link"[^>]*>(.*?)<\/a>/g)].map((m) => [/href="([^"]*)"/.exec(m[0])?.[1], m[1]]);

describe("merchant text that cannot mislead", () => {
  it("a reference with U+202E is refused naming reference by every create, and nothing is stored", async () => {
    const m = await amountEntryMerchant();
    const store = await newMerchant();
    for (const [merchant, path, body] of [
      [store, "/v1/payments", depositBody({ reference: MISLEADING })],
      [store, "/v1/store-payments", storeBody({ reference: MISLEADING })],
      [m, "/v1/checkout-sessions", sessionBody({ reference: MISLEADING })],
    ] as const) {
      const res = await merchant.api(path, { body });
      expect(res.status, path).toBe(400);
      expect(res.body.error.code, path).toBe("VALIDATION_ERROR");
      expect(res.body.error.message, path).toMatch(/^reference: must not contain bidirectional control characters/);
    }
    const line = await store.api("/v1/store-payments", { body: storeBody({ customer: { ...storeBody().customer, lastName: "Had\u2028dad" } }) });
    expect([line.status, line.body.error.message]).toEqual([400, expect.stringMatching(/^customer\.lastName: must not contain/)]);
    expect(await db.payment.count({ where: { merchantId: store.merchant.id } })).toBe(0);
    expect(await db.checkoutSession.count({ where: { merchantId: m.merchant.id } })).toBe(0);
  });

  it("a reference stored before the rule is shown isolated on both customer pages and the console's payment page", async () => {
    const m = await amountEntryMerchant();
    const session = await openSession(m);
    await db.checkoutSession.update({ where: { id: session.id }, data: { reference: MISLEADING } });
    const checkout = await openPage(session.customerCheckout.url);
    expect(checkout.html).toMatch(new RegExp(`<bdi[^>]*data-testid="reference"[^>]*>${MISLEADING}</bdi>`));

    const store = await newMerchant();
    const created = await createStorePayment(store);
    const ready = await waitForCheckout(store, created.id, "READY");
    await db.payment.update({ where: { id: created.id }, data: { reference: MISLEADING, description: `Refund\u2067 ${MISLEADING}` } });
    const page = await openStorePage(ready.checkout.url);
    expect(page.html).toMatch(new RegExp(`<bdi[^>]*data-testid="reference"[^>]*>${MISLEADING}</bdi>`));

    const cookie = await sessionOf(store.owner, OWNER_PASSWORD);
    const consolePage = await getWithSession(`/console/payments/${created.id}`, cookie);
    expect(consolePage.status).toBe(200);
    const html = await consolePage.text();
    expect(html).toMatch(new RegExp(`<bdi[^>]*data-testid="payment-title-reference"[^>]*>${MISLEADING}</bdi>`));
    expect(html).toMatch(new RegExp(`<bdi[^>]*data-testid="payment-reference"[^>]*>${MISLEADING}</bdi>`));
    expect(html).toContain(`<bdi>Refund\u2067 ${MISLEADING}</bdi>`);
    // And in the console's list of payments.
    const row = await insertPendingPayment(store.merchant.id, { reference: `${MISLEADING}-${randomUUID().slice(0, 4)}` });
    const list = await (await getWithSession("/console/payments", cookie)).text();
    expect(list).toContain(`<bdi>${row.reference}</bdi>`);
  });
});

describe("returning to the merchant's site", () => {
  it("returnUrl and cancelUrl are checked (https; this machine only in local mode) and refused naming the member; nothing is created", async () => {
    const store = await newMerchant();
    const m = await amountEntryMerchant();
    for (const [member, url, reason] of [
      ["returnUrl", "http://shop.example/done", /^returnUrl: scheme must be https/],
      ["cancelUrl", "javascript:alert(1)", /^cancelUrl: scheme must be https/],
      ["returnUrl", "https://user:secret@shop.example/", /^returnUrl: must not contain a user name or password/],
      ["cancelUrl", "/relative", /^cancelUrl: must be an absolute https address/],
    ] as const) {
      for (const [merchant, path, body] of [
        [store, "/v1/store-payments", storeBody({ [member]: url })],
        [m, "/v1/checkout-sessions", sessionBody({ [member]: url })],
      ] as const) {
        const res = await merchant.api(path, { body });
        expect([res.status, res.body.error.code], `${path} ${member} ${url}`).toEqual([400, "VALIDATION_ERROR"]);
        expect(res.body.error.message, `${path} ${member} ${url}`).toMatch(reason);
      }
    }
    const long = await store.api("/v1/store-payments", { body: storeBody({ returnUrl: `https://shop.example/${"a".repeat(2048)}` }) });
    expect([long.status, long.body.error.message]).toEqual([400, expect.stringMatching(/^returnUrl: /)]);
    expect(await db.payment.count({ where: { merchantId: store.merchant.id } })).toBe(0);
    expect(await db.checkoutSession.count({ where: { merchantId: m.merchant.id } })).toBe(0);
    // Members of the body only: a query string names nothing.
    const query = await store.api("/v1/store-payments?returnUrl=https://evil.example/", { body: storeBody() });
    expect(query.status).toBe(201);
    expect(await db.storeCheckout.findUniqueOrThrow({ where: { paymentId: query.body.id } })).toMatchObject({ returnUrl: null, cancelUrl: null });
  });

  it("a store payment: the answer is as before, the addresses are kept, and the ending pages link to them; without them no link", async () => {
    const store = await newMerchant();
    const created = await createStorePayment(store, { returnUrl: "https://shop.example/orders/7?step=done", cancelUrl: "http://localhost:4000/cart" });
    expect(created).not.toHaveProperty("returnUrl");
    expect(created).not.toHaveProperty("cancelUrl");
    expect(await db.storeCheckout.findUniqueOrThrow({ where: { paymentId: created.id } })).toMatchObject({
      returnUrl: "https://shop.example/orders/7?step=done",
      cancelUrl: "http://localhost:4000/cart",
    });
    const ready = await waitForCheckout(store, created.id, "READY");
    const open = await openStorePage(ready.checkout.url);
    expect(links(open.html)).toEqual([["http://localhost:4000/cart", expect.stringContaining("Leave without paying and return to")]]);
    expect((await storeAction(ready.checkout.url, "pay")).status).toBe(200);
    const paid = await openStorePage(ready.checkout.url);
    expect(paid.html).toContain("Payment confirmed");
    expect(links(paid.html)).toEqual([["https://shop.example/orders/7?step=done", expect.stringMatching(/^Return to (<!-- -->)?<bdi>/)]]);
    expect(paid.html).toContain(`<bdi>${store.merchant.name}</bdi>`);

    const plain = await createStorePayment(store);
    const plainReady = await waitForCheckout(store, plain.id, "READY");
    expect(links((await openStorePage(plainReady.checkout.url)).html)).toEqual([]);
    await storeAction(plainReady.checkout.url, "decline");
    const declined = await openStorePage(plainReady.checkout.url);
    expect(declined.html).toContain("Payment declined");
    expect(links(declined.html)).toEqual([]);
  });

  it("a checkout session: cancelUrl from the open and expired pages, returnUrl from the confirmed page; the console's default fills in", async () => {
    const m = await amountEntryMerchant();
    const session = await openSession(m, { returnUrl: "https://shop.example/thanks", cancelUrl: "https://shop.example/cart" });
    expect(session).not.toHaveProperty("returnUrl");
    expect(links((await openPage(session.customerCheckout.url)).html)).toEqual([
      ["https://shop.example/cart", expect.stringContaining("Leave without paying")],
    ]);
    await customerAction(session.customerCheckout.url, "quote", { amount: "10.00", currency: "AED" });
    await customerAction(session.customerCheckout.url, "confirm", { amount: "10.00", currency: "AED" });
    const confirmed = await openPage(session.customerCheckout.url);
    expect(confirmed.html).toContain("Total confirmed");
    expect(links(confirmed.html)).toEqual([["https://shop.example/thanks", expect.stringContaining("Return to")]]);

    // The merchant's default, set in the console, serves the sessions without their own.
    const cookie = await sessionOf(m.owner, OWNER_PASSWORD);
    const refused = await postAction("callbacks.setReturnUrlAction", { merchantId: m.merchant.id, url: "http://shop.example/" }, { cookie });
    expect(refused.state).toMatchObject({ status: "error" });
    expect(JSON.stringify(refused.state)).toContain("scheme must be https");
    const saved = await postAction("callbacks.setReturnUrlAction", { merchantId: m.merchant.id, url: "https://shop.example/account" }, { cookie });
    expect(saved.state).toMatchObject({ status: "ok" });
    const plain = await openSession(m);
    await db.checkoutSession.update({ where: { id: plain.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await openPage(plain.customerCheckout.url);
    expect(expired.html).toContain("This checkout link has expired");
    expect(links(expired.html)).toEqual([["https://shop.example/account", expect.stringContaining("Return to")]]);
    // Removing it brings the pages back to no link.
    await postAction("callbacks.setReturnUrlAction", { merchantId: m.merchant.id, url: "" }, { cookie });
    expect(links((await openPage(plain.customerCheckout.url)).html)).toEqual([]);
  });
});
