import { expect, test, type Page } from "@playwright/test";
import { contrastRatio, expectAccessible } from "./support/axe";
import { api, base, expectNothingClipped, libTask, screenshot, seed, signIn } from "./support/console";

// The console's charts (docs/guides/console-for-operators.md "Console tour"): the overview, callbacks and pricing views with data, each chart's table
// alternative, a click from a chart to the list behind it, screenshots, and an axe check of each page.

/** The Dubai day `n` days after `day` (YYYY-MM-DD arithmetic on a day the service gave, no clock read here). */
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Today's Dubai day as the service says it on the overview ("Today is 2026-11-28, Dubai."), never this process's clock. */
async function serviceDay(page: Page): Promise<string> {
  const rule = (await page.getByTestId("payments-day-rule").textContent()) ?? "";
  const day = /Today is (\d{4}-\d{2}-\d{2}), Dubai\./.exec(rule)?.[1];
  expect(day, rule).toBeTruthy();
  return day!;
}

/**
 * axe cannot decide the contrast of text drawn in an SVG chart, so the spec measures it: every axis tick and legend
 * text of the page's charts against the white chart background, at least 4.5:1.
 */
async function expectChartTextContrast(page: Page) {
  const colours = await page.evaluate(() =>
    [...document.querySelectorAll(".recharts-wrapper text, .recharts-legend-item-text")].map((el) => {
      const style = getComputedStyle(el);
      return { text: el.textContent ?? "", colour: el instanceof SVGElement && el.tagName === "text" ? style.fill : style.color };
    }),
  );
  expect(colours.length).toBeGreaterThan(0);
  for (const c of colours) expect(contrastRatio(c.colour, "#ffffff"), `${c.text}: ${c.colour}`).toBeGreaterThanOrEqual(4.5);
}

/**
 * A merchant of the spec's own with today's activity: two SUCCEEDED, one FAILED and one PENDING deposit (no callback
 * address: each concluded payment's callback ends NOT_CONFIGURED). Nothing earlier specs left behind is counted.
 */
async function someActivity(): Promise<{ merchantId: string }> {
  const m = await libTask("merchant");
  const stamp = Date.now();
  for (const [i, outcome] of (["SUCCEEDED", "SUCCEEDED", "FAILED", null] as const).entries()) {
    const created = await api(m.key, "POST", "/v1/payments", {
      reference: `chart-${stamp}-${i}`,
      amount: `${10 + i}.00`,
      currency: "USD",
      method: "GATEWAY",
      direction: "DEPOSIT",
    });
    expect(created.status).toBe(201);
    if (outcome) expect((await api(m.key, "POST", `/v1/sandbox/payments/${created.body.id}/complete`, { outcome })).status).toBe(200);
  }
  return { merchantId: m.merchantId };
}

async function operatorPage(browser: import("@playwright/test").Browser): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const { operator } = seed().users;
  await signIn(page, operator.username, operator.password);
  return page;
}

test("overview: payments by outcome, success rate and volume with tables; a chart click and a table link open the payments behind", async ({ browser }) => {
  const { merchantId } = await someActivity();
  const page = await operatorPage(browser);
  await page.goto(`${base()}/console?merchant=${merchantId}`);
  const day = await serviceDay(page);
  const outcomes = page.getByTestId("chart-payments-by-outcome");
  await expect(outcomes.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(page.getByTestId("chart-success-rate")).toBeVisible();
  await expect(page.getByTestId("chart-volume")).toBeVisible();
  await expect(page.getByTestId("today-vs-last-week")).toContainText("Payments today");
  // Today against last week in plain words: this merchant's four payments today, none a week ago.
  const todayCard = page.getByTestId("today-vs-last-week").getByRole("link").filter({ hasText: "Payments today" });
  await expect(todayCard.locator("p")).toHaveText(["Payments today", "4", `no payments on ${addDays(day, -7)} to compare with`]);
  await expect(page.getByText("Payments today", { exact: true }), "today's payments are shown once").toHaveCount(1);
  await expectNothingClipped(page);
  await screenshot(page, "overview-charts");
  await expectChartTextContrast(page);
  await expectAccessible(page, "console overview with charts", { contrastCheckedBySpec: ".recharts-wrapper" });

  // The table alternative: today's FAILED count links to today's FAILED payments.
  await outcomes.getByText("Show the numbers").click();
  const row = outcomes.getByRole("row").filter({ has: page.getByRole("rowheader", { name: day }) });
  await expect(row).toBeVisible();
  await row.getByRole("cell").nth(1).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/console/payments\\?status=FAILED&from=${day}&to=${day}`));
  await expect(page.getByRole("heading", { name: "Payments" })).toBeVisible();

  // A click on a bar opens the payments of that day and outcome.
  await page.goto(`${base()}/console?merchant=${merchantId}`);
  await page.getByTestId("chart-payments-by-outcome").locator(".recharts-bar-rectangle").last().click();
  await expect(page).toHaveURL(/\/console\/payments\?status=[A-Z]+&from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}/);
});

test("a line chart with one day of data draws that day as a visible dot with its value", async ({ page }) => {
  // A new merchant: its only payments are today's, so its success rate has one day with a value.
  const m = await libTask("merchant");
  const created = await api(m.key, "POST", "/v1/payments", {
    reference: `one-day-${Date.now()}`,
    amount: "12.00",
    currency: "USD",
    method: "GATEWAY",
    direction: "DEPOSIT",
  });
  expect(created.status).toBe(201);
  expect((await api(m.key, "POST", `/v1/sandbox/payments/${created.body.id}/complete`, { outcome: "SUCCEEDED" })).status).toBe(200);
  await signIn(page, m.owner, m.password);
  const chart = page.getByTestId("chart-success-rate");
  const point = chart.locator("svg .lone-day-point");
  await expect(point).toHaveCount(1);
  const dot = point.locator("circle");
  await expect(dot).toBeVisible();
  expect(Number(await dot.getAttribute("r"))).toBeGreaterThan(0);
  const box = await dot.boundingBox();
  expect(box && box.width > 0 && box.height > 0, "the dot has a size on screen").toBe(true);
  expect(await dot.evaluate((el) => getComputedStyle(el).fill)).not.toMatch(/none|transparent|rgba\(0, 0, 0, 0\)/);
  await expect(point.locator("text")).toHaveText("100 %");
  await expect(point.locator("text")).toBeVisible();
  // The value is drawn whole, inside the chart (not cut at its edge).
  const [label, svg] = [await point.locator("text").boundingBox(), await chart.locator("svg.recharts-surface").first().boundingBox()];
  expect(
    label!.x >= svg!.x && label!.x + label!.width <= svg!.x + svg!.width && label!.y >= svg!.y,
    `${JSON.stringify(label)} inside ${JSON.stringify(svg)}`,
  ).toBe(true);
  await expectChartTextContrast(page);
});

test("callbacks view: deliveries by outcome, latency and backlog; pricing view: limit use; screenshots and axe", async ({ browser }) => {
  const { merchantId } = await someActivity();
  const page = await operatorPage(browser);
  await page.goto(`${base()}/console?merchant=${merchantId}`);
  const day = await serviceDay(page);
  await page.goto(`${base()}/console/callbacks?merchant=${merchantId}`);
  await expect(page.getByTestId("chart-deliveries-by-outcome")).toBeVisible();
  await expect(page.getByTestId("chart-delivery-latency")).toBeVisible();
  await expect(page.getByTestId("callback-backlog")).toContainText("Backlog now");
  await expectNothingClipped(page);
  await screenshot(page, "callbacks-charts");
  await expectChartTextContrast(page);
  await expectAccessible(page, "console callbacks with charts", { contrastCheckedBySpec: ".recharts-wrapper" });

  // The table alternative: today's NOT CONFIGURED count opens the deliveries that ended so today.
  const outcomes = page.getByTestId("chart-deliveries-by-outcome");
  await outcomes.getByText("Show the numbers").click();
  const row = outcomes.getByRole("row").filter({ has: page.getByRole("rowheader", { name: day }) });
  // Cells after the day: first attempt, after retries, via listener, failed, not configured.
  await row.getByRole("cell").nth(4).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/console/callbacks\\?state=NOT_CONFIGURED.*endedOn=${day}`));
  await expect(page.getByTestId("deliveries-narrowed")).toContainText(`ended on ${day}`);
  // A click on a bar opens the deliveries of that day and outcome.
  await page.getByTestId("chart-deliveries-by-outcome").locator(".recharts-bar-rectangle").last().click();
  await expect(page).toHaveURL(/\/console\/callbacks\?state=[A-Z_]+.*endedOn=\d{4}-\d{2}-\d{2}/);

  await page.goto(`${base()}/console/pricing`);
  const limits = page.getByTestId("chart-limit-usage");
  await expect(limits).toBeVisible();
  await expectNothingClipped(page);
  await screenshot(page, "pricing-limit-use");
  // Without a profile with a limit (the seed has none; another spec may have set one) the chart is a sentence,
  // whose contrast axe checks; drawn, its SVG text is measured here.
  if ((await limits.getByTestId("chart-empty").count()) > 0) await expect(limits).toContainText("No limit use yet");
  else await expectChartTextContrast(page);
  await expectAccessible(page, "console pricing with the limit chart", { contrastCheckedBySpec: ".recharts-wrapper" });
});
