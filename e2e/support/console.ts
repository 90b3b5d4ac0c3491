import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, type Page } from "@playwright/test";
import { saveScreenshot } from "./screenshots";

/** Helpers of the console specs: the running service, the seed, sign-in, API calls and lib-code setup. */
export const base = () => process.env.SANDPIPER_URL!;
export type Seed = {
  merchantId: string;
  secondMerchantId: string;
  keys: { full: string; readOnly: string; secondMerchant: string; amountEntry: string };
  users: Record<"operator" | "merchant" | "approver" | "second", { username: string; password: string }>;
};
export const seed = (): Seed => JSON.parse(process.env.SANDPIPER_SEED!);

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");

/** Runs a task of e2e/support/lib-task.ts (the service's lib code on the e2e database) and returns its JSON. */
export async function libTask<T = any>(task: string, args: unknown = {}): Promise<T> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "e2e/support/lib-task.ts", task, JSON.stringify(args)], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: process.env.E2E_DATABASE_URL! },
  });
  return JSON.parse(stdout.trim().split("\n").pop()!);
}

/** Signs in through the sign-in page and waits for the overview. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${base()}/console/sign-in`);
  await page.getByLabel("User name").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${base()}/console`);
}

/** A merchant API call with a bearer key (JSON body, fresh Idempotency-Key unless given). */
export async function api(key: string, method: "GET" | "POST", apiPath: string, body?: unknown, idempotencyKey?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (method === "POST") {
    headers["content-type"] = "application/json";
    headers["idempotency-key"] = idempotencyKey ?? `e2e-${crypto.randomUUID()}`;
  }
  const res = await fetch(`${base()}${apiPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * Saves a screenshot of the whole page as console-<name>.png (e2e/support/screenshots.ts: under
 * test-results/screenshots/, and a kept one under e2e/screenshots/ with UPDATE_SCREENSHOTS=1). The viewport is
 * stretched to the page's height for the shot (so the sticky sidebar is drawn where a reader expects it) and
 * then restored.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.max(height, viewport.height) });
  await saveScreenshot(page, `console-${name}.png`);
  await page.setViewportSize(viewport);
}

/**
 * Fails when anything on the page is cut off sideways (what a screenshot would show clipped): the page wider than
 * the viewport, or a visible scroll or overflow container (such as a table's) wider inside than its box. Text
 * truncated on purpose with an ellipsis, and screen-reader-only text, are allowed.
 */
export async function expectNothingClipped(page: Page): Promise<void> {
  const clipped = await page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth + 1) found.push(`page: ${root.scrollWidth} px wide in a ${window.innerWidth} px viewport`);
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      const style = getComputedStyle(el);
      if (!["auto", "scroll", "hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis") continue;
      // Not drawn, visually hidden (screen-reader text is 1 px wide), or not overflowing.
      if (el.getClientRects().length === 0 || el.clientWidth <= 1 || el.scrollWidth <= el.clientWidth + 1) continue;
      found.push(`<${el.tagName.toLowerCase()} class="${el.className}">: ${el.scrollWidth} px of content in ${el.clientWidth} px`);
    }
    return found;
  });
  expect(clipped, `content cut off sideways at ${page.viewportSize()?.width} px on ${page.url()}`).toEqual([]);
}
