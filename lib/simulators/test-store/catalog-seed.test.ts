// Seed catalog of the sandbox store (docs/api.md "Overview" items 4 and 6).
import { describe, expect, it } from "vitest";
import { SEED_CATALOG } from "./catalog-seed";
import { matchPreparedDetailed, prepareCatalog } from "./matching";
import { randomBigInt, seededRandom } from "./catalog-synthetic";

describe("SEED_CATALOG", () => {
  it("has at least 200 items with unique skus, names and positive prices in range", () => {
    expect(SEED_CATALOG.length).toBeGreaterThanOrEqual(200);
    expect(new Set(SEED_CATALOG.map((i) => i.sku)).size).toBe(SEED_CATALOG.length);
    for (const item of SEED_CATALOG) {
      expect(typeof item.priceMinor).toBe("bigint");
      expect(item.priceMinor >= 450n && item.priceMinor <= 2_500_000n).toBe(true); // AED 4.50 .. 25,000.00
      expect(item.name.trim().length).toBeGreaterThan(0);
      expect(item.sku).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/);
    }
  });

  it("has products and about twenty packages, with the usual price endings", () => {
    const packages = SEED_CATALOG.filter((i) => i.kind === "PACKAGE");
    expect(packages.length).toBeGreaterThanOrEqual(15);
    expect(SEED_CATALOG.length - packages.length).toBeGreaterThanOrEqual(200);
    const endings = new Set(SEED_CATALOG.map((i) => i.priceMinor % 100n));
    for (const e of [0n, 50n, 95n, 99n]) expect(endings.has(e)).toBe(true);
    expect(SEED_CATALOG.some((i) => i.priceMinor === 450n)).toBe(true);
    expect(SEED_CATALOG.some((i) => i.priceMinor >= 2_000_000n)).toBe(true);
  });

  it("matches every charge from AED 10.00 to AED 300.00 to the fil, with proven fewest items", () => {
    const index = prepareCatalog(SEED_CATALOG);
    for (let c = 1_000n; c <= 30_000n; c++) {
      const d = matchPreparedDetailed(index, c);
      expect(d.result.ok).toBe(true);
      expect(d.exact).toBe(true);
    }
  });

  it("reaches every total above AED 68.51 exactly, so with the sweep above every charge >= AED 10.00 matches", () => {
    const prices = [...new Set(SEED_CATALOG.filter((i) => i.kind === "PRODUCT").map((i) => Number(i.priceMinor)))];
    const limit = 40_000;
    const reachable = new Uint8Array(limit + 1);
    reachable[0] = 1;
    for (let s = 1; s <= limit; s++) for (const p of prices) if (p <= s && reachable[s - p]) reachable[s] = 1;
    let lastUnreachable = -1;
    for (let s = 0; s <= limit; s++) if (!reachable[s]) lastUnreachable = s;
    expect(lastUnreachable).toBe(6_851);
    // A run of `cheapest price` consecutive reachable totals makes every larger total reachable.
    expect(limit - lastUnreachable).toBeGreaterThanOrEqual(Math.min(...prices));
  });

  it("matches random charges from AED 10.00 to AED 1,000,000.00", { timeout: 60_000 }, () => {
    const index = prepareCatalog(SEED_CATALOG);
    const random = seededRandom(2026);
    for (const [lo, hi, n] of [
      [1_000n, 2_500_000n, 600],
      [2_500_000n, 100_000_000n, 300],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const c = randomBigInt(random, lo, hi);
        const { result } = matchPreparedDetailed(index, c);
        expect(result.ok).toBe(true);
        if (result.ok) {
          expect(result.subtotalMinor - result.discountMinor).toBe(c);
          expect(result.discountMinor * 5n <= result.subtotalMinor).toBe(true);
        }
      }
    }
  });
});
