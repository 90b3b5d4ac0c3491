import { expect, test, type Browser, type Page } from "@playwright/test";
import { streamForwardToken } from "../test/support/stream";
import { api, base, libTask, seed, signIn } from "./support/console";

// Every console page fits a laptop (1280 px) and a phone (390 px): nothing is cut off sideways and no form field
// hides its placeholder. Wide content may scroll inside its own container (a table scrolls inside its card:
// overflow-x auto or scroll); see misfits() for what fails. One browser context, signed in once as the operator,
// per width; the two widths run side by side.

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** What an operator opens: every page of the menu, and one detail page of each kind. */
function pages(ids: { merchantId: string; paymentId: string; deliveryId: string }): string[] {
  return [
    "/console",
    "/console/payments",
    `/console/payments/${ids.paymentId}`,
    "/console/approvals",
    "/console/keys",
    `/console/callbacks?merchant=${ids.merchantId}`,
    `/console/callbacks/${ids.deliveryId}`,
    "/console/requests",
    "/console/merchants",
    `/console/merchants/${ids.merchantId}`,
    "/console/users",
    "/console/pricing",
    "/console/rates",
    "/console/catalog",
    "/console/settings",
    "/console/audit",
  ];
}

/**
 * The page's problems. Cut off sideways: the page wider than the window; an element that hides part of its content
 * (overflow hidden or clip, content wider than its box; an ellipsis on purpose is fine); an element reaching past the
 * window's right edge. Anything inside a container that scrolls sideways (overflow-x auto or scroll) may be wider:
 * it scrolls. Form fields: the placeholder of an empty text field fits the room inside it (values and select options
 * are data of any length, such as a merchant's name).
 */
async function misfits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const name = (el: Element) => {
      const label = el.getAttribute("aria-label") ?? el.getAttribute("name") ?? el.getAttribute("data-testid") ?? (el.textContent ?? "").trim().slice(0, 40);
      return `<${el.tagName.toLowerCase()}${label ? ` "${label}"` : ""}>`;
    };
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth + 1) found.push(`the page is ${root.scrollWidth} px wide in a ${window.innerWidth} px window`);
    const visit = (el: Element, inScroller: boolean) => {
      if (el instanceof SVGElement) return;
      const style = getComputedStyle(el);
      if (style.display === "none") return;
      const scroller = ["auto", "scroll"].includes(style.overflowX);
      if (!inScroller && el instanceof HTMLElement && style.visibility !== "hidden" && style.position !== "fixed") {
        const box = el.getBoundingClientRect();
        if (box.width > 1 && box.height > 1 && box.right > window.innerWidth + 1 && box.left < window.innerWidth)
          found.push(`${name(el)} reaches ${Math.round(box.right)} px in a ${window.innerWidth} px window`);
        const hides = ["hidden", "clip"].includes(style.overflowX) && style.textOverflow !== "ellipsis" && !el.matches("input, select, textarea");
        if (hides && el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1)
          found.push(`${name(el)}: ${el.scrollWidth} px of content in ${el.clientWidth} px`);
      }
      for (const child of el.children) visit(child, inScroller || scroller);
    };
    visit(document.body, false);
    const canvas = document.createElement("canvas").getContext("2d")!;
    for (const field of document.querySelectorAll<HTMLInputElement>("input[placeholder]")) {
      if (field.value !== "" || field.getClientRects().length === 0) continue;
      const style = getComputedStyle(field);
      canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const width = canvas.measureText(field.placeholder).width;
      if (width > room + 1)
        found.push(`${name(field)}: its placeholder "${field.placeholder}" needs ${Math.round(width)} px, the field has ${Math.round(room)} px`);
    }
    return found;
  });
}

/** A browser context of `viewport`'s size with the operator signed in. */
async function operatorAt(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  const { operator } = seed().users;
  await signIn(page, operator.username, operator.password);
  return page;
}

/** Opens every page in `page`'s context; returns the problems by page, and closes the context. */
async function check(page: Page, paths: string[]): Promise<Record<string, string[]>> {
  const problems: Record<string, string[]> = {};
  for (const path of paths) {
    const res = await page.goto(`${base()}${path}`);
    expect(res?.status(), path).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const found = await misfits(page);
    if (found.length) problems[`${page.viewportSize()?.width} px ${path}`] = found;
  }
  await page.context().close();
  return problems;
}

/**
 * A merchant with a long name, a concluded payment, its delivery, and a listener forward with a long receiver
 * address, so that the pickers, the detail pages and their tables are drawn full. Returns the pages to open.
 */
async function pagesWithData(): Promise<string[]> {
  const m = await libTask("merchant", { name: "Fit Merchant with a Rather Long Trading Name LLC" });
  const created = await api(m.key, "POST", "/v1/payments", {
    reference: `fit-${Date.now()}`,
    amount: "1250.00",
    currency: "USD",
    method: "GATEWAY",
    direction: "DEPOSIT",
  });
  expect(created.status).toBe(201);
  expect((await api(m.key, "POST", `/v1/sandbox/payments/${created.body.id}/complete`, { outcome: "SUCCEEDED" })).status).toBe(200);
  const eventId: string = (await api(m.key, "GET", `/v1/events?paymentId=${created.body.id}`)).body.items[0].id;
  const forwardToken = await streamForwardToken(base(), m.key);
  const forward = {
    eventId,
    forwardId: "7d1f6c6e-8d0a-4d59-9a53-3c2f1f0d9a12",
    cursor: "1",
    kind: "event",
    attempt: 1,
    startedAt: new Date().toISOString(),
    durationMs: 12,
    statusCode: null,
    error: "connect ECONNREFUSED 127.0.0.1:4000 (the receiver is not running)",
    forwardTo: "http://localhost:4000/a/rather/long/path/to/the/sandpiper/callbacks/receiver",
    timestamp: String(Math.floor(Date.now() / 1000)),
    signature: "cd".repeat(32),
    responseSnippet: null,
    nextAttemptAt: new Date(Date.now() + 1000).toISOString(),
  };
  expect((await api(m.key, "POST", "/v1/events/forwards", { forwardToken, forwards: [forward] })).status).toBe(200);
  const deliveryId: string = (await api(m.key, "GET", `/v1/events/${eventId}`)).body.delivery.deliveries[0].id;
  return pages({ merchantId: m.merchantId, paymentId: created.body.id, deliveryId });
}

test("every console page fits 1280 px and 390 px: nothing cut off sideways, no form field hiding its text", async ({ browser }) => {
  // The data and the two sign-ins side by side, then the two widths side by side.
  const [paths, ...signedIn] = await Promise.all([pagesWithData(), ...WIDTHS.map((viewport) => operatorAt(browser, viewport))]);
  const problems = Object.assign({}, ...(await Promise.all(signedIn.map((page) => check(page, paths)))));
  expect(problems).toEqual({});
});
