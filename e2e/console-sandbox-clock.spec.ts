import { expect, test, type Page } from "@playwright/test";
import { api, base, libTask, seed, signIn } from "./support/console";

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
  await expect(page.getByText('1d ahead of the real time: times marked "sandbox" are the merchant\'s sandbox clock')).toBeVisible();
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

// Times in the console (docs/operating.md "Times in the console"): every time of day on every console page names its
// zone (in its element, its row or its column header); under a moved sandbox clock a row shows the sandbox time as
// such beside the real one, and the lists keep the order things happened in.

/**
 * The times of day on the page (`checked`) and those whose element, row and column header name no zone ("Dubai",
 * "UTC", "sandbox"; `unzoned`).
 */
async function timesOnPage(page: Page): Promise<{ checked: number; unzoned: string[] }> {
  return page.evaluate(() => {
    const timeOfDay = /\b\d{1,2}:\d{2}\b/;
    const iso = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})/g; // names its zone (Z, an offset)
    const zone = /\b(Dubai|UTC|sandbox)\b/;
    const found: string[] = [];
    let checked = 0;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? "").replace(iso, "");
      const el = node.parentElement;
      if (!el || !timeOfDay.test(text) || el.closest("script, style, svg")) continue;
      const own = el.closest("time, td, th, dd, li, p, summary, span, div")?.textContent ?? "";
      const row = el.closest("tr, li, dd, p, summary")?.textContent ?? "";
      const cell = el.closest("td");
      const header = cell
        ? (cell.closest("table")?.querySelectorAll("thead th")[Array.from(cell.parentElement?.children ?? []).indexOf(cell)]?.textContent ?? "")
        : "";
      checked += 1;
      if (![own, row, header].some((t) => zone.test(t))) found.push(`${location.pathname}: ${text.trim().slice(0, 100)}`);
    }
    return { checked, unzoned: found };
  });
}

/** A detail page that each console list links to: the first link of the list's page is checked too. */
const DETAILS: Record<string, RegExp> = {
  "/console/payments": /^\/console\/payments\/[0-9a-f-]{36}$/,
  "/console/keys": /^\/console\/keys\/[0-9a-f-]{36}$/,
  "/console/callbacks": /^\/console\/callbacks\/[0-9a-f-]{36}$/,
  "/console/merchants": /^\/console\/merchants\/[0-9a-f-]{36}$/,
  "/console/pricing": /^\/console\/pricing\/[0-9a-f-]{36}$/,
};

/**
 * Visits every console page in the navigation and one detail page of each list (18 pages for an operator) and
 * returns how many times of day they show and which of those name no zone.
 */
async function walkConsole(page: Page): Promise<{ pages: number; checked: number; unzoned: string[] }> {
  await page.goto(`${base()}/console`);
  const nav = await page.locator('nav a[href^="/console"]').evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  const queue = [...new Set(nav)];
  const result = { pages: 0, checked: 0, unzoned: [] as string[] };
  // The loop also visits what the pages below push onto the queue (an array's iterator reads its length each step).
  for (const target of queue) {
    await page.goto(`${base()}${target}`);
    const found = await timesOnPage(page);
    result.pages += 1;
    result.checked += found.checked;
    result.unzoned.push(...found.unzoned);
    const detail = DETAILS[target];
    if (detail) {
      const hrefs = await page.locator("main a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
      const first = hrefs.find((h) => detail.test(h));
      if (first && !queue.includes(first)) queue.push(first);
    }
  }
  return result;
}

test("every time in the console names its zone; sandbox rows say sandbox beside the real time, lists in real order", async ({ page }) => {
  test.setTimeout(120_000);
  const m = await libTask("merchant");
  const pay = async (tag: string) => {
    const created = await api(m.key, "POST", "/v1/payments", {
      reference: `times-${tag}-${Date.now()}`,
      amount: "5.00",
      currency: "USD",
      method: "GATEWAY",
      direction: "DEPOSIT",
    });
    expect(created.status).toBe(201);
    return created.body as { id: string; reference: string };
  };
  // A on the real clock; then 2 h ahead: A expires (its event and delivery at sandbox time), B is created; then back
  // at the real time C is created and expired. Written in the order A, B, C; their created times say B, C, A.
  const a = await pay("a");
  expect((await api(m.key, "POST", "/v1/sandbox/clock/advance", { by: "2h" })).status).toBe(200);
  expect((await api(m.key, "POST", `/v1/sandbox/payments/${a.id}/expire`)).status).toBe(200);
  const b = await pay("b");
  // B succeeds under the moved clock: its ledger entry is written at the real time (ledger entries keep the real clock).
  expect((await api(m.key, "POST", `/v1/sandbox/payments/${b.id}/complete`, { outcome: "SUCCEEDED" })).status).toBe(200);
  // A change under the moved clock: its audit row carries the sandbox time.
  const rule = await api(m.key, "POST", "/v1/sandbox/scenario-rules", { name: "times", match: { amount: "7.77" }, outcome: "FAILED" });
  expect(rule.status).toBe(201);
  expect((await api(m.key, "POST", "/v1/sandbox/clock/reset")).status).toBe(200);
  const c = await pay("c");
  expect((await api(m.key, "POST", `/v1/sandbox/payments/${c.id}/expire`)).status).toBe(200);

  await signIn(page, m.owner, m.password);
  await page.goto(`${base()}/console/payments`);
  const rows = page.getByRole("table", { name: "Payments" }).locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(c.reference);
  await expect(rows.nth(1)).toContainText(b.reference);
  await expect(rows.nth(2)).toContainText(a.reference);
  await expect(rows.nth(1)).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} sandbox · \d{4}-\d{2}-\d{2} \d{2}:\d{2} Dubai/);
  await expect(rows.nth(0)).not.toContainText("sandbox");
  await expect(rows.nth(2)).not.toContainText("sandbox");

  await page.goto(`${base()}/console/callbacks`);
  const deliveries = page.locator('tr[data-testid^="delivery-"]');
  await expect(deliveries).toHaveCount(3);
  await expect(deliveries.nth(0).locator(`a[href="/console/payments/${c.id}"]`)).toHaveCount(1);
  await expect(deliveries.nth(0)).not.toContainText("sandbox");
  await expect(deliveries.nth(1).locator(`a[href="/console/payments/${b.id}"]`)).toHaveCount(1);
  await expect(deliveries.nth(2).locator(`a[href="/console/payments/${a.id}"]`)).toHaveCount(1);
  await expect(deliveries.nth(2)).toContainText(/\d{2}:\d{2} sandbox · .*\d{2}:\d{2} Dubai/);
  await deliveries.nth(2).getByRole("link", { name: "payment.expired" }).click();
  await expect(page.getByText("Created is the merchant's clock")).toBeVisible();
  await expect(page.locator("dd time[data-clock=sandbox]")).toHaveCount(1);

  await page.goto(`${base()}/console/payments/${b.id}`);
  await expect(page.locator("dd", { hasText: /\d{2}:\d{2} sandbox · \d{4}-\d{2}-\d{2} \d{2}:\d{2} Dubai by / })).toHaveCount(1);
  await expect(page.getByText('times marked "sandbox" are the merchant\'s sandbox clock')).toBeVisible();
  await expect(page.getByText(/^Entry settlement · \d{4}-\d{2}-\d{2} \d{2}:\d{2} Dubai$/)).toBeVisible();

  // Every page an operator has (a merchant user's are among them, its merchant page is the operator's).
  await page.context().clearCookies();
  const { operator } = seed().users;
  await signIn(page, operator.username, operator.password);
  // The audit log in the order the changes were made: the reset, the rule (sandbox time beside the real one), the advance.
  await page.goto(`${base()}/console/audit?merchant=${m.merchantId}`);
  const entries = page.getByTestId("audit-entry");
  await expect(entries.nth(0)).toContainText("merchant.sandbox_clock");
  await expect(entries.nth(0)).not.toContainText("sandbox ·");
  await expect(entries.nth(1)).toContainText("scenario_rule.create");
  await expect(entries.nth(1)).toContainText(/\d{2}:\d{2} sandbox · \d{4}-\d{2}-\d{2} \d{2}:\d{2} Dubai/);
  await expect(entries.nth(2)).toContainText("merchant.sandbox_clock");

  const walked = await walkConsole(page);
  expect(walked.pages).toBeGreaterThanOrEqual(18);
  expect(walked.unzoned).toEqual([]);
  expect(walked.checked).toBeGreaterThan(20); // the pages did show times to check
});
