import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectAccessible } from "./support/axe";
import { amountEntryMerchant, createStorePayment, openSession, pollUntilReady, storeMerchant } from "./support/customer-merchants";
import { sql } from "./support/db";
import { LANGUAGE_STATES, languageScreenshot, saveScreenshot } from "./support/screenshots";

// The customer pages in Arabic and English (docs/guides/store-checkout.md, docs/guides/amount-entry-checkout.md
// "Languages"; docs/decisions/0210-customer-pages-in-arabic-and-english.md): the language follows Accept-Language,
// Arabic is `<html lang="ar" dir="rtl">`, the switch keeps the other language a year, the amount field reads
// Arabic-Indic digits and grouping commas, and every state is accessible and photographed in both languages.

const base = () => process.env.SANDPIPER_URL!;
const NO_RECEIVER = "http://127.0.0.1:9/callbacks";
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true, timezoneId: "UTC" } as const;
type Lang = "en" | "ar";
/** The browser's language for each page language (Playwright sends it as Accept-Language). */
const BROWSER_LOCALE: Record<Lang, string> = { en: "en-GB", ar: "ar-AE" };

async function customerPage(browser: Browser, lang: Lang, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ ...PHONE, locale: BROWSER_LOCALE[lang], javaScriptEnabled, reducedMotion: "reduce" });
  return context.newPage();
}

/** The page speaks `lang`: the html element's lang and dir, and one of its words. */
async function expectLanguage(page: Page, lang: Lang, words: string | RegExp) {
  await expect(page.locator("html")).toHaveAttribute("lang", lang);
  await expect(page.locator("html")).toHaveAttribute("dir", lang === "ar" ? "rtl" : "ltr");
  await expect(page.locator("main")).toContainText(words);
}

/** A state reached: axe finds nothing, and its screenshot is kept for review. */
async function review(page: Page, state: (typeof LANGUAGE_STATES)[number], lang: Lang) {
  await expectAccessible(page, `${state} in ${lang}`, { contrastCheckedBySpec: '[data-testid="discount-wheel"]' });
  await saveScreenshot(page, languageScreenshot(state, lang), { fullPage: true });
}

/**
 * The two endings every customer page has, reviewed in `lang`: its link once `expire()` has made it expired (the
 * heading `expired`), then an unknown token's page (the heading `notFound`); the page's context is closed after.
 */
async function endings(
  page: Page,
  lang: Lang,
  e: { page: "store" | "checkout"; expire: () => Promise<unknown>; url: string; expired: string; notFound: string },
) {
  await e.expire();
  await page.goto(e.url);
  await expect(page.getByRole("heading", { name: e.expired })).toBeVisible();
  await review(page, `${e.page}-expired`, lang);
  await page.goto(`${base()}/${e.page}/not-a-token`);
  await expectLanguage(page, lang, e.notFound);
  await review(page, `${e.page}-not-found`, lang);
  await page.context().close();
}

const AR = {
  badge: "بيئة تجريبية · لا تنتقل أموال حقيقية",
  basket: "سلّتك",
  pay: /^ادفع /,
  paid: "تم تأكيد الدفع",
  declined: "تم رفض الدفع",
  decline: "رفض",
  storeExpired: "انتهت صلاحية عملية الدفع هذه",
  storeNotFound: "لم يُعثر على عملية الدفع في المتجر",
  choose: "كم تريد أن تدفع؟",
  amount: "المبلغ",
  currency: "العملة",
  showTotal: "اعرض الإجمالي",
  total: "إجماليك",
  confirmed: "تم تأكيد الإجمالي",
  checkoutExpired: "انتهت صلاحية رابط الدفع هذا",
  checkoutNotFound: "لم يُعثر على رابط الدفع",
};

for (const lang of ["ar", "en"] as const) {
  test(`the store page in ${lang}: ready, paid, declined, expired and not found`, async ({ browser, request }) => {
    const page = await customerPage(browser, lang);
    const { headers } = storeMerchant(NO_RECEIVER);
    const ready = await pollUntilReady(request, headers, (await createStorePayment(request, headers, "2.50")).id);
    await page.goto(ready.checkout.url);
    await expectLanguage(page, lang, lang === "ar" ? AR.basket : "Your basket");
    await expect(page.getByTestId("total")).toHaveText(lang === "ar" ? "\u200f10.15\u00a0AED" : "AED 10.15");
    await review(page, "store-ready", lang);
    await page.getByRole("button", { name: lang === "ar" ? AR.pay : /^Pay AED/ }).click();
    await expect(page.getByRole("heading", { name: lang === "ar" ? AR.paid : "Payment confirmed", level: 2 })).toBeVisible();
    await review(page, "store-paid", lang);

    const declined = await pollUntilReady(request, headers, (await createStorePayment(request, headers, "2.60")).id);
    await page.goto(declined.checkout.url);
    await page.getByRole("button", { name: lang === "ar" ? AR.decline : "Decline", exact: true }).click();
    await expect(page.getByRole("heading", { name: lang === "ar" ? AR.declined : "Payment declined", level: 2 })).toBeVisible();
    await review(page, "store-declined", lang);

    const expired = await pollUntilReady(request, headers, (await createStorePayment(request, headers, "2.70")).id);
    await endings(page, lang, {
      page: "store",
      expire: () => sql("UPDATE payments SET expires_at = $2 WHERE id = $1", [expired.id, new Date(Date.now() - 1000)]),
      url: expired.checkout.url,
      expired: lang === "ar" ? AR.storeExpired : "This checkout has expired",
      notFound: lang === "ar" ? AR.storeNotFound : "Store checkout not found",
    });
  });

  test(`the amount-entry page in ${lang}: amount, total, confirmed, expired and not found`, async ({ browser, request }) => {
    const page = await customerPage(browser, lang);
    const { headers } = amountEntryMerchant();
    const session = await openSession(request, headers);
    await page.goto(session.customerCheckout.url);
    await expectLanguage(page, lang, lang === "ar" ? AR.choose : "How much do you want to pay?");
    const amount = page.getByLabel(lang === "ar" ? AR.amount : "Amount", { exact: true });
    await page.getByLabel(lang === "ar" ? AR.currency : "Currency", { exact: true }).selectOption("USD");
    // Arabic-Indic digits are read, and the page says what it understood.
    await amount.fill("١٥٠");
    await expect(page.getByTestId("amount-understood")).toContainText(lang === "ar" ? "150.00\u00a0USD" : "USD 150.00");
    await review(page, "checkout-amount", lang);
    await page.getByRole("button", { name: lang === "ar" ? AR.showTotal : "Show total" }).click();
    await expect(page.getByRole("heading", { name: lang === "ar" ? AR.total : "Your total" })).toBeVisible();
    // 150 USD x 3.7462254375 = 561.93 AED (half up).
    await expect(page.getByTestId("entered-amount")).toContainText(lang === "ar" ? "150.00\u00a0USD" : "USD 150.00");
    await expect(page.getByTestId("charged-total")).toHaveText(lang === "ar" ? "\u200f561.93\u00a0AED" : "AED 561.93");
    await review(page, "checkout-quoted", lang);

    // A grouped amount is read too; an ambiguous comma is refused with the reason.
    await page.getByText(lang === "ar" ? "غيّر المبلغ أو العملة" : "Change amount or currency").click();
    await amount.fill("150,5");
    await page.getByRole("button", { name: lang === "ar" ? "حدّث الإجمالي" : "Update total" }).click();
    await expect(page.locator("form").getByRole("alert")).toContainText(lang === "ar" ? "1,500.00" : "A comma is only read between groups of three digits");
    await amount.fill("1,500.00");
    await page.getByRole("button", { name: lang === "ar" ? "حدّث الإجمالي" : "Update total" }).click();
    await expect(page.getByTestId("entered-amount")).toContainText(lang === "ar" ? "1,500.00\u00a0USD" : "USD 1,500.00");
    await page.getByRole("button", { name: lang === "ar" ? /^أكّد إجمالي/ : /^Confirm total of/ }).click();
    await expect(page.getByRole("heading", { name: lang === "ar" ? AR.confirmed : "Total confirmed" })).toBeVisible();
    await review(page, "checkout-confirmed", lang);

    const expired = await openSession(request, headers);
    await endings(page, lang, {
      page: "checkout",
      expire: () => sql("UPDATE checkout_sessions SET expires_at = $2 WHERE id = $1", [expired.id, new Date(Date.now() - 1000)]),
      url: expired.customerCheckout.url,
      expired: lang === "ar" ? AR.checkoutExpired : "This checkout link has expired",
      notFound: lang === "ar" ? AR.checkoutNotFound : "Checkout link not found",
    });
  });
}

test("the switch goes from Arabic to English and back, the choice sticks on reload, and the console stays English", async ({ browser, request }) => {
  const page = await customerPage(browser, "ar");
  const { headers } = amountEntryMerchant();
  const session = await openSession(request, headers);
  await page.goto(session.customerCheckout.url);
  await expectLanguage(page, "ar", AR.choose);
  await expect(page.getByRole("navigation", { name: "اللغة" })).toBeVisible();
  await page.getByTestId("language-switch").click();
  await expectLanguage(page, "en", "How much do you want to pay?");
  expect(page.url()).toBe(session.customerCheckout.url);
  const cookie = (await page.context().cookies()).find((c) => c.name === "sandpiper-locale");
  expect(cookie).toMatchObject({ value: "en", path: "/", sameSite: "Lax", httpOnly: true });
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);
  await page.reload();
  await expectLanguage(page, "en", "How much do you want to pay?");
  // The store page shares the choice.
  const store = storeMerchant(NO_RECEIVER);
  const ready = await pollUntilReady(request, store.headers, (await createStorePayment(request, store.headers, "2.50")).id);
  await page.goto(ready.checkout.url);
  await expectLanguage(page, "en", "Your basket");
  await page.getByTestId("language-switch").click();
  await expectLanguage(page, "ar", AR.basket);
  await page.goto(`${base()}/console/sign-in`);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.context().close();
});

test.describe("JavaScript switched off", () => {
  test("the switch is a link: Arabic to English and back without a script; amounts in Arabic-Indic digits are sent by the form", async ({
    browser,
    request,
  }) => {
    const page = await customerPage(browser, "ar", false);
    const { headers } = amountEntryMerchant();
    const session = await openSession(request, headers);
    await page.goto(session.customerCheckout.url);
    await expectLanguage(page, "ar", AR.choose);
    await page.getByTestId("language-switch").click();
    await expectLanguage(page, "en", "How much do you want to pay?");
    await page.reload();
    await expectLanguage(page, "en", "How much do you want to pay?");
    await page.getByTestId("language-switch").click();
    await expectLanguage(page, "ar", AR.choose);
    await page.getByLabel(AR.currency, { exact: true }).selectOption("USD");
    await page.getByLabel(AR.amount, { exact: true }).fill("USD ١٬٥٠٠٫٠٠");
    await page.getByRole("button", { name: AR.showTotal }).click();
    await expect(page.getByTestId("entered-amount")).toContainText("1,500.00\u00a0USD");
    await page.context().close();
  });
});
