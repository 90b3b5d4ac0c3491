// Store catalog matching (docs/api.md "Overview" items 4 and 6; Limits: order discount).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CatalogItem,
  type MatchResult,
  matchCatalog,
  matchPrepared,
  matchPreparedDetailed,
  NO_MATCH_ERROR,
  prepareCatalog,
  type PrepareOptions,
} from "./matching";
import { randomBigInt, seededRandom, syntheticCatalog } from "./catalog-synthetic";
import { assertPresent } from "../../../scripts/harness/present";

const product = (sku: string, price: number | bigint): CatalogItem => ({
  sku,
  name: `Product ${sku}`,
  kind: "PRODUCT",
  priceMinor: BigInt(price),
});
const pkg = (sku: string, price: number | bigint): CatalogItem => ({
  sku,
  name: `Package ${sku}`,
  kind: "PACKAGE",
  priceMinor: BigInt(price),
});

function ok(result: MatchResult) {
  if (!result.ok) throw new Error(`expected a match, got: ${result.error}`);
  return result;
}

function itemCount(result: MatchResult): number {
  return ok(result).lines.reduce((sum, line) => sum + line.quantity, 0);
}

/** Unit prices with repetition, highest first (the tie-break order). */
function priceList(result: MatchResult): number[] {
  const out: number[] = [];
  for (const line of ok(result).lines) for (let i = 0; i < line.quantity; i++) out.push(Number(line.unitPriceMinor));
  return out.sort((a, b) => b - a);
}

/** Invariants every successful match must satisfy, whatever the path. */
function expectValid(catalog: CatalogItem[], charge: bigint, result: MatchResult, maxDiscountBps = 2000) {
  const r = ok(result);
  expect(r.chargeMinor).toBe(charge);
  expect(r.subtotalMinor - r.discountMinor).toBe(charge);
  expect(r.subtotalMinor >= charge).toBe(true);
  expect(r.discountMinor >= 0n).toBe(true);
  expect(r.discountMinor * 10_000n <= r.subtotalMinor * BigInt(maxDiscountBps)).toBe(true);
  let sum = 0n;
  for (const line of r.lines) {
    const item = catalog.find((i) => i.sku === line.sku);
    expect(item).toBeDefined();
    expect(line.unitPriceMinor).toBe(item!.priceMinor); // prices are never raised
    expect(line.kind).toBe(item!.kind);
    expect(line.name).toBe(item!.name);
    expect(Number.isInteger(line.quantity) && line.quantity >= 1).toBe(true);
    if (r.matchType === "DISCOUNTED_BASKET") expect(item!.kind).toBe("PRODUCT"); // packages never in baskets
    sum += line.unitPriceMinor * BigInt(line.quantity);
  }
  expect(sum).toBe(r.subtotalMinor);
  // lines: highest unit price first, one line per sku
  for (let i = 1; i < r.lines.length; i++) expect(r.lines[i - 1]!.unitPriceMinor > r.lines[i]!.unitPriceMinor).toBe(true);
}

// ---------------------------------------------------------------------------------------------
// Oracles, independent of the implementation (plain arrays, no residue tables).

type Oracle = { kind: "EXACT_PRODUCT" | "EXACT_PACKAGE"; sku: string } | { kind: "BASKET"; total: number; count: number; prices: number[] } | { kind: "NONE" };

function lowestSku(items: CatalogItem[], price: number): string {
  return items
    .filter((i) => Number(i.priceMinor) === price)
    .map((i) => i.sku)
    .sort()[0]!;
}

/** Lexicographic comparison of price lists sorted highest first. */
function lexCompare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Brute force over every basket with total <= floor(C * 10000 / (10000 - bps)): for each total the
 * fewest-item basket with the lexicographically greatest price list, by dynamic programming over
 * explicit price lists (each candidate is re-sorted and compared in full).
 */
function bruteForce(catalog: CatalogItem[], charge: number, bps = 2000): Oracle {
  const products = catalog.filter((i) => i.kind === "PRODUCT");
  const exactProducts = products
    .filter((i) => Number(i.priceMinor) === charge)
    .map((i) => i.sku)
    .sort();
  if (exactProducts.length) return { kind: "EXACT_PRODUCT", sku: exactProducts[0]! };
  const exactPackages = catalog
    .filter((i) => i.kind === "PACKAGE" && Number(i.priceMinor) === charge)
    .map((i) => i.sku)
    .sort();
  if (exactPackages.length) return { kind: "EXACT_PACKAGE", sku: exactPackages[0]! };
  const prices = [...new Set(products.map((i) => Number(i.priceMinor)))];
  const tMax = Math.floor((charge * 10_000) / (10_000 - bps));
  const best: (number[] | null)[] = new Array(tMax + 1).fill(null);
  best[0] = [];
  for (let s = 1; s <= tMax; s++) {
    for (const p of prices) {
      if (p > s || best[s - p] === null) continue;
      const candidate = [...best[s - p]!, p].sort((a, b) => b - a);
      const cur = best[s];
      assertPresent(cur, "cur");
      if (cur === null || candidate.length < cur.length || (candidate.length === cur.length && lexCompare(candidate, cur) > 0)) {
        best[s] = candidate;
      }
    }
  }
  for (let t = charge; t <= tMax; t++) {
    if (best[t] && (t - charge) * 10_000 <= t * bps) return { kind: "BASKET", total: t, count: best[t]!.length, prices: best[t]! };
  }
  return { kind: "NONE" };
}

/** Literal enumeration of all multisets of distinct prices with total <= limit (tiny instances only). */
function enumerateBaskets(prices: number[], limit: number): number[][] {
  const out: number[][] = [];
  const sorted = [...new Set(prices)].sort((a, b) => b - a);
  const walk = (from: number, left: number, acc: number[]) => {
    out.push(acc);
    for (let i = from; i < sorted.length; i++) if (sorted[i]! <= left) walk(i, left - sorted[i]!, [...acc, sorted[i]!]);
  };
  walk(0, limit, []);
  return out;
}

function expectMatchesOracle(catalog: CatalogItem[], charge: number, result: MatchResult, oracle: Oracle) {
  if (oracle.kind === "NONE") {
    expect(result.ok).toBe(false);
    return;
  }
  const r = ok(result);
  if (oracle.kind === "BASKET") {
    expect(r.matchType).toBe("DISCOUNTED_BASKET");
    expect(Number(r.subtotalMinor)).toBe(oracle.total);
    expect(priceList(result)).toEqual(oracle.prices);
    for (const line of r.lines)
      expect(line.sku).toBe(
        lowestSku(
          catalog.filter((i) => i.kind === "PRODUCT"),
          Number(line.unitPriceMinor),
        ),
      );
  } else {
    expect(r.matchType).toBe(oracle.kind);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]!.sku).toBe(oracle.sku);
    expect(r.discountMinor).toBe(0n);
  }
}

/** Random catalogs of 1..6 products (and 0..2 packages) priced 1..maxPrice fils. */
const catalogOf = (maxPrice: number) =>
  fc
    .record({
      products: fc.array(fc.integer({ min: 1, max: maxPrice }), { minLength: 1, maxLength: 6 }),
      packages: fc.array(fc.integer({ min: 1, max: maxPrice }), { maxLength: 2 }),
    })
    .map(({ products, packages }) => [...products.map((p, i) => product(`P${String(i).padStart(2, "0")}`, p)), ...packages.map((p, i) => pkg(`K${i}`, p))]);

/** Catalog and charge: prices 1..500 with charges 1..5000, or prices 1..40 with charges 1..400 (denser structure). */
const caseArb = fc.oneof(fc.tuple(catalogOf(500), fc.integer({ min: 1, max: 5000 })), fc.tuple(catalogOf(40), fc.integer({ min: 1, max: 400 })));

// ---------------------------------------------------------------------------------------------

describe("matchCatalog: match types (docs/api.md 'Overview' 6)", () => {
  const catalog = [product("SKU-B", 1000), product("SKU-A", 1000), product("SKU-C", 2500), pkg("PKG-B", 3000), pkg("PKG-A", 3000), pkg("PKG-X", 2500)];

  it("an exact-amount product wins, lowest sku first, before a package of the same price", () => {
    const r = ok(matchCatalog(catalog, 1000n));
    expect(r.matchType).toBe("EXACT_PRODUCT");
    expect(r.lines).toEqual([{ sku: "SKU-A", name: "Product SKU-A", kind: "PRODUCT", unitPriceMinor: 1000n, quantity: 1 }]);
    expect(r.subtotalMinor).toBe(1000n);
    expect(r.discountMinor).toBe(0n);
    expect(ok(matchCatalog(catalog, 2500n)).lines[0]!.sku).toBe("SKU-C");
  });

  it("an exact-amount package comes next, lowest sku first", () => {
    const r = ok(matchCatalog(catalog, 3000n));
    expect(r.matchType).toBe("EXACT_PACKAGE");
    expect(r.lines).toEqual([{ sku: "PKG-A", name: "Package PKG-A", kind: "PACKAGE", unitPriceMinor: 3000n, quantity: 1 }]);
    expect(r.discountMinor).toBe(0n);
  });

  it("a product basket is used otherwise, with the smallest discount", () => {
    // 3100: 2500 + 1000 = 3500 (D 400) beats 4 x 1000 = 4000 (D 900); packages are not used.
    const r = ok(matchCatalog(catalog, 3100n));
    expect(r.matchType).toBe("DISCOUNTED_BASKET");
    expect(r.subtotalMinor).toBe(3500n);
    expect(r.discountMinor).toBe(400n);
    expect(r.lines.map((l) => [l.sku, l.quantity])).toEqual([
      ["SKU-C", 1],
      ["SKU-A", 1],
    ]);
  });

  it("a basket can have no discount when products add up exactly", () => {
    const r = ok(matchCatalog(catalog, 4500n)); // 2500 + 2 x 1000
    expect(r.matchType).toBe("DISCOUNTED_BASKET");
    expect(r.discountMinor).toBe(0n);
    expect(r.lines.map((l) => [l.sku, l.quantity])).toEqual([
      ["SKU-C", 1],
      ["SKU-A", 2],
    ]);
  });

  it("a single product with a discount is a basket", () => {
    const r = ok(matchCatalog([product("X", 1000)], 900n));
    expect(r.matchType).toBe("DISCOUNTED_BASKET");
    expect(r.lines).toEqual([{ sku: "X", name: "Product X", kind: "PRODUCT", unitPriceMinor: 1000n, quantity: 1 }]);
    expect(r.discountMinor).toBe(100n);
  });

  it("fewest items break a tie of equal discount, then the highest prices first", () => {
    // 600 = 6 x 100 = 3 x 200 = 2 x 300 = 300 + 200 + 100: fewest is 2 x 300.
    expect(priceList(matchCatalog([product("a", 100), product("b", 200), product("c", 300)], 600n))).toEqual([300, 300]);
    // 700 with {100, 300, 400}: 400 + 300 (2 items) beats 300 + 300 + 100 and 4 x 100 + 300.
    expect(priceList(matchCatalog([product("a", 100), product("c", 300), product("d", 400)], 700n))).toEqual([400, 300]);
    // 1000 with {200, 500, 600}: the greedy 600 + 200 + 200 has 3 items; 500 + 500 has 2.
    expect(priceList(matchCatalog([product("a", 200), product("b", 500), product("c", 600)], 1000n))).toEqual([500, 500]);
    const forced = prepareCatalog([product("a", 200), product("b", 500), product("c", 600)], { dpTableWork: 0 });
    expect(priceList(matchPrepared(forced, 1000n))).toEqual([500, 500]);
    // 1200 with {200, 300, 400, 500}: 3-item baskets 500+500+200, 500+400+300, 400+400+400;
    // the highest prices first picks 500+500+200.
    expect(priceList(matchCatalog([product("a", 200), product("b", 300), product("c", 400), product("d", 500)], 1200n))).toEqual([500, 500, 200]);
  });

  it("is deterministic: catalog order does not matter", () => {
    const items = syntheticCatalog({ products: 60, packages: 5, seed: 3, maxMinor: 50_000n });
    const shuffled = [...items].reverse();
    for (const c of [1_234n, 99_999n, 250_001n, 1_000_000n]) {
      expect(matchCatalog(shuffled, c)).toEqual(matchCatalog(items, c));
    }
  });
});

describe("matchCatalog: the 20 percent bound (docs/api.md 'Overview' 6, Limits)", () => {
  it("accepts a discount of exactly 20 percent of the list total and rejects one fil more", () => {
    const catalog = [product("A", 500)];
    const edge = ok(matchCatalog(catalog, 400n)); // D = 100 = 20% of 500
    expect(edge.subtotalMinor).toBe(500n);
    expect(edge.discountMinor).toBe(100n);
    expect(matchCatalog(catalog, 399n)).toEqual({ ok: false, error: NO_MATCH_ERROR }); // D = 101 > 100
  });

  it("applies the bound to baskets at the exact edge too", () => {
    // Totals of {600, 1000}: 600, 1000, 1200, 1600, ... C = 1280 -> T = 1600 = 600 + 1000, D = 320 = 20%.
    const catalog = [product("A", 600), product("B", 1000)];
    const r = ok(matchCatalog(catalog, 1280n));
    expect(r.matchType).toBe("DISCOUNTED_BASKET");
    expect(r.subtotalMinor).toBe(1600n);
    expect(r.discountMinor).toBe(320n);
    expect(matchCatalog(catalog, 1279n)).toEqual({ ok: false, error: NO_MATCH_ERROR }); // D = 321 > 320
    expect(ok(matchCatalog([product("A", 1250)], 1000n)).discountMinor).toBe(250n);
    expect(matchCatalog([product("A", 1250)], 999n).ok).toBe(false);
    expect(ok(matchCatalog([product("A", 4_000_000)], 3_200_000n)).discountMinor).toBe(800_000n);
    expect(matchCatalog([product("A", 4_000_000)], 3_199_999n).ok).toBe(false);
  });

  it("takes the bound from maxDiscountBps", () => {
    const catalog = [product("A", 500)];
    expect(ok(matchCatalog(catalog, 450n, { maxDiscountBps: 1000 })).discountMinor).toBe(50n);
    expect(matchCatalog(catalog, 449n, { maxDiscountBps: 1000 })).toEqual({
      ok: false,
      error: "no product or basket within a 10% discount",
    });
    expect(matchCatalog(catalog, 499n, { maxDiscountBps: 0 }).ok).toBe(false);
    expect(ok(matchCatalog(catalog, 1000n, { maxDiscountBps: 0 })).discountMinor).toBe(0n);
    expect(() => matchCatalog(catalog, 450n, { maxDiscountBps: 9001 })).toThrow(RangeError);
    expect(() => matchCatalog(catalog, 450n, { maxDiscountBps: 12.5 })).toThrow(RangeError);
  });
});

describe("matchCatalog: rejections and input errors", () => {
  const catalog = [product("A", 500), pkg("P", 700)];

  it("rejects a zero, negative or oversized charge", () => {
    expect(matchCatalog(catalog, 0n).ok).toBe(false);
    expect(matchCatalog(catalog, -500n).ok).toBe(false);
    expect(matchCatalog(catalog, 1_000_000_000_000n).ok).toBe(false);
  });

  it("rejects an empty catalog", () => {
    expect(matchCatalog([], 500n)).toEqual({ ok: false, error: "catalog is empty" });
  });

  it("uses packages only as exact matches", () => {
    const onlyPackages = [pkg("P", 700)];
    expect(ok(matchCatalog(onlyPackages, 700n)).matchType).toBe("EXACT_PACKAGE");
    expect(matchCatalog(onlyPackages, 600n)).toEqual({ ok: false, error: NO_MATCH_ERROR });
  });

  it("fails when nothing fits within the bound", () => {
    expect(matchCatalog([product("A", 1000)], 100n)).toEqual({ ok: false, error: NO_MATCH_ERROR });
    expect(matchCatalog([product("A", 1000), product("B", 1500)], 700n)).toEqual({ ok: false, error: NO_MATCH_ERROR }); // 1000 is 30% off
    expect(ok(matchCatalog([product("A", 1000), product("B", 1500)], 700n, { maxDiscountBps: 3000 })).subtotalMinor).toBe(1000n);
    expect(ok(matchCatalog([product("A", 1000), product("B", 1500)], 1900n)).subtotalMinor).toBe(2000n); // 5% off
    expect(matchCatalog([product("A", 1000), product("B", 1500)], 1900n, { maxDiscountBps: 500 }).ok).toBe(true); // exactly 5%
    expect(matchCatalog([product("A", 1000), product("B", 1500)], 1899n, { maxDiscountBps: 500 }).ok).toBe(false);
  });

  it("a catalog the index cannot hold is prepared without throwing: exact matches only, any other charge refused with the reason", () => {
    // Cheapest product AED 50,000.01 at a 1-fil price step (gcd of 5,000,001 and 5,000,003 is 1).
    const catalog = [product("A", 5_000_001), product("B", 5_000_003), pkg("P", 7_000_000)];
    const index = prepareCatalog(catalog);
    expect(index.stats.unsupported).toBe(
      "catalog not supported for discounted baskets: the cheapest product costs AED 50000.01, above the AED 50000.00 supported for prices in steps of AED 0.01",
    );
    expect(index.stats.priceStepMinor).toBeNull();
    expect(ok(matchPrepared(index, 5_000_003n))).toMatchObject({ matchType: "EXACT_PRODUCT", discountMinor: 0n });
    expect(ok(matchPrepared(index, 7_000_000n))).toMatchObject({ matchType: "EXACT_PACKAGE", discountMinor: 0n });
    // A basket would be needed: refused with the reason, never thrown (the checkout is REJECTED at once).
    expect(matchPrepared(index, 9_000_000n)).toEqual({ ok: false, error: index.stats.unsupported });
    expect(matchCatalog(catalog, 10_000_004n)).toEqual({ ok: false, error: index.stats.unsupported });
    // Below 80 percent of the cheapest product nothing could fit in any catalog: the ordinary answer.
    expect(matchPrepared(index, 4_000_000n)).toEqual({ ok: false, error: NO_MATCH_ERROR });
    expect(prepareCatalog([product("A", 5_000_000), product("B", 5_000_001)]).stats.unsupported).toBeNull();
  });

  it("indexes in the catalog's price step: a catalog of whole dirhams from AED 60,000 up matches like any other", () => {
    const catalog = [product("A", 6_000_000), product("B", 6_000_100), product("C", 7_500_000)];
    const index = prepareCatalog(catalog);
    expect(index.stats).toMatchObject({ unsupported: null, priceStepMinor: 100n });
    const twoA = ok(matchPrepared(index, 10_000_000n)); // AED 100,000.00 -> 2 x AED 60,000.00, 16.7 % off
    expectValid(catalog, 10_000_000n, twoA);
    expect(twoA).toMatchObject({ matchType: "DISCOUNTED_BASKET", subtotalMinor: 12_000_000n, discountMinor: 2_000_000n });
    const oddCharge = ok(matchPrepared(index, 12_000_050n)); // not a multiple of the step: A + B, 0.50 off
    expectValid(catalog, 12_000_050n, oddCharge);
    expect(oddCharge.lines.map((l) => [l.sku, l.quantity])).toEqual([
      ["B", 1],
      ["A", 1],
    ]);
    expect(oddCharge.discountMinor).toBe(50n);
    expect(matchPrepared(index, 4_000_000n)).toEqual({ ok: false, error: NO_MATCH_ERROR });
  });

  it("price steps above one fil give exactly the brute-force answer, for charges on and off the step (property)", () => {
    const arb = fc
      .constantFrom(2, 3, 5, 100)
      .chain((step) =>
        fc.tuple(fc.constant(step), fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 60 * step })),
      );
    fc.assert(
      fc.property(arb, ([step, multiples, charge]) => {
        const catalog = multiples.map((k, i) => product(`P${i}`, k * step));
        const detailed = matchPreparedDetailed(prepareCatalog(catalog), BigInt(charge));
        if (detailed.result.ok) expectValid(catalog, BigInt(charge), detailed.result);
        expectMatchesOracle(catalog, charge, detailed.result, bruteForce(catalog, charge));
        expect(detailed.exact).toBe(true);
      }),
      { numRuns: 300, seed: 6060 },
    );
  });

  it("throws for malformed catalog items", () => {
    expect(() => matchCatalog([product("A", 1), product("A", 2)], 1n)).toThrow(TypeError);
    expect(() => matchCatalog([product("A", 0)], 1n)).toThrow(RangeError);
    expect(() => matchCatalog([product("A", -5)], 1n)).toThrow(RangeError);
    expect(() => matchCatalog([{ ...product("A", 1), priceMinor: 5 as unknown as bigint }], 1n)).toThrow(TypeError);
    expect(() => matchCatalog([{ ...product("A", 1), kind: "SERVICE" as "PRODUCT" }], 1n)).toThrow(TypeError);
    expect(() => matchCatalog([product("", 1)], 1n)).toThrow(TypeError);
    expect(() => matchCatalog(catalog, 5 as unknown as bigint)).toThrow(TypeError);
  });
});

describe("matchCatalog: optimality against brute force (property)", () => {
  it("tiny catalogs: literal enumeration of every basket agrees with the brute-force oracle", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 20, max: 500 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 480 }), (prices, charge) => {
        const catalog = prices.map((p, i) => product(`P${i}`, p));
        const limit = Math.floor((charge * 5) / 4);
        const baskets = enumerateBaskets(prices, limit)
          .filter((b) => b.length > 0)
          .map((b) => ({ b, t: b.reduce((s, x) => s + x, 0) }))
          .filter(({ t }) => t >= charge && 5 * (t - charge) <= t);
        baskets.sort((x, y) => x.t - y.t || x.b.length - y.b.length || lexCompare(y.b, x.b));
        const result = matchCatalog(catalog, BigInt(charge));
        if (prices.includes(charge)) {
          expect(ok(result).matchType).toBe("EXACT_PRODUCT");
        } else if (baskets.length === 0) {
          expect(result.ok).toBe(false);
        } else {
          expect(Number(ok(result).subtotalMinor)).toBe(baskets[0]!.t);
          expect(priceList(result)).toEqual(baskets[0]!.b);
        }
        const oracle = bruteForce(catalog, charge);
        expectMatchesOracle(catalog, charge, result, oracle);
      }),
      { numRuns: 300, seed: 20260101 },
    );
  });

  it("default path: smallest discount, then fewest items, then highest prices, exactly as brute force", () => {
    fc.assert(
      fc.property(caseArb, ([catalog, charge]) => {
        const detailed = matchPreparedDetailed(prepareCatalog(catalog), BigInt(charge));
        const oracle = bruteForce(catalog, charge);
        if (detailed.result.ok) expectValid(catalog, BigInt(charge), detailed.result);
        expectMatchesOracle(catalog, charge, detailed.result, oracle);
        expect(detailed.exact).toBe(true);
      }),
      { numRuns: 600, seed: 4242 },
    );
  });

  it("with other discount bounds too", () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 0, max: 5000 }), ([catalog, charge], bps) => {
        const result = matchCatalog(catalog, BigInt(charge), { maxDiscountBps: bps });
        if (result.ok) expectValid(catalog, BigInt(charge), result, bps);
        expectMatchesOracle(catalog, charge, result, bruteForce(catalog, charge, bps));
      }),
      { numRuns: 200, seed: 77 },
    );
  });

  // The count-level search (used beyond the exact table) forced on small instances: the discount is
  // always minimal; the item count and the tie-break are what `fewestItemsProven` / `exact` claim.
  const searchConfigs: [string, PrepareOptions][] = [
    ["levels and guided search", { dpTableWork: 0 }],
    ["levels without guided search", { dpTableWork: 0, guidedBudget: 0 }],
    ["levels with a tiny scan budget", { dpTableWork: 0, scanBudget: 40, maxExtraLevels: 2 }],
  ];
  for (const [name, options] of searchConfigs) {
    it(`search path (${name}): minimal discount always; count and tie-break exactly as claimed`, () => {
      const tally = { baskets: 0, proven: 0, exact: 0, unproven: 0 };
      fc.assert(
        fc.property(caseArb, ([catalog, charge]) => {
          const detailed = matchPreparedDetailed(prepareCatalog(catalog, options), BigInt(charge));
          const oracle = bruteForce(catalog, charge);
          if (oracle.kind !== "BASKET") {
            expectMatchesOracle(catalog, charge, detailed.result, oracle);
            return;
          }
          expectValid(catalog, BigInt(charge), detailed.result);
          tally.baskets++;
          expect(Number(ok(detailed.result).subtotalMinor)).toBe(oracle.total);
          expect(itemCount(detailed.result)).toBeGreaterThanOrEqual(oracle.count);
          expect(itemCount(detailed.result)).toBeGreaterThanOrEqual(detailed.lowerBoundItems!);
          expect(detailed.lowerBoundItems!).toBeLessThanOrEqual(oracle.count);
          if (detailed.fewestItemsProven) {
            tally.proven++;
            expect(itemCount(detailed.result)).toBe(oracle.count);
          } else tally.unproven++;
          if (detailed.exact) {
            tally.exact++;
            expect(detailed.fewestItemsProven).toBe(true);
            expectMatchesOracle(catalog, charge, detailed.result, oracle);
          }
        }),
        { numRuns: 600, seed: 99 },
      );
      // The search path really ran, and proofs happened both ways.
      expect(tally.baskets).toBeGreaterThan(200);
      expect(tally.exact).toBeGreaterThan(50);
      expect(tally.unproven).toBeGreaterThan(0);
    });
  }
});

/** Least reachable total >= c by Dijkstra with a binary heap over residues mod the cheapest price (test oracle). */
function smallestTotalOracle(prices: number[]): (c: number) => number {
  const m = Math.min(...prices);
  const dist = new Array<number>(m).fill(Infinity);
  dist[0] = 0;
  const heap: [number, number][] = [[0, 0]];
  const push = (e: [number, number]) => {
    heap.push(e);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]![0] <= heap[i]![0]) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  };
  const pop = (): [number, number] => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let s = i;
        if (l < heap.length && heap[l]![0] < heap[s]![0]) s = l;
        if (r < heap.length && heap[r]![0] < heap[s]![0]) s = r;
        if (s === i) break;
        [heap[s], heap[i]] = [heap[i]!, heap[s]!];
        i = s;
      }
    }
    return top;
  };
  while (heap.length) {
    const [d, r] = pop();
    if (d > dist[r]!) continue;
    for (const p of prices) {
      const nr = (r + p) % m;
      if (d + p < dist[nr]!) {
        dist[nr] = d + p;
        push([d + p, nr]);
      }
    }
  }
  return (c) => {
    let best = Infinity;
    for (let r = 0; r < m; r++) {
      const d = dist[r]!;
      if (d === Infinity) continue;
      best = Math.min(best, d >= c ? d : d + Math.ceil((c - d) / m) * m);
    }
    return best;
  };
}

/** Exact minimum item count for each total 0..limit (test oracle; unbounded coin change). */
function minCounts(prices: number[], limit: number): Int32Array {
  const f = new Int32Array(limit + 1).fill(1 << 30);
  f[0] = 0;
  for (let s = 1; s <= limit; s++) for (const p of prices) if (p <= s && f[s - p]! + 1 < f[s]!) f[s] = f[s - p]! + 1;
  return f;
}

describe("matchPrepared at scale", () => {
  it("mid-size catalogs: discount minimal (Dijkstra oracle) and proven counts minimal (DP oracle)", () => {
    const random = seededRandom(11);
    let proven = 0;
    for (let round = 0; round < 6; round++) {
      const catalog = syntheticCatalog({ products: 25, seed: 100 + round, maxMinor: 60_000n });
      const prices = catalog.map((i) => Number(i.priceMinor));
      const f = minCounts(prices, 300_000);
      const smallestTotal = smallestTotalOracle(prices);
      for (const options of [{}, { dpTableWork: 0 }] as PrepareOptions[]) {
        const index = prepareCatalog(catalog, options);
        for (let i = 0; i < 40; i++) {
          const charge = randomBigInt(random, 500n, 240_000n);
          const d = matchPreparedDetailed(index, charge);
          const total = smallestTotal(Number(charge));
          if (5 * (total - Number(charge)) > total) {
            expect(d.result.ok).toBe(false);
            continue;
          }
          expectValid(catalog, charge, d.result);
          const r = ok(d.result);
          expect(Number(r.subtotalMinor)).toBe(r.matchType === "DISCOUNTED_BASKET" ? total : Number(charge));
          if (r.matchType === "DISCOUNTED_BASKET") {
            expect(itemCount(d.result)).toBeGreaterThanOrEqual(f[total]!);
            if (d.fewestItemsProven) {
              proven++;
              expect(itemCount(d.result)).toBe(f[total]!);
            }
          }
        }
      }
    }
    expect(proven).toBeGreaterThan(100);
  });

  it("10,000 products, charges up to AED 1,000,000: valid baskets with the minimal discount (Dijkstra oracle)", () => {
    const catalog = syntheticCatalog({ products: 10_000, packages: 20, seed: 42 });
    const index = prepareCatalog(catalog);
    const prices = [...new Set(catalog.filter((i) => i.kind === "PRODUCT").map((i) => Number(i.priceMinor)))];
    const smallestTotal = smallestTotalOracle(prices);
    const random = seededRandom(5);
    for (let i = 0; i < 150; i++) {
      const charge = randomBigInt(random, 100n, 100_000_000n);
      const d = matchPreparedDetailed(index, charge);
      expectValid(catalog, charge, d.result);
      const r = ok(d.result);
      if (r.matchType === "DISCOUNTED_BASKET") expect(Number(r.subtotalMinor)).toBe(smallestTotal(Number(charge)));
      expect(itemCount(d.result)).toBeGreaterThanOrEqual(d.lowerBoundItems ?? 1);
    }
  });

  it("matchPrepared and matchCatalog agree", () => {
    const catalog = syntheticCatalog({ products: 300, packages: 10, seed: 8 });
    const index = prepareCatalog(catalog);
    for (const c of [450n, 1_000n, 77_777n, 2_500_000n, 12_345_678n, 99_999_999n]) {
      expect(matchPrepared(index, c)).toEqual(matchCatalog(catalog, c));
    }
  });
});
