import { expect, test } from "@playwright/test";
import { base, seed, signIn } from "./support/console";
import { docBlocks, runWalkThrough, type WalkState } from "./support/readme";
import { assertPresent, present } from "../scripts/harness/present";

// The guides' walk-throughs (docs/guides/), run as written against the built service: the curl lines of each section with
// bash and curl (e2e/support/readme.ts checks every "# ->" answer shown), and the steps the guides give for a
// browser (the console approval, the store page, the customer page) in Chromium.

const keys = () => seed().keys;
const fresh = (vars: Record<string, string>): WalkState => ({ vars: { BASE: base(), ...vars }, lastId: null, responses: [] });
const suffix = () => `${Date.now().toString(36)}`;

test("docs/guides/accept-a-payment.md 'Walk-through with curl': create, read, complete and list a deposit", async () => {
  const state = await runWalkThrough(docBlocks("docs/guides/accept-a-payment.md", "Walk-through with curl"), fresh({ KEY: keys().full }), suffix());
  const [created, , completed, list] = state.responses;
  assertPresent(created, "created");
  expect(created?.body).toMatchObject({ status: "PENDING", amount: "1123.52", currency: "USD" });
  expect(completed?.body.status).toBe("SUCCEEDED");
  expect(list?.body.items.map((p: { id: string }) => p.id)).toContain(created.body.id);
});

test("docs/guides/accept-a-payment.md 'Withdrawal and its four-eyes approval': the key owner cannot approve, approver does, then it completes", async ({
  browser,
}) => {
  const [before, after] = docBlocks("docs/guides/accept-a-payment.md", "Withdrawal and its four-eyes approval");
  assertPresent(before, "before");
  assertPresent(after, "after");
  const state = await runWalkThrough([before], fresh({ KEY: keys().full }), suffix());
  const reference = present(state.responses[0], "state.responses[0]").body.reference as string;
  const { merchant, approver } = seed().users;

  // Signed in as merchant (the owner of the key): the button is disabled with the reason.
  const owner = await (await browser.newContext()).newPage();
  await signIn(owner, merchant.username, merchant.password);
  await owner.getByRole("link", { name: "Approvals" }).first().click();
  const ownerRow = owner.getByTestId(`approval-${reference}`);
  await expect(ownerRow.getByRole("button", { name: "Approve" })).toBeDisabled();

  // Signed in as approver: Approvals, Approve, confirm; the page says it worked.
  const page = await (await browser.newContext()).newPage();
  await signIn(page, approver.username, approver.password);
  await page.getByRole("link", { name: "Approvals" }).first().click();
  page.once("dialog", (d) => void d.accept());
  await page.getByTestId(`approval-${reference}`).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("approved-notice")).toContainText(`Approved withdrawal ${reference}`);
  await expect(page.getByTestId("approved-notice")).toContainText("It is now PENDING");

  await runWalkThrough([after], state, "unused");
  expect(state.responses.at(-1)!.body).toMatchObject({ status: "SUCCEEDED", direction: "WITHDRAWAL" });
});

test("docs/guides/amount-entry-checkout.md 'Customer amount-entry checkout': a session with the amount-entry key, and its customer page", async ({ page }) => {
  expect(keys().amountEntry, "the seed prints an amount-entry key").toMatch(/^sk_sandbox_/);
  const state = await runWalkThrough(
    docBlocks("docs/guides/amount-entry-checkout.md", "Customer amount-entry checkout"),
    fresh({ AE_KEY: keys().amountEntry }),
    suffix(),
  );
  const session = present(state.responses[0], "state.responses[0]").body;
  expect(present(state?.responses[1], "state?.responses[1]").body.id).toBe(session.id);
  await page.goto(session.customerCheckout.url);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByLabel("Amount")).toBeVisible();
  await expect(page.getByLabel("Currency").locator("option")).toHaveText(["USD", "AED"]);
});

test("docs/guides/store-checkout.md 'Fixed-amount store checkout': the store payment becomes READY, the store page pays it, the payment SUCCEEDS", async ({
  page,
}) => {
  const state = await runWalkThrough(docBlocks("docs/guides/store-checkout.md", "Fixed-amount store checkout"), fresh({ KEY: keys().full }), suffix());
  const ready = present(state.responses[1], "state.responses[1]").body;
  expect(ready.checkout.state).toBe("READY");
  await page.goto(ready.checkout.url);
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page.getByRole("heading", { name: "Payment confirmed" })).toBeVisible();
  const read = await fetch(`${base()}/v1/payments/${ready.id}`, { headers: { authorization: `Bearer ${keys().full}` } });
  expect((await read.json()).status).toBe("SUCCEEDED");
});

test("the home page links the API reference and has an icon", async ({ page, request }) => {
  await page.goto(base());
  await expect(page.getByRole("heading", { name: "Sandpiper" })).toBeVisible();
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(`${base()}/docs`);
  await page.goto(base());
  const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(icon).toBeTruthy();
  const res = await request.get(new URL(icon!, base()).toString());
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("image/svg+xml");
});
