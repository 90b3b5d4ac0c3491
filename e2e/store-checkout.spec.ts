import { expect, test, type Page } from "@playwright/test";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { contrastRatio, expectAccessible } from "./support/axe";
import { createStorePayment, pollUntilReady, storeMerchant } from "./support/customer-merchants";
import { sql } from "./support/db";
import { saveScreenshot } from "./support/screenshots";
import { verifyCallback } from "../clients/cli/src/verify";

// Fixed-amount store checkout end to end in Debian's Chromium on a phone-sized viewport (docs/api.md "Overview" 4, 6, 7; Endpoints rule 2): the merchant server creates a store payment through the API,
// polls GET /v1/payments/{id} every 3 s until checkout.state is READY, sends the customer to checkout.url,
// the store page spins the wheel onto the computed discount, the customer pays (or declines) with the
// store's sandbox test confirmation, and the merchant's own receiver gets a signed payment.succeeded (or
// payment.failed) that verifies and carries the original amount and currency.

const base = () => process.env.SANDPIPER_URL!;
const shot = (page: Page, name: string) => saveScreenshot(page, `store-${name}.png`, { fullPage: true });

// A customer whose browser runs on UTC: the page names the time zone of every time it shows.
test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, timezoneId: "UTC" });

type Callback = { headers: http.IncomingHttpHeaders; body: Buffer };

/** The merchant's callback receiver (node:http on loopback; the e2e service allows loopback receivers). */
async function startReceiver() {
  const received: Callback[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`,
    received,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** The segment under the wheel's pointer: the element just below the pointer's tip. */
async function labelUnderPointer(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const pointer = document.querySelector('[data-testid="wheel-pointer"]')!.getBoundingClientRect();
    const hit = document.elementFromPoint(pointer.left + pointer.width / 2, pointer.bottom + 12);
    return hit?.closest("[data-segment]")?.getAttribute("data-label") ?? null;
  });
}

/** Each wheel segment's text colour and fill as rendered, in sRGB (`rgb(r, g, b)`; the page's CSS may use lab or oklch). */
function wheelColours(page: Page): Promise<{ segment: string; text: string; fill: string }[]> {
  return page.evaluate(() => {
    const ctx = Object.assign(document.createElement("canvas"), { width: 1, height: 1 }).getContext("2d", { willReadFrequently: true })!;
    const srgb = (colour: string) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = colour;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
      return `rgb(${r}, ${g}, ${b})`;
    };
    return [...document.querySelectorAll("[data-segment]")].map((g) => ({
      segment: g.getAttribute("data-segment")!,
      text: srgb(getComputedStyle(g.querySelector("text")!).fill),
      fill: srgb(getComputedStyle(g.querySelector("path")!).fill),
    }));
  });
}

async function waitForCallback(received: Callback[], type: string) {
  await expect.poll(() => received.filter((r) => JSON.parse(r.body.toString("utf8")).type === type).length, { timeout: 20_000 }).toBe(1);
  return received.find((r) => JSON.parse(r.body.toString("utf8")).type === type)!;
}

test("pay: API -> poll to READY -> store page, the wheel lands on the discount -> Pay -> a verified payment.succeeded with the original amount", async ({
  page,
  request,
}) => {
  const receiver = await startReceiver();
  try {
    const { headers, callbackSecret } = storeMerchant(receiver.url);
    // 2.50 EUR x 4.0602 = 10.15 AED; no product costs 10.15, so the store builds a discounted basket.
    const created = await createStorePayment(request, headers, "2.50");
    expect(created.checkout.chargeAmount).toBe("10.15");
    const ready = await pollUntilReady(request, headers, created.id);
    expect(ready.checkout).toMatchObject({ chargeAmount: "10.15", subtotal: "10.49", discount: "0.34", matchType: "DISCOUNTED_BASKET" });

    const response = await page.goto(ready.checkout.url);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
    // The merchant first, then the store that sells the basket; the order's own amount beside the charged total.
    await expect(page.getByRole("heading", { name: "Pay Oryx Home Goods", level: 1 })).toBeVisible();
    await expect(page.getByText("Sold through Sandpiper Test Store")).toBeVisible();
    await expect(page.getByText("Sandpiper Sandbox Store FZ-LLC").first()).toBeVisible();
    await expect(page.getByTestId("basket-line")).toHaveCount(2);
    await expect(page.getByTestId("basket-line").nth(0)).toContainText("Balloon Pack, 20");
    await expect(page.getByTestId("basket-line").nth(0)).toContainText("1 × AED 5.99");
    await expect(page.getByTestId("basket-line").nth(1)).toContainText("Lip Balm");
    await expect(page.getByTestId("subtotal")).toHaveText("AED 10.49");
    await expect(page.getByText("This link is valid until")).toHaveText(/^This link is valid until \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC\.$/);

    // The wheel spins, then lands: the label under the pointer is the computed discount.
    const wheel = page.getByTestId("discount-wheel");
    await expect(wheel).toHaveAttribute("data-landed", "false");
    await expect(page.getByTestId("discount-value")).toHaveText("spinning…");
    await shot(page, "spinning");
    await expect(wheel).toHaveAttribute("data-landed", "true", { timeout: 10_000 });
    // The last frame of the transition settles.
    await expect.poll(() => labelUnderPointer(page)).toBe("0.34");
    await expect(page.getByTestId("discount-value")).toHaveText("− AED 0.34");
    await expect(page.getByTestId("total")).toHaveText("AED 10.15");
    await expect(page.getByTestId("order-amount")).toHaveText("Your order: EUR 2.50");
    await expect(page.getByTestId("original-amount")).toContainText("EUR 2.50");
    await expect(page.getByRole("heading", { name: "Sandbox test confirmation — no real charge" })).toBeVisible();
    await shot(page, "ready");
    // axe cannot see SVG backgrounds: each wheel segment's text is measured against the segment's fill here.
    await expectAccessible(page, "the store page after the wheel landed", { contrastCheckedBySpec: '[data-testid="discount-wheel"]' });
    for (const { segment, text, fill } of await wheelColours(page)) {
      expect(contrastRatio(text, fill), `wheel segment ${segment}: ${text} on ${fill}`).toBeGreaterThanOrEqual(4.5);
    }

    await page.getByRole("button", { name: "Pay AED 10.15" }).click();
    await expect(page.getByRole("heading", { name: "Payment confirmed" })).toBeVisible();
    await expect(page.getByRole("button", { name: /Pay/ })).toHaveCount(0);
    await shot(page, "paid");
    await expectAccessible(page, "the paid page");

    // The merchant finishes only on a verified callback (or an authenticated read showing SUCCEEDED).
    const callback = await waitForCallback(receiver.received, "payment.succeeded");
    const verified = verifyCallback(callback.body, callback.headers, callbackSecret);
    expect(verified.ok).toBe(true);
    const event = JSON.parse(callback.body.toString("utf8"));
    expect(event.data).toMatchObject({
      id: created.id,
      reference: created.reference,
      status: "SUCCEEDED",
      amount: "2.50",
      currency: "EUR",
      environment: "sandbox",
    });
    const read = await (await request.get(`${base()}/v1/payments/${created.id}`, { headers })).json();
    expect(read).toMatchObject({ status: "SUCCEEDED", checkout: { state: "SUCCEEDED", url: null } });

    // Opening the link again shows the result; it cannot pay twice.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Payment confirmed" })).toBeVisible();
    const again = await request.post(`${ready.checkout.url}/decline`);
    expect(again.status()).toBe(409);
    const [{ n } = { n: "none" }] = await sql<{ n: string }>("SELECT count(*) AS n FROM ledger_entries WHERE payment_id = $1", [created.id]);
    expect(Number(n)).toBe(1);
  } finally {
    await receiver.close();
  }
});

test("decline (reduced motion: the wheel shows the discount without spinning) -> a verified payment.failed", async ({ page, request }) => {
  const receiver = await startReceiver();
  try {
    const { headers, callbackSecret } = storeMerchant(receiver.url);
    // 2.60 EUR x 4.0602 = 10.56 AED: Dish Sponge 6.50 + Lip Balm 4.50 = 11.00, discount 0.44.
    const created = await createStorePayment(request, headers, "2.60");
    const ready = await pollUntilReady(request, headers, created.id);
    expect(ready.checkout).toMatchObject({ chargeAmount: "10.56", subtotal: "11.00", discount: "0.44" });

    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(ready.checkout.url);
    await expect(page.getByTestId("discount-wheel")).toHaveAttribute("data-landed", "true");
    expect(await labelUnderPointer(page)).toBe("0.44");
    await expect(page.getByTestId("discount-value")).toHaveText("− AED 0.44");

    await page.getByRole("button", { name: "Decline" }).click();
    await expect(page.getByRole("heading", { name: "Payment declined" })).toBeVisible();
    await expect(page.getByText("Nothing was charged")).toBeVisible();
    await shot(page, "declined");
    await expectAccessible(page, "the declined page");

    const callback = await waitForCallback(receiver.received, "payment.failed");
    expect(verifyCallback(callback.body, callback.headers, callbackSecret).ok).toBe(true);
    expect(JSON.parse(callback.body.toString("utf8")).data).toMatchObject({ id: created.id, status: "FAILED", amount: "2.60", currency: "EUR" });
    expect(receiver.received.some((r) => JSON.parse(r.body.toString("utf8")).type === "payment.succeeded")).toBe(false);
  } finally {
    await receiver.close();
  }
});

test("an expired checkout and an unknown link get clear pages", async ({ page, request }) => {
  const receiver = await startReceiver();
  try {
    const { headers } = storeMerchant(receiver.url);
    const created = await createStorePayment(request, headers, "2.50");
    const ready = await pollUntilReady(request, headers, created.id);
    await sql("UPDATE payments SET expires_at = $2 WHERE id = $1", [created.id, new Date(Date.now() - 1000)]);
    const response = await page.goto(ready.checkout.url);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "This checkout has expired" })).toBeVisible();
    await expect(page.getByRole("button", { name: /Pay/ })).toHaveCount(0);
    await shot(page, "expired");
    await expectAccessible(page, "the expired page");

    const unknown = await page.goto(`${new URL(ready.checkout.url).origin}/store/${"x".repeat(43)}`);
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Store checkout not found" })).toBeVisible();
    await shot(page, "not-found");
    await expectAccessible(page, "the not-found page");
  } finally {
    await receiver.close();
  }
});
