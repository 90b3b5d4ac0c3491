import { expect, test } from "@playwright/test";
import { api, base, libTask, screenshot, seed, signIn } from "./support/console";

test("a pricing version saved with a reason changes the next payment's snapshot, not the previous one's", async ({ page }) => {
  const m = await libTask("merchant");
  await libTask("pricing", {
    merchantId: m.merchantId,
    currency: "EUR",
    channel: "GATEWAY",
    direction: "DEPOSIT",
    chargeCurrency: "EUR",
    settlementCurrency: "EUR",
    commissionBps: 100,
    reason: "e2e: first version",
  });
  const deposit = (reference: string) => ({ reference, amount: "200.00", currency: "EUR", method: "GATEWAY", direction: "DEPOSIT" });
  const before = await api(m.key, "POST", "/v1/payments", deposit(`price-a-${Date.now()}`));
  expect(before.status).toBe(201);
  expect(before.body.pricing).toMatchObject({ ruleVersion: 1, commissionBps: 100, fee: "2.00" });

  const { operator } = seed().users;
  await signIn(page, operator.username, operator.password);
  await page.goto(`${base()}/console/pricing`);
  const form = page.getByRole("form", { name: "New pricing profile version" });
  await form.getByLabel("Merchant").selectOption({ label: m.name });
  await form.getByLabel("Transaction currency").selectOption("EUR");
  await form.getByLabel("Channel").selectOption("GATEWAY");
  await form.getByLabel("Direction").selectOption("DEPOSIT");
  await form.getByLabel("Charge currency").selectOption("EUR");
  await form.getByLabel("Settlement currency").selectOption("EUR");
  await form.getByLabel("Commission (bps)").fill("350");
  // Without a reason nothing is saved.
  await form.getByRole("button", { name: "Save new version" }).click();
  await expect(form.getByTestId("action-error")).toContainText("nothing was changed");
  await expect(form.getByText("required")).toBeVisible();
  await form.getByLabel("Reason for this change").fill("e2e: commission raised to 3.50 %");
  await form.getByRole("button", { name: "Save new version" }).click();
  await expect(form.getByTestId("action-ok")).toContainText("Saved version 2 of EUR GATEWAY DEPOSIT");
  await screenshot(page, "pricing");

  const after = await api(m.key, "POST", "/v1/payments", deposit(`price-b-${Date.now()}`));
  expect(after.status).toBe(201);
  expect(after.body.pricing).toMatchObject({ ruleVersion: 2, commissionBps: 350, fee: "7.00" });
  const previous = await api(m.key, "GET", `/v1/payments/${before.body.id}`);
  expect(previous.body.pricing).toEqual(before.body.pricing);
  expect(previous.body.fee).toBe("2.00");

  // The history lists both versions with their reasons; the console detail shows each payment's own snapshot.
  await page.goto(`${base()}/console/pricing/${before.body.pricing.ruleId}`);
  await expect(page.getByRole("cell", { name: "e2e: commission raised to 3.50 %" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "e2e: first version" })).toBeVisible();
  await screenshot(page, "pricing-history");
  await page.goto(`${base()}/console/payments/${before.body.id}`);
  await expect(page.getByTestId("pricing-snapshot").locator('[data-field="commissionBps"]')).toHaveText("1.00 %");
  await page.goto(`${base()}/console/payments/${after.body.id}`);
  await expect(page.getByTestId("pricing-snapshot").locator('[data-field="commissionBps"]')).toHaveText("3.50 %");
});
