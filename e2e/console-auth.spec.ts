import { expect, test } from "@playwright/test";
import { api, base, libTask, screenshot, seed, signIn } from "./support/console";

// Console sign-in (next-auth credentials) and merchant isolation by URL.

test("sign-in fails with a wrong password and succeeds with the right one", async ({ page }) => {
  const { operator } = seed().users;
  await page.goto(`${base()}/console`);
  await expect(page).toHaveURL(`${base()}/console/sign-in`);
  await page.getByLabel("User name").fill(operator.username);
  await page.getByLabel("Password").fill(`${operator.password}-wrong`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /\w/ })).toHaveText("Wrong user name or password.");
  await screenshot(page, "sign-in-failed");
  // Still signed out: the console sends the browser back to the sign-in page.
  await page.goto(`${base()}/console/payments`);
  await expect(page).toHaveURL(`${base()}/console/sign-in`);

  await signIn(page, operator.username, operator.password);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  const cookie = (await page.context().cookies()).find((c) => c.name.endsWith("next-auth.session-token"));
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${base()}/console/sign-in`);
  await page.goto(`${base()}/console`);
  await expect(page).toHaveURL(`${base()}/console/sign-in`);
});

test("a MERCHANT user cannot open another merchant's payment or key page by URL", async ({ page }) => {
  const other = await libTask("merchant");
  const created = await api(other.key, "POST", "/v1/payments", {
    reference: `iso-${Date.now()}`,
    amount: "10.00",
    currency: "USD",
    method: "GATEWAY",
    direction: "DEPOSIT",
  });
  expect(created.status).toBe(201);

  // The other merchant's own user opens both pages (the URLs are right).
  await signIn(page, other.owner, other.password);
  expect((await page.goto(`${base()}/console/payments/${created.body.id}`))?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: `Payment ${created.body.reference}` })).toBeVisible();
  expect((await page.goto(`${base()}/console/keys/${other.keyId}`))?.status()).toBe(200);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${base()}/console/sign-in`);

  // The seeded second merchant's user gets 404 for both, and for the JSON the payment page polls.
  const { second } = seed().users;
  await signIn(page, second.username, second.password);
  const payment = await page.goto(`${base()}/console/payments/${created.body.id}`);
  expect(payment?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(page.getByText(created.body.reference)).toHaveCount(0);
  await screenshot(page, "not-found");
  const key = await page.goto(`${base()}/console/keys/${other.keyId}`);
  expect(key?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  expect((await page.request.get(`${base()}/api/console/payments/${created.body.id}`)).status()).toBe(404);
  // Operator pages do not exist for a MERCHANT user either.
  expect((await page.goto(`${base()}/console/merchants`))?.status()).toBe(404);
});

test("after 30 failed sign-ins from one address, sign-ins from it are slowed but the right password still signs in", async ({ browser }) => {
  const { operator } = seed().users;
  // The e2e service trusts loopback as a proxy: this context's requests come from a documentation address of
  // their own, so the slowdown stays away from every other test's sign-ins (which come from 127.0.0.1).
  const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": `2001:db8:e2e::${(Date.now() % 65_536).toString(16)}` } });
  const slowed = await context.newPage();
  // 30 failures straight at next-auth (as the form sends them), each under another user name ...
  for (let i = 1; i <= 30; i++) {
    const { csrfToken } = await (await context.request.get(`${base()}/api/auth/csrf`)).json();
    const res = await context.request.post(`${base()}/api/auth/callback/credentials`, {
      form: { csrfToken, username: `spray-${i}-${Date.now()}`, password: "guess", json: "true" },
    });
    expect((await res.json()).url).toContain("error=invalid");
  }
  // ... then a wrong password through the form still reads as a wrong password (after the wait) ...
  await slowed.goto(`${base()}/console/sign-in`);
  await slowed.getByLabel("User name").fill(`spray-31-${Date.now()}`);
  await slowed.getByLabel("Password").fill("guess");
  await slowed.getByRole("button", { name: "Sign in" }).click();
  await expect(slowed.getByRole("alert").filter({ hasText: /\w/ })).toHaveText("Wrong user name or password.");
  // ... and the operator's right password from the same address signs in: nobody is locked out.
  await slowed.getByLabel("User name").fill(operator.username);
  await slowed.getByLabel("Password").fill(operator.password);
  await slowed.getByRole("button", { name: "Sign in" }).click();
  await expect(slowed.getByRole("heading", { name: "Overview" })).toBeVisible();
  await context.close();
});
