import { describe, expect, it } from "vitest";
import { checkAmount, groupedAmount } from "@/components/checkout/amount";

describe("checkout page amount helpers", () => {
  it("groups thousands without touching the decimals", () => {
    expect(["0.01", "999.99", "1000.00", "1000000.00", "1234567890.12", "12"].map(groupedAmount)).toEqual([
      "0.01",
      "999.99",
      "1,000.00",
      "1,000,000.00",
      "1,234,567,890.12",
      "12",
    ]);
  });

  it("accepts the API amount pattern (a decimal comma too) within the global limit and explains anything else", () => {
    const check = (raw: string) => checkAmount(raw, "0.01", "1000000.00");
    expect(check(" 150 ")).toEqual({ amount: "150" });
    expect(check("150,5")).toEqual({ amount: "150.5" });
    expect(check("1000000.00")).toEqual({ amount: "1000000.00" });
    expect(check("")).toEqual({ message: "Enter an amount." });
    for (const bad of ["1.234", "-5", "1e3", "abc", "1,000.00"])
      expect(check(bad), bad).toHaveProperty("message", expect.stringContaining("at most 2 decimals"));
    for (const out of ["0", "0.00", "1000000.01"]) expect(check(out), out).toEqual({ message: "Enter an amount between 0.01 and 1,000,000.00." });
  });
});
