import { expect, test } from "@playwright/test";
import { api, base, expectNothingClipped, libTask, screenshot, seed, signIn } from "./support/console";

// The console's main pages on a laptop and on a phone; screenshots go to e2e/screenshots/console-*.png.

const PAGES: [string, string, string][] = [
  ["overview", "/console", "Overview"],
  ["payments", "/console/payments", "Payments"],
  ["merchants", "/console/merchants", "Merchants"],
  ["users", "/console/users", "Console users"],
  ["settings", "/console/settings", "Intake and block list"],
  ["catalog", "/console/catalog", "Store catalog"],
  ["audit", "/console/audit", "Audit log"],
];

test("operator tour: every main page renders, and a change lands in the audit log", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${base()}/console/sign-in`);
  await screenshot(page, "sign-in");
  const { operator } = seed().users;
  // Payments of both kinds from a merchant with a long name, so the lists are drawn full (whatever ran before).
  const m = await libTask("merchant", { name: "Tour Merchant with a Rather Long Trading Name LLC" });
  for (const [kind, method, direction] of [
    ["deposit", "GATEWAY", "DEPOSIT"],
    ["withdrawal", "BANK_TRANSFER", "WITHDRAWAL"],
  ]) {
    const created = await api(m.key, "POST", "/v1/payments", {
      reference: `tour-${kind}-${Date.now()}`,
      amount: "1250.00",
      currency: "USD",
      method,
      direction,
    });
    expect(created.status).toBe(201);
  }
  await signIn(page, operator.username, operator.password);

  await page.goto(`${base()}/console/settings`);
  const block = page.getByRole("form", { name: "Add a block-list entry" });
  await block.getByLabel("Kind").selectOption("EMAIL");
  await block.getByLabel("Value").fill("Tour.Blocked@Example.com");
  await block.getByLabel("Reason").fill("e2e tour: chargeback ring");
  await block.getByRole("button", { name: "Add to block list" }).click();
  await expect(block.getByTestId("action-ok")).toContainText("Blocked EMAIL tour.blocked@example.com");

  for (const [name, path, heading] of PAGES) {
    await page.goto(`${base()}${path}`);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expectNothingClipped(page);
    await screenshot(page, name);
  }
  const entry = page.getByTestId("audit-entry").filter({ hasText: "block_list.add" }).first();
  await expect(entry).toContainText("Reason: e2e tour: chargeback ring");
  await expect(entry).toContainText(operator.username);
  await expect(entry).toContainText("tour.blocked@example.com");

  // The tour leaves the shared seed as it found it: its block-list entry is removed through the console too.
  await page.goto(`${base()}/console/settings`);
  const remove = page.getByRole("form", { name: "Remove tour.blocked@example.com" });
  await remove.getByLabel("Reason for removing").fill("e2e tour: done");
  await remove.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByRole("form", { name: "Remove tour.blocked@example.com" })).toHaveCount(0);

  await page.goto(`${base()}/console/merchants/${seed().merchantId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox Merchant" })).toBeVisible();
  // The activation rule as this service applies it: in local mode (as here) an http address on this machine counts.
  await expect(page.getByText("an https callback address (in local mode, as here, an http address on this machine counts too).")).toBeVisible();
  await screenshot(page, "merchant");
});

test("merchant user on a phone: navigation menu, payments and an allow-list request that refuses CIDR and waits for an operator", async ({ page, browser }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const m = await libTask("merchant");
  await signIn(page, m.owner, m.password);
  await expect(page.getByRole("heading", { level: 1, name: m.name })).toBeVisible();
  await screenshot(page, "phone-overview");
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Merchant & allow-list" })).toBeVisible();
  await screenshot(page, "phone-menu");
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Merchant & allow-list" }).click();
  await expect(page.getByRole("heading", { level: 1, name: m.name })).toBeVisible();

  // A merchant user's new address is a request: refused as CIDR, then pending (not on the allow-list yet).
  const add = page.getByRole("form", { name: "Request an address" });
  await add.getByLabel("Address").fill("203.0.113.0/24");
  await add.getByRole("button", { name: "Request address" }).click();
  await expect(add.getByTestId("action-error")).toContainText("no CIDR ranges, wildcards");
  await add.getByLabel("Address").fill("::FFFF:203.0.113.7");
  await add.getByRole("button", { name: "Request address" }).click();
  await expect(add.getByTestId("action-ok")).toContainText("Requested 203.0.113.7. It is not allowed until an operator approves the request.");
  await expect(page.getByRole("list", { name: "Pending allow-list requests" }).getByText("203.0.113.7", { exact: true })).toBeVisible();
  await expect(page.getByRole("list", { name: "Allowed server IPs" }).getByText("203.0.113.7", { exact: true })).toHaveCount(0);
  await screenshot(page, "phone-allow-list");

  // An operator (own session, laptop) sees it counted on the overview and approves it on the merchant's page.
  const operatorContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const op = await operatorContext.newPage();
  const { operator } = seed().users;
  await signIn(op, operator.username, operator.password);
  await expect(op.getByRole("link", { name: /Allow-list requests to review/ })).toContainText(/[1-9]/);
  await op.goto(`${base()}/console/merchants/${m.merchantId}`);
  const request = op.getByRole("list", { name: "Pending allow-list requests" }).getByRole("listitem").filter({ hasText: "203.0.113.7" });
  await expect(request).toContainText(`requested by ${m.owner}`);
  await screenshot(op, "allow-list-request");
  await request.getByRole("button", { name: "Approve" }).click();
  await expect(op.getByRole("list", { name: "Allowed server IPs" }).getByText("203.0.113.7", { exact: true })).toBeVisible();
  await expect(op.getByRole("list", { name: "Pending allow-list requests" })).toHaveCount(0);
  await operatorContext.close();

  // Back on the phone: the address is on the allow-list, and the decision is listed.
  await page.reload();
  await expect(page.getByRole("list", { name: "Allowed server IPs" }).getByText("203.0.113.7", { exact: true })).toBeVisible();
  await expect(page.getByRole("list", { name: "Decided allow-list requests" })).toContainText(`approved by ${operator.username}`);
  await screenshot(page, "phone-allow-list-approved");

  const created = await api(m.key, "POST", "/v1/payments", {
    reference: `phone-${Date.now()}`,
    amount: "75.00",
    currency: "USD",
    method: "BANK_TRANSFER",
    direction: "WITHDRAWAL",
  });
  expect(created.status).toBe(201);
  await page.goto(`${base()}/console/payments`);
  await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
  await page
    .getByRole("list", { name: "Payments" })
    .getByRole("link", { name: new RegExp(created.body.reference) })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: `Payment ${created.body.reference}` })).toBeVisible();
  await expect(page.getByTestId("disabled-reason")).toContainText("you created this withdrawal");
  await screenshot(page, "phone-payment-detail");
  await page.goto(`${base()}/console/payments`);
  await expect(page.getByRole("list", { name: "Payments" })).toBeVisible();
  await expectNothingClipped(page);
  await screenshot(page, "phone-payments");
});
