import { expect, test } from "@playwright/test";
import { api, base, libTask, signIn } from "./support/console";

// The Scenario rules card of the Callbacks page (docs/api.md "Scenario rules"): the standard set in one click, a
// rule switched off and one added through the form, and the payment page naming the rule that concluded it.

test("scenario rules: add the standard set, switch one off, add one; a 13.13 payment is concluded by its rule", async ({ page }) => {
  const m = await libTask("merchant");
  await signIn(page, m.owner, m.password);
  await page.goto(`${base()}/console/callbacks`);

  await page.getByRole("form", { name: "Add the standard set" }).getByRole("button", { name: "Add the standard set" }).click();
  const rules = page.getByTestId("scenario-rule");
  await expect(rules).toHaveCount(6);
  await expect(rules.first()).toContainText("1. Amount 13.13 fails (on)");

  await page.getByRole("form", { name: "Disable Amount 15.15 succeeds" }).getByRole("button", { name: "Disable" }).click();
  await expect(rules.filter({ hasText: "Amount 15.15 succeeds" })).toContainText("(off)");

  const add = page.getByRole("form", { name: "Add a scenario rule" });
  await add.getByLabel("Name").fill("99.99 fails late");
  await add.getByLabel("Amount (any currency)").fill("99.99");
  await add.getByLabel("Delay (seconds, 0 to 3600)").fill("5");
  await add.getByRole("button", { name: "Add rule" }).click();
  await expect(add.getByTestId("action-ok")).toContainText('Added the rule "99.99 fails late"');
  await expect(rules).toHaveCount(7);
  await expect(rules.last()).toContainText("amount 99.99 → FAILED after 5 s");
  const listed = (await api(m.key, "GET", "/v1/sandbox/scenario-rules")).body;
  expect(listed.items.map((r: { name: string; enabled: boolean }) => [r.name, r.enabled])).toContainEqual(["Amount 15.15 succeeds", false]);

  const created = await api(m.key, "POST", "/v1/payments", {
    reference: `sc-${Date.now()}`,
    amount: "13.13",
    currency: "USD",
    method: "GATEWAY",
    direction: "DEPOSIT",
  });
  expect(created.body.scenario).toMatchObject({ name: "Amount 13.13 fails", outcome: "FAILED" });
  await expect.poll(async () => (await api(m.key, "GET", `/v1/payments/${created.body.id}`)).body.status, { timeout: 10_000 }).toBe("FAILED");
  await page.goto(`${base()}/console/payments/${created.body.id}`);
  await expect(page.getByTestId("payment-scenario")).toContainText("Concluded by scenario rule Amount 13.13 fails (FAILED)");
});
