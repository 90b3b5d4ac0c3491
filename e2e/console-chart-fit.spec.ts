import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { base, libTask, seed, signIn } from "./support/console";
import { sql } from "./support/db";

// The console's charts fit their data (docs/guides/console-for-operators.md "Charts"), at 1280 px and 390 px: every plotted point inside the
// plot area, tick labels on one line, a lone point drawn as a dot, no line below its zero line, series names that
// say what they are and in which unit, and words instead of empty axes for a chart without data.

const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;

/** The Dubai day `back` days before today (YYYY-MM-DD). */
const dubaiDay = (back = 0) => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Dubai" }).format(new Date(Date.now() - back * 86_400_000));

type Merchant = { merchantId: string; owner: string; password: string };

async function merchantPage(browser: Browser, m: Merchant, viewport: { width: number; height: number }, path: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await signIn(page, m.owner, m.password);
  if (path !== "/console") await page.goto(`${base()}${path}`);
  return page;
}

/** A merchant's delivered callbacks of today: ten in the 1024 ms bucket and one in the 32,768 ms bucket (p50 1024, p95 32768). */
async function slowCallbacks(): Promise<Merchant> {
  const m = await libTask<Merchant>("merchant");
  await sql(`INSERT INTO delivery_latency_stats (merchant_id, day, bucket, n) VALUES ($1::uuid, $2, 9, 10), ($1::uuid, $2, 14, 1)`, [m.merchantId, dubaiDay()]);
  await sql(`INSERT INTO delivery_day_stats (merchant_id, day, outcome, n) VALUES ($1::uuid, $2, 'FIRST_ATTEMPT', 11)`, [m.merchantId, dubaiDay()]);
  return m;
}

/** A merchant's succeeded payments: USD 50.00 ten days ago, USD 1,000.00 and AED 200.00 today (nothing between). */
async function volumeWithQuietDays(): Promise<Merchant> {
  const m = await libTask<Merchant>("merchant");
  const row = `INSERT INTO payment_counts (merchant_id, day, status, method, direction, currency, n, amount_minor, charged_aed_minor)
    VALUES ($1::uuid, $2, 'SUCCEEDED', 'GATEWAY', 'DEPOSIT', $3, 1, $4, $5)`;
  await sql(row, [m.merchantId, dubaiDay(10), "USD", 5_000, 18_365]);
  await sql(row, [m.merchantId, dubaiDay(), "USD", 100_000, 367_300]);
  await sql(row, [m.merchantId, dubaiDay(), "AED", 20_000, 20_000]);
  return m;
}

/**
 * The chart's plotted marks in the SVG's user units: its plot area, each line's drawn extent (path bounding box),
 * each dot (centre, radius, visible or not), each y-axis tick (text, y, number of lines, height) and x-axis tick.
 */
async function marks(chart: Locator) {
  return chart
    .locator(".recharts-wrapper > svg.recharts-surface")
    .first()
    .evaluate((svg: SVGSVGElement) => {
      const rect = svg.querySelector("defs clipPath rect");
      const plot = rect
        ? {
            x: Number(rect.getAttribute("x")),
            y: Number(rect.getAttribute("y")),
            width: Number(rect.getAttribute("width")),
            height: Number(rect.getAttribute("height")),
          }
        : null;
      const lines = [...svg.querySelectorAll<SVGPathElement>("path.recharts-line-curve")].map((p) => {
        const b = p.getBBox();
        return { name: p.getAttribute("name") ?? "", top: b.y, bottom: b.y + b.height };
      });
      const dots = [...svg.querySelectorAll<SVGCircleElement>("circle")].map((c) => {
        const style = getComputedStyle(c);
        const r = Number(c.getAttribute("r"));
        return {
          cx: Number(c.getAttribute("cx")),
          cy: Number(c.getAttribute("cy")),
          r,
          visible: r > 0 && style.visibility !== "hidden" && style.display !== "none" && !/none|transparent|rgba\(0, 0, 0, 0\)/.test(style.fill),
        };
      });
      const ticks = (axis: string) =>
        [...svg.querySelectorAll<SVGTextElement>(`${axis}-tick-labels text`)].map((t) => {
          const b = t.getBBox();
          return {
            text: t.textContent ?? "",
            y: Number(t.getAttribute("y")),
            lines: Math.max(1, t.querySelectorAll("tspan").length),
            height: b.height,
            left: b.x,
          };
        });
      return { plot, lines, dots, yTicks: ticks(".recharts-yAxis"), xTicks: ticks(".recharts-xAxis"), fontSize: 12 };
    });
}

/** Every tick label of the page's charts is one line (one tspan, one line high) and not cut at the chart's left. */
async function expectTicksOnOneLine(page: Page) {
  const charts = page.locator("[data-testid^='chart-']");
  for (let i = 0; i < (await charts.count()); i++) {
    const chart = charts.nth(i);
    if ((await chart.locator(".recharts-wrapper > svg.recharts-surface").count()) === 0) continue;
    const m = await marks(chart);
    for (const t of [...m.yTicks, ...m.xTicks]) {
      const where = `${await chart.getAttribute("data-testid")} tick "${t.text}"`;
      expect.soft(t.lines, `${where} is drawn on one line`).toBe(1);
      expect.soft(t.height, `${where} is one line high`).toBeLessThan(m.fontSize * 1.8);
      expect.soft(t.left, `${where} starts inside the chart`).toBeGreaterThanOrEqual(0);
    }
  }
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} px`, () => {
    test("callbacks latency: the 32,768 ms p95 and the 1,024 ms p50 are visible dots inside the plot, tick labels on one line", async ({ browser }) => {
      const m = await slowCallbacks();
      const page = await merchantPage(browser, m, viewport, "/console/callbacks");
      const chart = page.getByTestId("chart-delivery-latency");
      await expect(chart.locator(".recharts-wrapper > svg.recharts-surface")).toBeVisible();
      await expect(chart.locator(".recharts-line").first()).toBeAttached();
      const { plot, dots, yTicks } = await marks(chart);
      expect(plot, "the chart has a plot area").not.toBeNull();
      const visible = dots.filter((d) => d.visible);
      expect.soft(visible.length, "each series' one point (p50 and p95) is a visible dot").toBeGreaterThanOrEqual(2);
      const topTick = Math.min(...yTicks.map((t) => t.y));
      for (const d of visible) {
        // The whole dot is inside the plot (not cut at its edge), and no higher than the axis' top label says.
        expect.soft(d.cy - d.r, `dot at y ${d.cy} (r ${d.r}) is not cut at the top of the plot ${JSON.stringify(plot)}`).toBeGreaterThanOrEqual(plot!.y - 0.5);
        expect
          .soft(d.cy + d.r, `dot at y ${d.cy} (r ${d.r}) is not cut at the bottom of the plot ${JSON.stringify(plot)}`)
          .toBeLessThanOrEqual(plot!.y + plot!.height + 0.5);
        expect.soft(d.cy, `dot at y ${d.cy} is within the y axis' labelled range (top tick at y ${topTick})`).toBeGreaterThanOrEqual(topTick - 0.5);
      }
      // Two distinct dots: p50 below p95 on the chart.
      expect.soft(new Set(visible.map((d) => Math.round(d.cy))).size, "p50 and p95 are drawn at different heights").toBeGreaterThanOrEqual(2);
      await expectTicksOnOneLine(page);
      // The table alternative keeps the exact figures.
      await chart.getByText("Show the numbers").click();
      const row = chart.getByRole("row").filter({ has: page.getByRole("rowheader", { name: dubaiDay() }) });
      await expect(row.getByRole("cell").nth(1)).toHaveText("1024");
      await expect(row.getByRole("cell").nth(2)).toHaveText("32768");
    });

    test("overview volume: no line below its zero line, legends distinct with their units, tick labels on one line", async ({ browser }) => {
      const m = await volumeWithQuietDays();
      const page = await merchantPage(browser, m, viewport, "/console");
      const chart = page.getByTestId("chart-volume");
      await expect(chart.locator(".recharts-line-curve").first()).toBeAttached();
      const { plot, lines, yTicks } = await marks(chart);
      const zero = yTicks.find((t) => t.text === "0");
      expect(zero, `the y axis shows its zero (${yTicks.map((t) => t.text).join(", ")})`).toBeDefined();
      expect(lines.length).toBe(2);
      for (const l of lines) {
        expect.soft(l.bottom, `line ${l.name} does not bend below zero (y ${zero!.y})`).toBeLessThanOrEqual(zero!.y + 0.5);
        expect.soft(l.top, `line ${l.name} stays inside the plot`).toBeGreaterThanOrEqual(plot!.y - 0.5);
      }
      const legends = await chart.locator(".recharts-legend-item-text").allTextContents();
      expect(legends.length).toBe(3);
      expect.soft(new Set(legends).size, `legends are distinct: ${legends.join(" | ")}`).toBe(legends.length);
      for (const l of legends) expect.soft(l, "each legend says its unit in parentheses").toMatch(/\([^)]*[A-Z]{3}[^)]*\)/);
      // No legend is another one with words around it (which is which must be said, not guessed).
      const units = legends.map((l) => l.replace(/^.*\((.*)\).*$/, "$1"));
      expect.soft(new Set(units).size, `each legend's parentheses say which amount it is: ${units.join(" | ")}`).toBe(legends.length);
      await expectTicksOnOneLine(page);

      // The success rate has a value on two days ten days apart and none between: two dots and a gap, no line
      // drawn across the days without a rate.
      const rate = page.getByTestId("chart-success-rate");
      const rateMarks = await marks(rate);
      expect.soft(rateMarks.dots.filter((d) => d.visible).length, "each day with a rate is a visible dot").toBe(2);
      const path = await rate.locator("path.recharts-line-curve").getAttribute("d");
      expect.soft(path ?? "", `no line across the days without a rate: ${path}`).not.toMatch(/[LCQ]/);
    });

    test("pricing without limits: the limit chart says so in words and draws no axes", async ({ browser }) => {
      // Pricing is an operator's page: the operator chooses a new merchant, which has no pricing profile.
      const m = await libTask<Merchant>("merchant");
      const page = await (await browser.newContext({ viewport })).newPage();
      const { operator } = seed().users;
      await signIn(page, operator.username, operator.password);
      await page.goto(`${base()}/console/pricing?merchant=${m.merchantId}`);
      const chart = page.getByTestId("chart-limit-usage");
      await expect(chart).toBeVisible();
      await expect(chart).toContainText("No limit use yet");
      await expect(chart.locator(".recharts-cartesian-axis")).toHaveCount(0);
      await expect(chart.locator("svg.recharts-surface")).toHaveCount(0);
    });
  });
}
