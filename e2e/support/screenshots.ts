import { copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";

// docs/decisions/0154-screenshots-eight-kept-the-rest-per-run.md: every run writes its screenshots to
// test-results/screenshots/ (ignored by git); only the curated set below is kept in git under e2e/screenshots/, and refreshed on purpose with
// `UPDATE_SCREENSHOTS=1 npx playwright test` (docs/guides/work-on-sandpiper.md "Tests").

const root = path.resolve(__dirname, "../..");
/** Where every run's screenshots go (ignored by git; Playwright empties test-results/ at the start of a run). */
export const LATEST_DIR = path.join(root, "test-results", "screenshots");
/** Where the curated screenshots are kept in git. */
export const KEPT_DIR = path.join(root, "e2e", "screenshots");

/**
 * The customer pages' states shown in both languages (e2e/customer-languages.spec.ts), kept for review at 390x844
 * as `customer-<state>-<en|ar>.png` (docs/decisions/0210-customer-pages-in-arabic-and-english.md).
 */
export const LANGUAGE_STATES = [
  "store-ready",
  "store-paid",
  "store-declined",
  "store-expired",
  "store-not-found",
  "checkout-amount",
  "checkout-quoted",
  "checkout-confirmed",
  "checkout-expired",
  "checkout-not-found",
] as const;

/** The file name of a customer page's state in a language ("customer-store-ready-ar.png"). */
export function languageScreenshot(state: (typeof LANGUAGE_STATES)[number], lang: "en" | "ar"): string {
  return `customer-${state}-${lang}.png`;
}

/** The screenshots kept in git (file names): the pages that document the product best, and the customer pages in both languages. */
export const KEPT_SCREENSHOTS: ReadonlySet<string> = new Set([
  ...LANGUAGE_STATES.flatMap((state) => [languageScreenshot(state, "en"), languageScreenshot(state, "ar")]),
  "console-overview-charts.png",
  "console-callbacks-charts.png",
  "console-pricing-limit-use.png",
  "console-payment-detail.png",
  "console-delivery.png",
  "console-signature-debugger.png",
  "checkout-amount.png",
  "store-ready.png",
]);

/**
 * Saves a screenshot of `page` as `file` (e.g. `store-ready.png`) under {@link LATEST_DIR}; with
 * UPDATE_SCREENSHOTS=1, a kept one ({@link KEPT_SCREENSHOTS}) is copied to {@link KEPT_DIR} too.
 */
export async function saveScreenshot(page: Page, file: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const latest = path.join(LATEST_DIR, file);
  await mkdir(LATEST_DIR, { recursive: true });
  await page.screenshot({ path: latest, fullPage: options.fullPage });
  if (process.env.UPDATE_SCREENSHOTS === "1" && KEPT_SCREENSHOTS.has(file)) await copyFile(latest, path.join(KEPT_DIR, file));
}
