import { expect, test } from "@playwright/test";
import { api, base, expectNothingClipped, screenshot, seed, signIn } from "./support/console";

// Velocity rules on the merchant's console page (docs/api.md "Risk checks"): an operator adds one with a reason,
// the merchant's next payment over it is refused with RISK_REJECTED, and the merchant's own users see the rule.
test("an operator adds a velocity rule; the payment over it is refused; the merchant user sees the rule; the operator removes it", async ({ browser }) => {
  const s = seed();
  const email = `velocity-${Date.now()}@example.com`;
  const op = await (await browser.newContext()).newPage();
  await signIn(op, s.users.operator.username, s.users.operator.password);
  await op.goto(`${base()}/console/merchants/${s.merchantId}`);
  const form = op.getByRole("form", { name: "Add a velocity rule" });
  await form.getByLabel("Counts").selectOption("COUNT");
  await form.getByLabel("Per customer").selectOption("EMAIL");
  await form.getByLabel("Window (minutes)").fill("60");
  await form.getByLabel("Most payments").fill("1");
  await form.getByLabel("Reason").fill("card testing from one address");
  await form.getByRole("button", { name: "Add rule" }).click();
  await expect(form).toContainText("Added the rule: at most 1 payment per e-mail within 60 minutes");
  const rules = op.getByRole("list", { name: "Velocity rules" });
  await expect(rules).toContainText("At most 1 payment per e-mail within 1 hour");
  await expectNothingClipped(op);
  await screenshot(op, "velocity-rules");

  const body = (reference: string) => ({ reference, amount: "10.00", currency: "USD", method: "GATEWAY", direction: "DEPOSIT", customer: { email } });
  expect((await api(s.keys.full, "POST", "/v1/payments", body(`vel-a-${Date.now()}`))).status).toBe(201);
  const refused = await api(s.keys.full, "POST", "/v1/payments", body(`vel-b-${Date.now()}`));
  expect([refused.status, refused.body.error.code]).toEqual([403, "RISK_REJECTED"]);

  const merchantUser = await (await browser.newContext()).newPage();
  await signIn(merchantUser, s.users.merchant.username, s.users.merchant.password);
  await merchantUser.goto(`${base()}/console/merchants/${s.merchantId}`);
  await expect(merchantUser.getByRole("list", { name: "Velocity rules" })).toContainText("At most 1 payment per e-mail within 1 hour");
  await expect(merchantUser.getByRole("form", { name: "Add a velocity rule" })).toHaveCount(0);

  const item = rules.getByRole("listitem").filter({ hasText: "At most 1 payment per e-mail" });
  await item.getByLabel("Reason").fill("test over");
  await item.getByRole("button", { name: "Remove" }).click();
  await expect(op.getByRole("list", { name: "Velocity rules" })).toHaveCount(0);
  expect((await api(s.keys.full, "POST", "/v1/payments", body(`vel-c-${Date.now()}`))).status).toBe(201);
});
