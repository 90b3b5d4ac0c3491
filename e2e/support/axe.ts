import { expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";

// Automated accessibility check of a page as the customer sees it ("Accessible (labels, keyboard, focus,
// contrast)"), with axe-core in the page under test. Keyboard paths and focus moves are asserted by the specs
// themselves; axe covers names, labels, roles, landmarks, language, contrast and the other WCAG rules it can test.

/** axe rule tags of WCAG 2.0, 2.1 and 2.2 at levels A and AA (color-contrast is a wcag2aa rule). */
export const WCAG_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * Runs axe-core on the whole page (WCAG_A_AA rules) and fails the test on any violation, listing rule, impact and
 * the offending elements. Also fails when color-contrast did not run, or could not decide an element (axe's
 * "incomplete": text over an image, an overlapped element, ...), so a contrast problem cannot hide there. The one
 * exception is `contrastCheckedBySpec`: a CSS selector of a region whose contrast axe cannot compute (text inside
 * an SVG drawing) and which the calling spec measures itself, e.g. with `contrastRatio`.
 * `what` names the page state in the failure message. Waits first for the page's <title> (see below).
 */
export async function expectAccessible(page: Page, what: string, opts: { contrastCheckedBySpec?: string } = {}): Promise<void> {
  // After a client-side refresh React puts the document <title> back a moment after the new content: wait for a
  // non-empty title (a page without one still fails here, and axe's document-title rule stays on).
  await expect(page, `a document title on ${what}`).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).withTags(WCAG_A_AA).analyze();
  const violations = results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary ?? ""}`),
  }));
  expect(violations, `axe WCAG 2 A/AA violations on ${what}`).toEqual([]);
  expect(
    [...results.passes, ...results.violations].some((r) => r.id === "color-contrast"),
    `color-contrast checked on ${what}`,
  ).toBe(true);
  const undecided: string[] = [];
  for (const node of results.incomplete.filter((r) => r.id === "color-contrast").flatMap((r) => r.nodes)) {
    const selector = String(node.target[0]);
    const within = opts.contrastCheckedBySpec;
    const measuredBySpec =
      within !== undefined && (await page.evaluate(([s, w]) => document.querySelector(s)?.closest(w) != null, [selector, within] as const));
    if (!measuredBySpec) undecided.push(`${node.target.join(" ")}: ${node.any.map((c) => c.message).join("; ")}`);
  }
  expect(undecided, `color-contrast undecided on ${what}`).toEqual([]);
}

/** sRGB relative luminance (WCAG 2) of a CSS `rgb(r, g, b)` or `#rrggbb` colour. */
function luminance(color: string): number {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(color);
  const parts = hex ? hex.slice(1).map((h) => parseInt(h, 16)) : rgb ? rgb.slice(1).map(Number) : null;
  if (!parts) throw new Error(`not an opaque colour: ${color}`);
  const [r, g, b] = parts.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2 contrast ratio of two opaque colours (1 to 21; AA asks 4.5 for text, 3 for large text and graphics). */
export function contrastRatio(foreground: string, background: string): number {
  const [a, b] = [luminance(foreground), luminance(background)].sort((x, y) => y - x);
  return (a! + 0.05) / (b! + 0.05);
}
