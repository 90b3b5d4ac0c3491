import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/axe";
import { api, base, libTask, signIn } from "./support/console";

// The console's Requests page (docs/api.md "Request log"): a merchant user finds a failed request by its requestId,
// reads its redacted bodies, filters by status class, and never sees another merchant's requests.

test("a merchant user looks a failed request up by its requestId, filters by status, and sees only its own", async ({ page }) => {
  const m = await libTask("merchant");
  const other = await libTask("merchant");
  const ok = await api(m.key, "POST", "/v1/payments", {
    reference: `rq-${Date.now()}`,
    amount: "10.00",
    currency: "USD",
    method: "GATEWAY",
    direction: "DEPOSIT",
  });
  expect(ok.status).toBe(201);
  const bad = await api(m.key, "POST", "/v1/payments", {
    reference: `rq-bad-${Date.now()}`,
    amount: "1.234",
    currency: "USD",
    method: "GATEWAY",
    direction: "DEPOSIT",
  });
  expect(bad.status).toBe(400);
  const foreign = await api(other.key, "POST", "/v1/payments", { reference: "x", amount: "1.234", currency: "USD", method: "GATEWAY", direction: "DEPOSIT" });
  const requestId: string = bad.body.error.requestId;

  await signIn(page, m.owner, m.password);
  await page.getByRole("link", { name: "Requests", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Requests", exact: true })).toBeVisible();
  const form = page.getByRole("form", { name: "Filter the requests" });
  await form.getByLabel("requestId").fill(requestId);
  await form.getByRole("button", { name: /filter|apply/i }).click();
  const rows = page.getByTestId("request-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("VALIDATION_ERROR");
  await expect(rows.first()).toContainText("400");
  await expect(rows.first().getByText("Request body")).toBeVisible();
  await expect(rows.first()).toContainText('"amount": "1.234"');
  await expectAccessible(page, "the Requests page");

  // Status class: the 4xx filter leaves the 201 out; the 2xx one shows the payment with a link to it.
  await page.goto(`${base()}/console/requests?status=4xx`);
  await expect(rows).toHaveCount(1);
  await page.goto(`${base()}/console/requests?status=2xx&path=/v1/payments`);
  await expect(rows.first().getByRole("link", { name: /^payment / })).toHaveAttribute("href", `/console/payments/${ok.body.id}`);

  // Another merchant's request is not found, even by its id.
  await page.goto(`${base()}/console/requests?requestId=${foreign.body.error.requestId}`);
  await expect(page.getByText("No requests match")).toBeVisible();
});
