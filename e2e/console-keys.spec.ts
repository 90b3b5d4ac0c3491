import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { api, base, libTask, screenshot, signIn } from "./support/console";

const run = promisify(execFile);

/** curl's HTTP status for GET /v1/payments with the key, or null when curl is not installed. */
async function curlStatus(key: string): Promise<number | null> {
  try {
    const { stdout } = await run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", `Authorization: Bearer ${key}`, `${base()}/v1/payments`]);
    return Number(stdout);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

test("a key is shown once at creation, works with curl, and gives 401 once revoked", async ({ page }) => {
  const m = await libTask("merchant");
  await signIn(page, m.owner, m.password);
  await page.goto(`${base()}/console/keys`);
  const form = page.getByRole("form", { name: "Create a key" });
  await form.getByLabel("Name").fill("e2e checkout server");
  await form.getByRole("checkbox", { name: /payments:create/ }).uncheck();
  await form.getByRole("button", { name: "Create key" }).click();
  const shown = form.getByTestId("shown-once-api-key");
  await expect(shown).toHaveText(/^sk_sandbox_[0-9A-Za-z]{43}$/);
  const key = (await shown.textContent())!;
  await screenshot(page, "key-created");

  // Usable: a real HTTP request, and curl itself when it is installed.
  const listed = await api(key, "GET", "/v1/payments");
  expect(listed.status).toBe(200);
  const viaCurl = await curlStatus(key);
  if (viaCurl !== null) expect(viaCurl).toBe(200);
  // Scopes as chosen: payments:create was left out.
  const create = await api(key, "POST", "/v1/payments", {
    reference: `k-${Date.now()}`,
    amount: "1.00",
    currency: "USD",
    method: "GATEWAY",
    direction: "DEPOSIT",
  });
  expect(create.status).toBe(403);

  // Shown once: after a reload only the prefix is on the page, with expiry and last use.
  await page.reload();
  expect(await page.content()).not.toContain(key);
  const prefix = key.slice(0, "sk_sandbox_".length + 6);
  const row = page.getByTestId(`key-${prefix}`);
  await expect(row).toContainText("e2e checkout server");
  await expect(row).toContainText("payments:read");
  await expect(row).not.toContainText("never");
  await screenshot(page, "keys");

  await row.getByRole("link", { name: `${prefix}…` }).click();
  await expect(page.getByRole("heading", { name: `Key ${prefix}…` })).toBeVisible();
  page.once("dialog", (d) => d.accept());
  await page.getByLabel("Reason (optional)").fill("e2e: rotate");
  await page.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByTestId("key-state")).toHaveText("revoked");
  await expect(page.getByRole("button", { name: "Revoke key" })).toHaveCount(0);
  await screenshot(page, "key-detail");

  const revoked = await api(key, "GET", "/v1/payments");
  expect(revoked.status).toBe(401);
  expect(revoked.body.error.code).toBe("INVALID_API_KEY");
  if (viaCurl !== null) expect(await curlStatus(key)).toBe(401);
  // The merchant's other key is untouched.
  expect((await api(m.key, "GET", "/v1/payments")).status).toBe(200);
});
