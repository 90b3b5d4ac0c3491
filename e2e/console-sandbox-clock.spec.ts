import { expect, test } from "@playwright/test";
import { api, base, libTask, signIn } from "./support/console";

// The sandbox clock in the console (docs/api.md "Sandbox clock"): advanced on the Callbacks page with a reason, a
// pending payment expires at once and shows the offset, a banner says whose clock is moved, a reset ends it.

test("advance the sandbox clock in the console: the payment expires and shows the offset, a banner, then reset", async ({ page }) => {
  const m = await libTask("merchant");
  const created = await api(m.key, "POST", "/v1/payments", {
    reference: `clock-${Date.now()}`,
    amount: "5.00",
    currency: "USD",
    method: "GATEWAY",
    direction: "DEPOSIT",
  });
  expect(created.status).toBe(201);
  await signIn(page, m.owner, m.password);
  await page.goto(`${base()}/console/callbacks`);
  await expect(page.getByTestId("clock-state")).toContainText("The sandbox clock is at the real time.");
  await expect(page.getByTestId("clock-banner")).toHaveCount(0);

  const advance = page.getByRole("form", { name: "Advance the sandbox clock" });
  await advance.getByLabel("Advance by").fill("soon");
  await advance.getByLabel("Reason").fill("testing expiry handling");
  await advance.getByRole("button", { name: "Advance" }).click();
  await expect(advance.getByTestId("action-error")).toContainText("give a duration such as 90s");
  await advance.getByLabel("Advance by").fill("1d");
  await advance.getByRole("button", { name: "Advance" }).click();
  await expect(advance.getByTestId("action-ok")).toContainText("The sandbox clock now runs 1d ahead.");
  await expect(advance.getByTestId("action-details")).toContainText("Payments expired: 1");
  await page.reload();
  await expect(page.getByTestId("clock-state")).toContainText("runs 1d ahead of the real time");
  await expect(page.getByTestId("clock-banner")).toContainText(`${m.name} runs 1d ahead`);

  await page.goto(`${base()}/console/payments/${created.body.id}`);
  await expect(page.getByText("1d ahead of the real time: the times above are sandbox times")).toBeVisible();
  expect((await api(m.key, "GET", `/v1/payments/${created.body.id}`)).body).toMatchObject({ status: "EXPIRED", sandboxClock: { offset: "1d" } });

  await page.goto(`${base()}/console/callbacks`);
  const reset = page.getByRole("form", { name: "Reset the sandbox clock" });
  await reset.getByLabel("Reason").fill("done testing");
  await reset.getByRole("button", { name: "Back to the real time" }).click();
  await expect(page.getByTestId("clock-state")).toContainText("The sandbox clock is at the real time."); // the reset form goes with the offset
  await page.reload();
  await expect(page.getByTestId("clock-banner")).toHaveCount(0);
  expect((await api(m.key, "GET", "/v1/sandbox/clock")).body.offsetMs).toBe(0);
});
