import { expect, test } from "@playwright/test";
import { api, base, libTask, screenshot, seed, signIn } from "./support/console";

// GBP -> CHF: a pair nothing else in the suite uses.
test("a rate entered for today unblocks a cross-currency payment that was FX_RATE_MISSING", async ({ page }) => {
  const m = await libTask("merchant");
  await libTask("pricing", {
    merchantId: m.merchantId,
    currency: "GBP",
    channel: "GATEWAY",
    direction: "DEPOSIT",
    chargeCurrency: "CHF",
    settlementCurrency: "GBP",
    markupBps: 100,
    commissionBps: 200,
    reason: "e2e: GBP charged in CHF",
  });
  const body = { reference: `fx-${Date.now()}`, amount: "100.00", currency: "GBP", method: "GATEWAY", direction: "DEPOSIT" };
  const idempotencyKey = `fx-${crypto.randomUUID()}`;
  const refused = await api(m.key, "POST", "/v1/payments", body, idempotencyKey);
  expect(refused.status).toBe(409);
  expect(refused.body.error.code).toBe("FX_RATE_MISSING");

  const { operator } = seed().users;
  await signIn(page, operator.username, operator.password);
  await page.goto(`${base()}/console/rates`);
  await expect(page.getByTestId("missing-rates")).toContainText("GBP->CHF");
  const form = page.getByRole("form", { name: "Enter a rate" });
  await form.getByLabel("Base").selectOption("GBP");
  await form.getByLabel("Quote").selectOption("CHF");
  await form.getByLabel("Rate").fill("1.1275");
  await form.getByLabel("Reason").fill("e2e: today's GBP/CHF");
  await form.getByRole("button", { name: "Save rate" }).click();
  await expect(form.getByTestId("action-ok")).toContainText("Saved GBP->CHF = 1.1275");
  await expect(page.getByRole("cell", { name: "GBP → CHF" })).toBeVisible();
  await expect(page.getByTestId("missing-rates").getByText("GBP->CHF")).toHaveCount(0);
  await screenshot(page, "rates");

  // The same request (same Idempotency-Key) now goes through, priced with today's rate.
  const created = await api(m.key, "POST", "/v1/payments", body, idempotencyKey);
  expect(created.status).toBe(201);
  expect(created.body.pricing).toMatchObject({ chargeCurrency: "CHF", baseRate: "1.1275", effectiveRate: "1.138775", gateway: "11388" });

  // The Overview warns ahead: tomorrow and the 6 days after have no GBP->CHF rate. Its link opens the form filled in
  // with the pair and the first missing day; one entry with a last day covers the week.
  const day = (n: number) => new Date(Date.now() + 4 * 3_600_000 + n * 86_400_000).toISOString().slice(0, 10);
  await page.goto(`${base()}/console`);
  const ahead = page.getByTestId("missing-rates-ahead");
  await expect(ahead).toContainText(`GBP->CHF (needed by 1 enabled pricing profile): no rate for 7 days from ${day(1)} to ${day(7)}`);
  await ahead.getByRole("link", { name: `Enter GBP->CHF from ${day(1)}` }).click();
  await expect(page).toHaveURL(/\/console\/rates\?base=GBP&quote=CHF&day=/);
  const range = page.getByRole("form", { name: "Enter a rate" });
  await expect(range.getByLabel("Base")).toHaveValue("GBP");
  await expect(range.getByLabel("Quote")).toHaveValue("CHF");
  await expect(range.getByLabel("Dubai day (first)")).toHaveValue(day(1));
  await range.getByLabel("Last day (optional)").fill(day(7));
  await range.getByLabel("Rate").fill("1.1280");
  await range.getByLabel("Reason").fill("e2e: next week's GBP/CHF");
  await range.getByRole("button", { name: "Save rate" }).click();
  await expect(range.getByTestId("action-ok")).toContainText(`Saved GBP->CHF = 1.128 for ${day(1)} to ${day(7)}`);
  await page.goto(`${base()}/console`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("missing-rates-ahead").getByText("GBP->CHF")).toHaveCount(0);
});
