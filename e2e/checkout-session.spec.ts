import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe";
import { amountEntryMerchant, openSession } from "./support/customer-merchants";
import { sql } from "./support/db";
import { saveScreenshot } from "./support/screenshots";
import { assertPresent, present } from "../scripts/harness/present";

// Customer amount-entry checkout (docs/api.md "Overview" 5) in Debian's Chromium on a phone-sized
// viewport: the merchant server opens a session through the API, the customer chooses amount and currency
// on the hosted page, sees the FX warning and the receiving account, confirms, and the merchant reads
// AWAITING_VERIFICATION. Expired and unknown links get their own clear pages.

const base = () => process.env.SANDPIPER_URL!;
const shot = (page: Page, name: string) => saveScreenshot(page, `checkout-${name}.png`, { fullPage: true });

// A customer in New York: the page names the time zone of every time it shows, the browser's.
test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, timezoneId: "America/New_York" });

const expireAt = (id: string, at: Date) => sql("UPDATE checkout_sessions SET expires_at = $2 WHERE id = $1", [id, at]);
const count = async (table: "payments" | "events", merchantId: string) =>
  Number(
    present(
      (await sql<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE merchant_id = $1`, [merchantId]))[0],
      "(await sql<{ n: string }>(`SELECT count(*) AS n FROM ${ta...",
    ).n,
  );

test("the customer chooses an amount on a phone, sees the warning and the account, confirms; the merchant reads AWAITING_VERIFICATION", async ({
  page,
  request,
}) => {
  const { merchantId, headers } = amountEntryMerchant();
  const session = await openSession(request, headers);

  const response = await page.goto(session.customerCheckout.url);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
  await expect(page.getByRole("heading", { name: "Pay Falcon Outfitters" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "How much do you want to pay?" })).toBeVisible();
  await expect(page.getByText("This link is valid until")).toBeVisible();
  // In the customer's own zone (the browser's, New York here), named; 24-hour (docs/operating.md "Times in the console").
  const newYork = new Intl.DateTimeFormat("en-GB", { timeZone: "America/New_York", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const until = newYork.format(new Date(session.customerCheckout.expiresAt));
  await expect(page.getByText("This link is valid until")).toHaveText(
    new RegExp(`^This link is valid until \\d{1,2} [A-Z][a-z]{2} \\d{4}, ${until} New York time\\.$`),
  );
  // Only the currencies that can be quoted (EUR has no AED pricing here).
  await expect(page.getByLabel("Currency").locator("option")).toHaveText(["USD", "AED"]);
  await shot(page, "amount");
  await expectAccessible(page, "the amount entry page");

  // A malformed amount is explained next to the field, nothing is sent.
  const amount = page.getByLabel("Amount");
  await amount.fill("12.345");
  await page.getByRole("button", { name: "Show total" }).click();
  const message = "Enter an amount in digits with at most 2 decimals, for example 150.00.";
  await expect(page.locator("form").getByRole("alert")).toHaveText(message);
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(amount).toHaveAccessibleDescription(new RegExp(message.replace(/\./g, "\\.")));
  await shot(page, "invalid-amount");
  await expectAccessible(page, "the amount entry page with an error");

  // Keyboard only: type the amount, choose the currency, submit with Enter.
  await amount.fill("1123.52");
  await page.getByLabel("Currency").selectOption("USD");
  await amount.press("Enter");
  const total = page.getByRole("heading", { name: "Your total" });
  await expect(total).toBeVisible();
  await expect(total).toBeFocused();
  await expect(page.getByText("The amount charged may differ from what your bank shows")).toBeVisible();
  await expect(page.getByRole("note")).toContainText("AED 4,208.96");
  // What is charged first, then what it is for, the rate against the reference rate and its Dubai day.
  await expect(page.getByTestId("charged-total")).toHaveText("AED 4,208.96");
  await expect(page.getByTestId("entered-amount")).toHaveText("for USD 1,123.52");
  await expect(page.getByTestId("rate")).toHaveText(
    /^1 USD = 3\.74623 AED, 2\.01% above the reference rate of 3\.6725 \(rate of \d{1,2} [A-Z][a-z]+ \d{4}, Dubai business day; rounded for display\)\.$/,
  );
  const [account] = await sql<{ holder: string; bank_name: string; iban: string }>(
    "SELECT holder, bank_name, iban FROM bank_accounts WHERE active ORDER BY created_at, id LIMIT 1",
  );
  assertPresent(account, "account");
  await expect(page.getByText(account?.holder)).toBeVisible();
  await expect(page.getByText(account?.bank_name)).toBeVisible();
  await expect(page.getByText(account?.iban.replace(/(.{4})(?=.)/g, "$1 "))).toBeVisible();
  await shot(page, "quoted");
  await expectAccessible(page, "the quoted total");
  expect((await (await request.get(`${base()}/v1/checkout-sessions/${session.id}`, { headers })).json()).state).toBe("QUOTED");

  // Tab from the focused heading reaches the confirm button; Enter confirms.
  await page.keyboard.press("Tab");
  const confirm = page.getByRole("button", { name: "Confirm total of AED 4,208.96" });
  await expect(confirm).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Total confirmed" })).toBeVisible();
  await expect(page.getByText("No payment was created and nothing was charged")).toBeVisible();
  await expect(page.getByText("Customer verification is not configured")).toBeVisible();
  await expect(page.getByTestId("next-step")).toHaveText(
    "Next, go back to Falcon Outfitters: it sees the total you confirmed and tells you how your order continues.",
  );
  await shot(page, "confirmed");
  await expectAccessible(page, "the confirmed page");

  const read = await request.get(`${base()}/v1/checkout-sessions/${session.id}`, { headers });
  expect(await read.json()).toMatchObject({
    id: session.id,
    state: "AWAITING_VERIFICATION",
    amount: "1123.52",
    currency: "USD",
    verification: { state: "NOT_CONFIGURED", verified: false, storeHandoffAllowed: false },
    paymentId: null,
    storeCheckoutUrl: null,
    environment: "sandbox",
    livePayment: false,
  });
  expect(await count("payments", merchantId)).toBe(0);
  expect(await count("events", merchantId)).toBe(0);
});

test("an expired link shows the expired page, also when it expires while open; an unknown link answers 404", async ({ page, request }) => {
  const { headers } = amountEntryMerchant();
  const expired = await openSession(request, headers);
  await expireAt(expired.id, new Date(Date.now() - 1000));
  const response = await page.goto(expired.customerCheckout.url);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "This checkout link has expired" })).toBeVisible();
  await expect(page.getByText("Nothing was charged")).toBeVisible();
  await expect(page.getByLabel("Amount")).toHaveCount(0);
  await shot(page, "expired");
  await expectAccessible(page, "the expired page");
  expect((await (await request.get(`${base()}/v1/checkout-sessions/${expired.id}`, { headers })).json()).state).toBe("EXPIRED");

  // The open page turns into the expired page by itself at expiresAt.
  const expiring = await openSession(request, headers);
  await expireAt(expiring.id, new Date(Date.now() + 4000));
  await page.goto(expiring.customerCheckout.url);
  await expect(page.getByRole("heading", { name: "How much do you want to pay?" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "This checkout link has expired" })).toBeVisible({ timeout: 15_000 });

  const unknown = await page.goto(`${new URL(expired.customerCheckout.url).origin}/checkout/${"x".repeat(43)}`);
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Checkout link not found" })).toBeVisible();
  await shot(page, "not-found");
  await expectAccessible(page, "the not-found page");

  // The check has teeth: one low-contrast line (#bbb on white, 1.9:1) fails it.
  await page.evaluate(() => document.querySelector("main")!.insertAdjacentHTML("beforeend", '<p style="color:#bbbbbb;background:#ffffff">faint text</p>'));
  await expect(expectAccessible(page, "a page with faint text")).rejects.toThrow(/color-contrast/);
});
