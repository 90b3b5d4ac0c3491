import { expect, test, type Route } from "@playwright/test";
import { expectAccessible } from "./support/axe";
import { amountEntryMerchant, createStorePayment, openSession, pollUntilReady, storeMerchant } from "./support/customer-merchants";
import { sql } from "./support/db";

// The customer pages work before and without their JavaScript (docs/guides/store-checkout.md, docs/guides/amount-entry-checkout.md;
// docs/decisions/0209-customer-forms-post-to-their-action-routes.md): every action is an HTML form posted to the action's
// route, answered 303 with the page of the new state. Both flows are completed with JavaScript switched off, and Pay is
// tapped while the page's scripts are held back.

const base = () => process.env.SANDPIPER_URL!;
test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, timezoneId: "UTC" });

// The merchants' callbacks are not what these tests look at: an address nothing listens on.
const NO_RECEIVER = "http://127.0.0.1:9/callbacks";

test.describe("JavaScript switched off", () => {
  test.use({ javaScriptEnabled: false });

  test("the store: the discount is on the server's page, Pay is sent by the form and the page shows the payment made", async ({ page, request }) => {
    const { headers } = storeMerchant(NO_RECEIVER);
    // 2.50 EUR x 4.0602 = 10.15 AED: Balloon Pack 5.99 + Lip Balm 4.50 = 10.49, discount 0.34.
    const created = await createStorePayment(request, headers, "2.50");
    const ready = await pollUntilReady(request, headers, created.id);
    await page.goto(ready.checkout.url);
    await expect(page.getByRole("heading", { name: "Pay Oryx Home Goods", level: 1 })).toBeVisible();
    // No "spinning…" without a script: the wheel is drawn landed and the discount is said.
    await expect(page.getByTestId("discount-wheel")).toHaveAttribute("data-landed", "true");
    await expect(page.getByTestId("discount-value")).toHaveText("− AED 0.34");
    await expect(page.getByTestId("total")).toHaveText("AED 10.15");
    await expect(page.getByTestId("order-amount")).toHaveText("Your order: EUR 2.50");

    await page.getByRole("button", { name: "Pay AED 10.15" }).click();
    await expect(page.getByRole("heading", { name: "Payment confirmed" })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(new URL(ready.checkout.url).pathname);
    const read = await (await request.get(`${base()}/v1/payments/${created.id}`, { headers })).json();
    expect(read).toMatchObject({ status: "SUCCEEDED", checkout: { state: "SUCCEEDED" } });
  });

  test("amount entry: a refused amount stays in the field with the reason; Show total, Update and Confirm complete the flow", async ({ page, request }) => {
    const { merchantId, headers } = amountEntryMerchant();
    const session = await openSession(request, headers);
    await page.goto(session.customerCheckout.url);
    const amount = page.getByLabel("Amount", { exact: true });

    // The form goes to the server, which refuses it: the page comes back with the amount as typed and why.
    await amount.fill("12.345");
    await page.getByLabel("Currency").selectOption("USD");
    await page.getByRole("button", { name: "Show total" }).click();
    await expect(page.locator("form").getByRole("alert")).toHaveText("Enter an amount in digits with at most 2 decimals, for example 150.00.");
    await expect(page.getByLabel("Amount", { exact: true })).toHaveValue("12.345");
    await expect(page.getByLabel("Currency")).toHaveValue("USD");

    // A comma that is not a thousands separator is ambiguous: refused with the reason, as the script refuses it.
    await page.getByLabel("Amount", { exact: true }).fill("150,5");
    await page.getByRole("button", { name: "Show total" }).click();
    await expect(page.locator("form").getByRole("alert")).toContainText("A comma is only read between groups of three digits");
    await expect(page.getByLabel("Amount", { exact: true })).toHaveValue("150,5");
    // Arabic-Indic digits with the Arabic decimal separator are read as the script reads them.
    await page.getByLabel("Amount", { exact: true }).fill("١٥٠٫٥");
    await page.getByRole("button", { name: "Show total" }).click();
    await expect(page.getByRole("heading", { name: "Your total" })).toBeVisible();
    // 150.50 USD x 3.7462254375 = 563.81 AED (half up).
    await expect(page.getByTestId("charged-total")).toHaveText("AED 563.81");
    await expect(page.getByTestId("entered-amount")).toHaveText("for USD 150.50");

    // Update from the folded form (a <details>, which opens without a script).
    await page.getByText("Change amount or currency").click();
    await page.getByLabel("Amount", { exact: true }).fill("1123.52");
    await page.getByRole("button", { name: "Update total" }).click();
    await expect(page.getByTestId("charged-total")).toHaveText("AED 4,208.96");
    await expect(page.getByLabel("Amount", { exact: true })).toHaveValue("1123.52");

    await page.getByRole("button", { name: "Confirm total of AED 4,208.96" }).click();
    await expect(page.getByRole("heading", { name: "Total confirmed" })).toBeVisible();
    await expect(page.getByTestId("next-step")).toBeVisible();
    const [row] = await sql<{ state: string; amount_minor: string; currency: string }>(
      "SELECT state, amount_minor, currency FROM checkout_sessions WHERE merchant_id = $1",
      [merchantId],
    );
    expect(row).toEqual({ state: "AWAITING_VERIFICATION", amount_minor: "112352", currency: "USD" });
  });
});

test("a tap on Pay while the page's scripts are held back is sent by the form: the payment is made and the page says so", async ({ page, request }) => {
  const { headers } = storeMerchant(NO_RECEIVER);
  const created = await createStorePayment(request, headers, "2.60");
  const ready = await pollUntilReady(request, headers, created.id);

  // Hold every script of the build back until after the tap.
  const held: Route[] = [];
  await page.route("**/_next/static/**/*.js", (route) => {
    held.push(route);
  });
  await page.goto(ready.checkout.url, { waitUntil: "domcontentloaded" });
  await expect.poll(() => held.length).toBeGreaterThan(0);
  // Nothing has hydrated: the server's page shows the discount without the wheel's spin.
  await expect(page.getByTestId("discount-value")).toHaveText("− AED 0.44");

  await page.getByRole("button", { name: "Pay AED 10.56" }).click();
  await expect(page.getByRole("heading", { name: "Payment confirmed" })).toBeVisible();
  const read = await (await request.get(`${base()}/v1/payments/${created.id}`, { headers })).json();
  expect(read).toMatchObject({ status: "SUCCEEDED", checkout: { state: "SUCCEEDED" } });

  // Let the scripts through: the page of the result loads them and stays accessible.
  await page.unroute("**/_next/static/**/*.js");
  await Promise.all(held.map((route) => route.continue().catch(() => undefined)));
  await page.reload();
  await expect(page.getByRole("heading", { name: "Payment confirmed" })).toBeVisible();
  await expectAccessible(page, "the paid page after a tap before the scripts");
});
