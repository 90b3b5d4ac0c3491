import { describe, expect, it } from "vitest";
import { formattingLocale, htmlLanguage, LOCALE_HEADER, localeOfRequest, negotiateLocale } from "@/lib/platform/locale";
import { formatCustomerTime } from "@/lib/platform/time-format";

// How a customer page's language is chosen (docs/guides/amount-entry-checkout.md "Languages").

describe("the customer pages' language", () => {
  it("follows Accept-Language: Arabic when asked before English, English otherwise", () => {
    expect(negotiateLocale({ acceptLanguage: "ar-AE,en;q=0.5" })).toBe("ar");
    expect(negotiateLocale({ acceptLanguage: "ar" })).toBe("ar");
    expect(negotiateLocale({ acceptLanguage: "fr-FR,ar;q=0.8,en;q=0.5" })).toBe("ar");
    expect(negotiateLocale({ acceptLanguage: "de,en;q=0.9,ar;q=0.8" })).toBe("en");
    expect(negotiateLocale({ acceptLanguage: "fr" })).toBe("en");
    expect(negotiateLocale({ acceptLanguage: "en-GB" })).toBe("en");
    for (const none of ["", "*", "!!,??", null, undefined]) expect(negotiateLocale({ acceptLanguage: none }), String(none)).toBe("en");
  });

  it("keeps the customer's choice over Accept-Language; a cookie naming no language of ours is ignored", () => {
    expect(negotiateLocale({ cookie: "en", acceptLanguage: "ar-AE,en;q=0.5" })).toBe("en");
    expect(negotiateLocale({ cookie: "ar", acceptLanguage: "fr" })).toBe("ar");
    expect(negotiateLocale({ cookie: "fr", acceptLanguage: "ar" })).toBe("ar");
  });

  it("gives Arabic right to left and formats it in ar-AE; a request without the header is English", () => {
    expect(htmlLanguage("ar")).toEqual({ lang: "ar", dir: "rtl" });
    expect(htmlLanguage("en")).toEqual({ lang: "en", dir: "ltr" });
    expect(formattingLocale("ar")).toBe("ar-AE");
    expect(localeOfRequest(new Headers({ [LOCALE_HEADER]: "ar" }))).toBe("ar");
    expect(localeOfRequest(new Headers({ [LOCALE_HEADER]: "xx" }))).toBe("en");
    expect(localeOfRequest(new Headers())).toBe("en");
  });

  it("names the zone of a customer's time in Arabic too", () => {
    const text = formatCustomerTime("2026-11-26T20:09:00Z", "UTC", "ar-AE");
    expect(text).toContain("20:09");
    expect(text).toContain("نوفمبر");
    expect(text).toContain("التوقيت العالمي المنسق");
  });
});

describe("the message files", () => {
  it("give every word in both languages", async () => {
    const keys = (o: object, at = ""): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === "object" && v !== null ? keys(v as object, `${at}${k}.`) : [`${at}${k}`]));
    const [en, ar] = await Promise.all([import("@/messages/en.json"), import("@/messages/ar.json")]);
    expect(keys(ar.default).sort()).toEqual(keys(en.default).sort());
  });
});
