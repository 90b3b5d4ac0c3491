import { describe, expect, it } from "vitest";
import type { HandoffAnswer } from "@/lib/simulators/test-store/connector";
import { handoffRetryDelayMs, readyAnswerProblem } from "@/lib/simulators/store/handoff";

type Ready = Extract<HandoffAnswer, { outcome: "READY" }>;
const ready = (over: Partial<Ready> = {}): Ready => ({
  outcome: "READY",
  token: "A".repeat(43),
  matchType: "DISCOUNTED_BASKET",
  lines: [
    { sku: "ELC-044", name: "Cable", kind: "PRODUCT", unitPriceMinor: 799n, quantity: 1 },
    { sku: "BTY-001", name: "Lip Balm", kind: "PRODUCT", unitPriceMinor: 450n, quantity: 1 },
  ],
  subtotalMinor: 1249n,
  discountMinor: 15n,
  ...over,
});

describe("checks of the store's READY answer before it is written", () => {
  it("accepts subtotal = sum of lines and subtotal - discount = charge, discount within 20%", () => {
    expect(readyAnswerProblem(ready(), 1234n)).toBeNull();
    expect(
      readyAnswerProblem(
        ready({ lines: [{ sku: "X", name: "X", kind: "PRODUCT", unitPriceMinor: 1000n, quantity: 1 }], subtotalMinor: 1000n, discountMinor: 200n }),
        800n,
      ),
    ).toBeNull();
    expect(
      readyAnswerProblem(
        ready({
          matchType: "EXACT_PACKAGE",
          lines: [{ sku: "P", name: "P", kind: "PACKAGE", unitPriceMinor: 1234n, quantity: 1 }],
          subtotalMinor: 1234n,
          discountMinor: 0n,
        }),
        1234n,
      ),
    ).toBeNull();
  });

  it("refuses an answer that does not add up, exceeds 20%, or has a bad token or line", () => {
    expect(readyAnswerProblem(ready(), 1235n)).toBe("subtotal - discount is not the locked charge");
    expect(readyAnswerProblem(ready({ subtotalMinor: 1250n, discountMinor: 16n }), 1234n)).toBe("subtotal is not the sum of the lines");
    expect(
      readyAnswerProblem(
        ready({ lines: [{ sku: "X", name: "X", kind: "PRODUCT", unitPriceMinor: 1000n, quantity: 1 }], subtotalMinor: 1000n, discountMinor: 201n }),
        799n,
      ),
    ).toBe("discount outside 0..20% of the subtotal");
    expect(readyAnswerProblem(ready({ subtotalMinor: 1249n, discountMinor: -1n }), 1250n)).toBe("discount outside 0..20% of the subtotal");
    expect(readyAnswerProblem(ready({ matchType: "EXACT_PRODUCT" }), 1234n)).toBe("an exact match carries a discount");
    expect(readyAnswerProblem(ready({ token: "short" }), 1234n)).toBe("token is not 32 random bytes in base64url");
    expect(readyAnswerProblem(ready({ lines: [], subtotalMinor: 0n, discountMinor: 0n }), 0n)).toBe("no lines");
    expect(readyAnswerProblem(ready({ lines: [{ sku: "X", name: "X", kind: "PRODUCT", unitPriceMinor: 1249n, quantity: 0 }] }), 1234n)).toBe(
      "line X: quantity or price out of range",
    );
    expect(readyAnswerProblem(ready({ lines: [{ sku: "X", name: "X", kind: "PRODUCT", unitPriceMinor: 1249n, quantity: 1.5 }] }), 1234n)).toBe(
      "line X: quantity or price out of range",
    );
  });

  it("retries back off 1 s, 2 s, 4 s, ... up to 60 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(handoffRetryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  });
});
