import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkAmount, groupedAmount, type AmountWords } from "@/components/checkout/amount";
import { fromMinor, readEnteredAmount } from "@/lib/contract/money/currency";
import en from "@/messages/en.json";

// The amount field (docs/guides/amount-entry-checkout.md "The amount field"): one reading for the page's script and
// its form without JavaScript.

const words: AmountWords = { ...en.customer.amount.refusals, range: "range" };
const check = (raw: string, currency?: string) => checkAmount(raw, { min: "0.01", max: "1000000.00", currency }, words);

/** Latin digits written in another script: Arabic-Indic (U+0660) or Eastern Arabic-Indic (U+06F0). */
const inScript = (text: string, zero: number) => text.replace(/\d/g, (d) => String.fromCharCode(zero + Number(d)));
/** "1234567.89" -> "1,234,567.89" (commas between groups of three). */
const withCommas = (text: string) => text.replace(/^\d+/, (whole) => whole.replace(/\B(?=(\d{3})+$)/g, ","));

describe("checkout page amount helpers", () => {
  it("groups thousands without touching the decimals", () => {
    expect(["0.01", "999.99", "1000.00", "1000000.00", "1234567890.12", "12"].map((a) => groupedAmount(a))).toEqual([
      "0.01",
      "999.99",
      "1,000.00",
      "1,000,000.00",
      "1,234,567,890.12",
      "12",
    ]);
  });

  it("accepts Arabic-Indic digits, grouping commas and the chosen currency's code, and explains anything else", () => {
    expect(check(" 150 ")).toEqual({ amount: "150" });
    expect(check("١٥٠")).toEqual({ amount: "150" });
    expect(check("۱۵۰")).toEqual({ amount: "150" });
    expect(check("1,500.00")).toEqual({ amount: "1500.00" });
    expect(check("١٬٥٠٠٫٥٠")).toEqual({ amount: "1500.50" });
    expect(check("AED 150", "AED")).toEqual({ amount: "150" });
    expect(check("150 aed", "AED")).toEqual({ amount: "150" });
    expect(check("\u200f1,500.00 USD", "USD")).toEqual({ amount: "1500.00" });
    expect(check("1000000.00")).toEqual({ amount: "1000000.00" });
    expect(check("")).toEqual({ message: "Enter an amount." });
    expect(check("USD 150", "AED")).toEqual({ message: en.customer.amount.refusals.currency });
    for (const ambiguous of ["150,5", "150,50", "1,50", "1,5000", "15,00.00"])
      expect(check(ambiguous), ambiguous).toEqual({ message: en.customer.amount.refusals.ambiguous });
    for (const bad of ["1.234", "-5", "1e3", "abc", "1 500", "XYZ 150"])
      expect(check(bad), bad).toHaveProperty("message", expect.stringContaining("at most 2 decimals"));
    for (const out of ["0", "0.00", "1000000.01"]) expect(check(out), out).toEqual({ message: "range" });
  });

  it("reads any amount the same however it is written (digits' script, grouping, code before or after)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 999_999_999_999n }),
        fc.constantFrom(0x30, 0x0660, 0x06f0),
        fc.boolean(),
        fc.constantFrom("", "AED ", " AED", "aed", "AED"),
        fc.constantFrom("", " ", "\u00a0"),
        (minor, zero, grouped, code, space) => {
          const amount = fromMinor(minor);
          let text = grouped ? withCommas(amount) : amount;
          text = inScript(text, zero);
          if (zero !== 0x30) text = text.replace(/\./, "\u066b").replace(/,/g, "\u066c");
          text = code.startsWith(" ") || code === "aed" ? `${space}${text}${code}` : `${code}${text}${space}`;
          expect(readEnteredAmount(text, "AED")).toEqual({ amount });
        },
      ),
    );
  });
});
