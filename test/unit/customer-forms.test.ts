import { describe, expect, it } from "vitest";
import { money, percent } from "@/components/checkout/amount";
import { pageProblem } from "@/components/checkout/problems";
import { formAnswerLocation, formFields, isFormPost } from "@/lib/application/http/customer-pipeline";
// @ts-expect-error -- server.mjs's JavaScript front has no type declarations
import { isCustomerAction, pagePost } from "@/lib/application/http/front.mjs";
import { rateDifference } from "@/lib/contract/money/rates";
import { formatCalendarDay } from "@/lib/platform/time-format";
import en from "@/messages/en.json";
import ar from "@/messages/ar.json";

// The customer pages' forms sent without their script (docs/decisions/0209-customer-forms-post-to-their-action-routes.md)
// and the figures the amount-entry page says first (docs/guides/amount-entry-checkout.md).

const post = (url: string, contentType?: string) =>
  new Request(`http://127.0.0.1${url}`, { method: "POST", headers: contentType ? { "content-type": contentType } : {} });
const nodeReq = (method: string, url: string) => ({ method, url, headers: {} });

describe("customer forms", () => {
  it("tells the page's form from the script's JSON", () => {
    expect(isFormPost(post("/store/t/pay", "application/x-www-form-urlencoded"))).toBe(true);
    expect(isFormPost(post("/store/t/pay", "application/x-www-form-urlencoded;charset=UTF-8"))).toBe(true);
    expect(isFormPost(post("/store/t/pay", "application/json"))).toBe(false);
    expect(isFormPost(post("/store/t/pay", "multipart/form-data; boundary=x"))).toBe(false);
    expect(isFormPost(post("/store/t/pay"))).toBe(false);
  });

  it("reads the form's fields as the script sends them: trimmed, Arabic-Indic digits, grouping commas, the last of a repeated field", () => {
    expect(formFields(Buffer.from(`amount=${encodeURIComponent(" ١٥٠ ")}&currency=USD`))).toEqual({ amount: "150", currency: "USD" });
    expect(formFields(Buffer.from("amount=1%2C500.00+USD&currency=USD"))).toEqual({ amount: "1500.00", currency: "USD" });
    // An amount it cannot read is sent on as typed, for the schema to refuse and the page to word why.
    expect(formFields(Buffer.from("amount=+150%2C5+&currency=USD"))).toEqual({ amount: "150,5", currency: "USD" });
    expect(formFields(Buffer.from("amount=AED+150&currency=USD"))).toEqual({ amount: "AED 150", currency: "USD" });
    expect(formFields(Buffer.from("amount=1&amount=2&currency=%20AED"))).toEqual({ amount: "2", currency: "AED" });
    expect(formFields(Buffer.from(""))).toEqual({});
  });

  it("answers with the action's page, after a refusal with the code, the action and the fields sent (cut short)", () => {
    expect(formAnswerLocation("http://127.0.0.1:3000/store/abc/pay")).toBe("/store/abc");
    expect(formAnswerLocation("http://h/checkout/abc/quote", { code: "VALIDATION_ERROR", fields: { amount: "12.345", currency: "USD" } })).toBe(
      "/checkout/abc?problem=VALIDATION_ERROR&action=quote&amount=12.345&currency=USD",
    );
    const long = new URL(formAnswerLocation("http://h/checkout/abc/confirm", { code: "RATE_LIMITED", fields: { amount: "9".repeat(100) } }), "http://h");
    expect(long.searchParams.get("amount")).toBe("9".repeat(32));
    expect(long.searchParams.get("action")).toBe("confirm");
  });

  it("words a refusal on the page from its code only; the query's own text is never shown", () => {
    expect(pageProblem({}, en.customer.problems)).toBeNull();
    expect(pageProblem({ problem: "RATE_LIMITED", action: "pay" }, ar.customer.problems)?.message).toBe(ar.customer.problems.RATE_LIMITED);
    expect(pageProblem({ problem: "NETWORK" }, en.customer.problems)?.message).toBe(en.customer.problems.OTHER);
    expect(pageProblem({ problem: "RATE_LIMITED", action: "pay" }, en.customer.problems)).toEqual({
      message: "Too many tries from this connection. Wait a minute, then try again.",
      action: "pay",
      amount: null,
      currency: null,
    });
    const forged = pageProblem({ problem: "Your card was stolen, call +1 555", action: "steal", amount: "150", currency: "USD" }, en.customer.problems);
    expect(forged?.message).toBe("That did not go through. Please try again in a moment.");
    expect(forged?.action).toBeNull();
    expect(forged?.amount).toBe("150");
  });

  it("leaves the Origin check to the pages: a customer action is not a page POST", () => {
    for (const url of ["/store/abc/pay", "/store/abc/decline", "/checkout/abc/quote", "/checkout/abc/confirm?x=1"]) {
      expect(isCustomerAction(nodeReq("POST", url))).toBe(true);
      expect(pagePost(nodeReq("POST", url))).toBeNull();
    }
    for (const url of ["/store/abc", "/checkout/abc", "/console/sign-in", "/store/abc/pay/x", "/checkout/abc/pay"]) {
      expect(isCustomerAction(nodeReq("POST", url))).toBe(false);
      expect(pagePost(nodeReq("POST", url))).not.toBeNull();
    }
    expect(isCustomerAction(nodeReq("GET", "/store/abc/pay"))).toBe(false);
  });
});

describe("what the customer pays, said first", () => {
  it("formats amounts with their currency code exactly, never through a JS number", () => {
    expect(money("10.15", "AED")).toBe("AED\u00a010.15");
    expect(money("1500", "USD")).toBe("USD\u00a01,500.00");
    expect(money("1234567890.12", "EUR")).toBe("EUR\u00a01,234,567,890.12");
    // 17 significant digits: a JS number would round this.
    expect(money("9999999999999999.99", "AED")).toBe("AED\u00a09,999,999,999,999,999.99");
  });

  it("says how far the rate is from the reference rate, in percent, and its Dubai day", () => {
    expect(rateDifference("3.7462254375", "3.6725")).toBe("0.0201");
    expect(percent(rateDifference("3.7462254375", "3.6725"))).toBe("2.01%");
    expect(rateDifference("3.6541", "3.6725")).toBe("-0.005");
    expect(percent("-0.005")).toBe("0.50%");
    expect(rateDifference("3.6725", "3.6725")).toBe("0");
    expect(formatCalendarDay("2026-11-28")).toBe("28 November 2026");
    expect(formatCalendarDay("2027-01-01")).toBe("1 January 2027");
  });

  it("formats them in Arabic with Intl in ar-AE, Latin digits (docs/decisions/0210-customer-pages-in-arabic-and-english.md)", () => {
    expect(money("1500", "USD", "ar-AE")).toBe("\u200f1,500.00\u00a0USD");
    expect(percent("0.0201", "ar-AE")).toMatch(/^2\.01.?%.?$/);
    expect(formatCalendarDay("2026-11-28", "ar-AE")).toBe("28 نوفمبر 2026");
  });
});
