import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { expectAccessible } from "./support/axe";
import { base, seed, signIn } from "./support/console";
import { amountEntryMerchant, pollUntilReady, storeMerchant, type MerchantHeaders } from "./support/customer-merchants";
import { sql } from "./support/db";

// The customer pages' way back to the merchant (docs/api.md "Returning to your site"), merchant text shown isolated
// (docs/api.md "Conventions"), and the pages' focus, tab titles and tap targets, in Debian's Chromium on a phone.

test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, timezoneId: "UTC" });

// The store merchant's callbacks go to a port nobody listens on: these specs read the pages, not the callbacks.
const NO_RECEIVER = "http://127.0.0.1:9/callbacks";
const RETURN = "https://shop.example/orders/7?step=done";
const CANCEL = "http://localhost:4000/cart";
const MISLEADING = "INV-\u202E0001-DNUFER\u202C-80847";

async function storePayment(request: APIRequestContext, headers: MerchantHeaders, extra: Record<string, string> = {}) {
  const reference = `oryx-${randomUUID().slice(0, 8)}`;
  const res = await request.post(`${base()}/v1/store-payments`, {
    headers: { ...headers, "idempotency-key": `store-${reference}` },
    data: {
      reference,
      amount: "2.50",
      currency: "EUR",
      customer: { username: "layla.h", firstName: "Layla", lastName: "Haddad", email: "layla@example.com", country: "AE" },
      ...extra,
    },
  });
  expect(res.status()).toBe(201);
  const created = await res.json();
  return pollUntilReady(request, headers, created.id);
}

async function session(request: APIRequestContext, headers: MerchantHeaders, extra: Record<string, string> = {}) {
  const reference = `order-${randomUUID().slice(0, 8)}`;
  const res = await request.post(`${base()}/v1/checkout-sessions`, {
    headers: { ...headers, "idempotency-key": `open-${reference}` },
    data: { reference, customer: { id: "cust-42", firstName: "Layla", lastName: "Haddad", email: "layla@example.com", phone: "+971501234567" }, ...extra },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; customerCheckout: { url: string } };
}

/** The element's rendered box is at least 44 x 44 CSS px (WCAG 2.5.5 target size). */
async function expectTapTarget(target: Locator, what: string) {
  const box = await target.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.height, `${what}: height`).toBeGreaterThanOrEqual(44);
  expect(box!.width, `${what}: width`).toBeGreaterThanOrEqual(44);
}

// The store page's wheel draws its text in SVG, which axe cannot measure: e2e/store-checkout.spec.ts measures it.
const WHEEL = { contrastCheckedBySpec: '[data-testid="discount-wheel"]' };

/** The return link: its name, where it leads, its size; the page passes axe with it. */
async function expectReturnLink(page: Page, href: string, name: RegExp, what: string) {
  const link = page.getByRole("link", { name });
  await expect(link, what).toHaveCount(1);
  await expect(link, what).toHaveAttribute("href", href);
  await expectTapTarget(link, what);
  await expectAccessible(page, what, WHEEL);
}

test("a store payment with returnUrl and cancelUrl links back from the open, paid, declined and expired pages; without them no link", async ({
  page,
  request,
}) => {
  const { headers } = storeMerchant(NO_RECEIVER);
  // The wheel shows the discount at once (reduced motion), so nothing moves under axe.
  await page.emulateMedia({ reducedMotion: "reduce" });
  const leave = /^Leave without paying and return to Oryx Home Goods$/;
  const back = /^Return to Oryx Home Goods$/;

  const paid = await storePayment(request, headers, { returnUrl: RETURN, cancelUrl: CANCEL });
  await page.goto(paid.checkout.url);
  await expect(page).toHaveTitle(/^Ready to pay · Store checkout/);
  await expectReturnLink(page, CANCEL, leave, "the open store page");
  for (const name of [/^Pay AED/, /^Decline$/]) await expectTapTarget(page.getByRole("button", { name }), `${name}`);
  // Pay is the primary action, Decline the secondary one: they look different.
  const fill = (name: RegExp) => page.getByRole("button", { name }).evaluate((b) => getComputedStyle(b).backgroundColor);
  expect(await fill(/^Pay AED/)).not.toBe(await fill(/^Decline$/));
  await page.getByRole("button", { name: /^Pay AED/ }).click();
  await expect(page.getByRole("heading", { name: "Payment confirmed" })).toBeVisible();
  await expect(page).toHaveTitle(/^Payment confirmed · Store checkout/);
  await expectReturnLink(page, RETURN, back, "the paid page");

  // The declined and expired pages lead to returnUrl when no cancelUrl was given.
  const declined = await storePayment(request, headers, { returnUrl: RETURN });
  await page.goto(declined.checkout.url);
  await expectReturnLink(page, RETURN, leave, "the open store page without cancelUrl");
  await page.getByRole("button", { name: "Decline" }).click();
  await expect(page.getByRole("heading", { name: "Payment declined" })).toBeVisible();
  await expect(page).toHaveTitle(/^Payment declined · Store checkout/);
  await expectReturnLink(page, RETURN, back, "the declined page");

  const expired = await storePayment(request, headers, { returnUrl: RETURN, cancelUrl: CANCEL });
  await sql("UPDATE payments SET expires_at = $2 WHERE id = $1", [expired.id, new Date(Date.now() - 1000)]);
  await page.goto(expired.checkout.url);
  await expect(page.getByRole("heading", { name: "This checkout has expired" })).toBeVisible();
  await expect(page).toHaveTitle(/^Checkout expired · Store checkout/);
  await expectReturnLink(page, CANCEL, back, "the expired page");

  // Without any address: no link at all, as before.
  const plain = await storePayment(request, headers);
  await page.goto(plain.checkout.url);
  await expect(page.getByRole("heading", { name: "Sandbox test confirmation — no real charge" })).toBeVisible();
  await expect(page.locator("a:not([data-testid=language-switch])")).toHaveCount(0); // no link but the language switch
  await page.getByRole("button", { name: /^Pay AED/ }).click();
  await expect(page.getByRole("heading", { name: "Payment confirmed" })).toBeVisible();
  await expect(page.locator("a:not([data-testid=language-switch])")).toHaveCount(0); // no link but the language switch

  // An unknown link's tab says so too.
  await page.goto(`${base()}/store/${"x".repeat(43)}`);
  await expect(page).toHaveTitle("Link not found · Store checkout · Sandpiper sandbox");
});

test("a checkout session with returnUrl links back from the open, confirmed and expired pages; the buttons differ and errors take the focus", async ({
  page,
  request,
}) => {
  const { headers } = amountEntryMerchant();
  const leave = /^Leave without paying and return to Falcon Outfitters$/;
  const back = /^Return to Falcon Outfitters$/;
  const s = await session(request, headers, { returnUrl: RETURN });
  await page.goto(s.customerCheckout.url);
  await expect(page).toHaveTitle(/^Enter the amount · Checkout/);
  await expectReturnLink(page, RETURN, leave, "the amount entry page");

  // A failed Show total (offline) puts the focus on the message, not on the page's body.
  await page.getByLabel("Amount").fill("150");
  await page.context().setOffline(true);
  await page.getByRole("button", { name: "Show total" }).click();
  const failed = page.locator("form").getByRole("alert");
  await expect(failed).toHaveText("The connection failed. Check your connection and try again.");
  await expect(failed).toBeFocused();
  await page.context().setOffline(false);
  await page.getByRole("button", { name: "Show total" }).click();
  await expect(page.getByRole("heading", { name: "Your total" })).toBeVisible();
  await expect(page).toHaveTitle(/^Your total · Checkout/);

  // The toggle and every button are tap-sized; "Update total" is secondary beside the primary "Confirm total".
  const toggle = page.getByText("Change amount or currency");
  await expectTapTarget(toggle, "the change toggle");
  await toggle.click();
  const confirm = page.getByRole("button", { name: /^Confirm total/ });
  const update = page.getByRole("button", { name: "Update total" });
  await expectTapTarget(confirm, "Confirm total");
  await expectTapTarget(update, "Update total");
  const look = (b: Locator) => b.evaluate((e) => `${getComputedStyle(e).backgroundColor} ${getComputedStyle(e).color}`);
  expect(await look(update)).not.toBe(await look(confirm));
  await expectAccessible(page, "the quoted page with the change form open");

  // A failed Confirm (offline) too.
  await page.context().setOffline(true);
  await confirm.click();
  const confirmFailed = page.getByRole("alert").filter({ hasText: "The connection failed" });
  await expect(confirmFailed).toBeFocused();
  await page.context().setOffline(false);
  await confirm.click();
  await expect(page.getByRole("heading", { name: "Total confirmed" })).toBeVisible();
  await expect(page).toHaveTitle(/^Total confirmed · Checkout/);
  await expectReturnLink(page, RETURN, back, "the confirmed page");

  const expired = await session(request, headers, { returnUrl: RETURN, cancelUrl: "https://shop.example/cart" });
  await sql("UPDATE checkout_sessions SET expires_at = $2 WHERE id = $1", [expired.id, new Date(Date.now() - 1000)]);
  await page.goto(expired.customerCheckout.url);
  await expect(page).toHaveTitle(/^Link expired · Checkout/);
  await expectReturnLink(page, "https://shop.example/cart", back, "the expired page");

  const plain = await session(request, headers);
  await page.goto(plain.customerCheckout.url);
  await expect(page.getByRole("heading", { name: "How much do you want to pay?" })).toBeVisible();
  await expect(page.locator("a:not([data-testid=language-switch])")).toHaveCount(0); // no link but the language switch
});

test("a failed Pay puts the focus on the message", async ({ page, request }) => {
  const { headers } = storeMerchant(NO_RECEIVER);
  const ready = await storePayment(request, headers);
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto(ready.checkout.url);
  await expect(page.getByTestId("discount-wheel")).toHaveAttribute("data-landed", "true");
  await page.context().setOffline(true);
  await page.getByRole("button", { name: /^Pay AED/ }).click();
  const failed = page.getByRole("alert").filter({ hasText: "The connection failed" });
  await expect(failed).toBeFocused();
  await expectAccessible(page, "the store page after a failed Pay", WHEEL);
  await page.context().setOffline(false);
});

test("a reference stored before the rule reads isolated on both customer pages and the console's payment page", async ({ page, request }) => {
  const isolated = (target: Locator) => target.evaluate((e) => getComputedStyle(e).unicodeBidi);

  const { headers: storeHeaders } = storeMerchant(NO_RECEIVER);
  const ready = await storePayment(request, storeHeaders);
  await sql("UPDATE payments SET reference = $2 WHERE id = $1", [ready.id, MISLEADING]);
  await page.goto(ready.checkout.url);
  await expect(page.getByTestId("reference")).toHaveText(MISLEADING);
  expect(await isolated(page.getByTestId("reference"))).toBe("isolate");

  const { headers } = amountEntryMerchant();
  const s = await session(request, headers);
  await sql("UPDATE checkout_sessions SET reference = $2 WHERE id = $1", [s.id, `${MISLEADING}-s`]);
  await page.goto(s.customerCheckout.url);
  await expect(page.getByTestId("reference")).toHaveText(`${MISLEADING}-s`);
  expect(await isolated(page.getByTestId("reference"))).toBe("isolate");

  // The console: sign-in fields at least 44 px tall, then the payment page and the list.
  await page.goto(`${base()}/console/sign-in`);
  for (const field of [page.getByLabel("User name"), page.getByLabel("Password"), page.getByRole("button", { name: "Sign in" })]) {
    const box = await field.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
  }
  const { operator } = seed().users;
  await signIn(page, operator.username, operator.password);
  await page.goto(`${base()}/console/payments/${ready.id}`);
  for (const id of ["payment-title-reference", "payment-reference"]) {
    await expect(page.getByTestId(id)).toHaveText(MISLEADING);
    expect(await isolated(page.getByTestId(id))).toBe("isolate");
  }
  await expectAccessible(page, "the console's payment page with an isolated reference");
});
