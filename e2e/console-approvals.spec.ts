import { expect, test } from "@playwright/test";
import { api, base, expectNothingClipped, libTask, screenshot, signIn } from "./support/console";

test("the creator of a withdrawal cannot approve it; another user approves and it completes through the API", async ({ browser }) => {
  const m = await libTask("merchant");
  const reference = `wd-${Date.now()}`;
  const created = await api(m.key, "POST", "/v1/payments", { reference, amount: "250.00", currency: "USD", method: "BANK_TRANSFER", direction: "WITHDRAWAL" });
  expect(created.status).toBe(201);
  expect(created.body.status).toBe("PENDING_APPROVAL");

  // The owner of the key that created it: the button is disabled and says why.
  const ownerPage = await (await browser.newContext()).newPage();
  await signIn(ownerPage, m.owner, m.password);
  await ownerPage.goto(`${base()}/console/approvals`);
  const ownerRow = ownerPage.getByTestId(`approval-${reference}`);
  await expect(ownerRow.getByRole("button", { name: "Approve" })).toBeDisabled();
  await expect(ownerRow.getByTestId("disabled-reason")).toContainText("you created this withdrawal");
  await expectNothingClipped(ownerPage);
  await screenshot(ownerPage, "approvals-creator");
  // On a phone the whole reason is readable too.
  await ownerPage.setViewportSize({ width: 390, height: 844 });
  await expect(ownerRow.getByTestId("disabled-reason")).toBeVisible();
  await expectNothingClipped(ownerPage);
  await screenshot(ownerPage, "phone-approvals-creator");
  await ownerPage.setViewportSize({ width: 1280, height: 720 });
  await ownerPage.goto(`${base()}/console/payments/${created.body.id}`);
  await expect(ownerPage.getByRole("button", { name: "Approve" })).toBeDisabled();
  await expect(ownerPage.getByTestId("disabled-reason")).toContainText("another user must approve it");

  // Another user of the merchant approves it.
  const approverPage = await (await browser.newContext()).newPage();
  await signIn(approverPage, m.approver, m.password);
  await approverPage.goto(`${base()}/console/approvals`);
  await expectNothingClipped(approverPage);
  await screenshot(approverPage, "approvals");
  const row = approverPage.getByTestId(`approval-${reference}`);
  await expect(row.getByRole("button", { name: "Approve" })).toBeEnabled();
  // Approving asks first (what, how much, what happens next); dismissing changes nothing.
  const dialogs: string[] = [];
  approverPage.once("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await row.getByRole("button", { name: "Approve" }).click();
  await expect.poll(() => dialogs.length).toBe(1);
  expect(dialogs[0]).toContain(`Approve withdrawal ${reference} of`);
  expect((await api(m.key, "GET", `/v1/payments/${created.body.id}`)).body.status).toBe("PENDING_APPROVAL");
  approverPage.once("dialog", (d) => void d.accept());
  await row.getByRole("button", { name: "Approve" }).click();
  // Approved: it leaves the queue and the page says so.
  await expect(approverPage.getByTestId(`approval-${reference}`)).toHaveCount(0);
  await expect(approverPage.getByTestId("approved-notice")).toContainText(`Approved withdrawal ${reference}`);
  await expect(approverPage.getByTestId("approved-notice")).toContainText("It is now PENDING");

  const approved = await api(m.key, "GET", `/v1/payments/${created.body.id}`);
  expect(approved.body.status).toBe("PENDING");
  expect(approved.body.approvedAt).not.toBeNull();

  // The detail page polls (SWR): it shows SUCCEEDED once the API completes the payment, without a reload.
  await approverPage.goto(`${base()}/console/payments/${created.body.id}`);
  await expect(approverPage.getByTestId("payment-status")).toHaveText("PENDING");
  const done = await api(m.key, "POST", `/v1/sandbox/payments/${created.body.id}/complete`, { outcome: "SUCCEEDED" });
  expect(done.status).toBe(200);
  expect(done.body.status).toBe("SUCCEEDED");
  await expect(approverPage.getByTestId("payment-status")).toHaveText("SUCCEEDED", { timeout: 10_000 });
  await expect(approverPage.getByText(`merchant:${m.merchantId}:payable`)).toBeVisible();
  await expect(approverPage.getByText(`by ${m.approver}`)).toBeVisible();
  await screenshot(approverPage, "payment-detail");
});
