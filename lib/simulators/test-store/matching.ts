/**
 * Store catalog matching: turns a locked AED charge into a store basket.
 *
 * docs/api.md "Overview" 4 (the store reports subtotal minus discount equal to the
 * locked charge amount), item 6 (matching rule: exact product or package first, otherwise real
 * catalog products with one order discount of at most 20 percent of the list total; prices are
 * never raised; nothing fits -> the checkout fails), the "checkout object" (subtotal, discount,
 * matchType, error) and the Limits table ("Store checkout order discount: at most 20 percent of
 * the product list total"; "Store charge currency: AED only").
 *
 * Pure and database-free. Money is `bigint` minor units of AED (fils, 1 AED = 100 fils) at every
 * boundary of this module. Inside the search, amounts are exact integers held in `number` typed
 * arrays and used as bitset positions, counted in price steps: the greatest common divisor g of the
 * product prices (1 fil in general, 100 fils for a catalog priced in whole dirhams). Every reachable
 * total is a multiple of g, so the least reachable total >= C is g times the least reachable step
 * count >= ceil(C / g), and item counts and the tie-break are the same in steps as in fils. Every
 * amount is at most 999,999,999,999 fils * 10, far below 2^53, no fractional value is ever formed
 * (integer division is corrected to be exact), and the returned basket is recomputed and checked in
 * `bigint` before it is returned.
 *
 * THE RULE, in order:
 *  1. EXACT_PRODUCT: a product whose price equals the charge C (lowest sku if several).
 *  2. EXACT_PACKAGE: a package whose price equals C (lowest sku if several).
 *  3. DISCOUNTED_BASKET: a multiset of products (packages are never used in baskets; a product may
 *     have any quantity >= 1) whose list total T is the smallest reachable total with T >= C; the
 *     order discount is D = T - C and must satisfy D * 10000 <= T * maxDiscountBps (default 2000:
 *     5 * D <= T, exact integers, no rounding leniency). Among baskets of that total: the fewest
 *     items (sum of quantities). Among those (tie-break): the basket whose unit prices, listed from
 *     highest to lowest with repetition, are lexicographically greatest (most expensive products
 *     first); each price is represented by the product with the lowest sku at that price (sku
 *     order = JavaScript string order).
 *  4. Otherwise `{ ok: false, error }`.
 *
 * UNSUPPORTED CATALOGS: the residue table needs the cheapest product price, in price steps, to be at
 * most 5,000,000 (AED 50,000.00 at a 1-fil step, AED 5,000,000.00 at a whole-dirham step) and a
 * bounded amount of work (see `prepareCatalog`). A catalog beyond those limits is still prepared:
 * exact products and packages match as usual, and every other charge is refused with
 * `{ ok: false, error }` naming the limit (`stats.unsupported`), so the checkout is REJECTED at once
 * instead of failing the same way on every retry (docs/api.md "Overview" 6: nothing fits -> the checkout fails).
 *
 * GUARANTEES (per match; the flags are reported by `matchPreparedDetailed`):
 *  - The discount is always minimal: T is the least reachable total >= C, exactly (shortest paths
 *    over residues modulo the cheapest price). Unconditional; checked against brute force in tests.
 *  - `fewestItemsProven`: the item count is the minimum over all baskets of total T.
 *    `exact`: in addition the basket is the tie-break's unique answer. `fewestItemsProven` holds
 *    whenever (a), (b) or (c) below; `exact` holds in (a) and (b), and in (c) except as noted:
 *    (a) T <= dpLimit: exact minimum-item table (PrepareOptions; about AED 4,500 for the seed
 *        catalog, AED 97 for 10,000 distinct prices), or
 *    (b) the greedy basket (see `matchPreparedDetailed`) has ceil(T / P) items, P = the dearest
 *        product price <= T (no basket can have fewer), or
 *    (c) the count found is k and every count from ceil(T / P) to k - 1 was excluded
 *        exhaustively. Count k is decided exhaustively when min(k, floor((k * Pmax - T) / dmin))
 *        <= 2 * L and the match's scan budget lasted, where Pmax = dearest product price, dmin =
 *        Pmax minus the second-highest distinct product price and L = sum-set levels of the
 *        catalog (`stats.sumLevels`: 2 for dense catalogs, up to 4 for sparse ones).
 *    In (c) `exact` is false when the basket of that count came from the bounded guided search
 *    or the lexicographic reconstruction ran out of scan budget.
 *  - Otherwise the count is the best found and never above the greedy basket's; the basket is
 *    valid in every other respect (minimal discount, subtotal - discount = charge, list prices,
 *    products only). Results are deterministic for a given catalog, charge and options.
 *  Measured shares are in docs/benchmarks.md ("Store catalog matching").
 */

import {
  MAX_SUM_LEVELS,
  UnsupportedCatalogError,
  buildInternals,
  ensureDpTable,
  ensureSumLevels,
  smallestReachableAtLeast,
  type Internals,
} from "./matching/catalog-index";
import { fewestItems, toLines } from "./matching/basket-search";
import type { BasketLine, CatalogItem, PrepareOptions } from "./matching/types";
import { MAX_DISCOUNT_BPS, type MatchType } from "@/lib/simulators/test-store/connector";

export type { BasketLine, CatalogItem, PrepareOptions } from "./matching/types";

/**
 * Outcome of a match. On success (all amounts in fils): `subtotalMinor - discountMinor ===
 * chargeMinor`, `subtotalMinor` is the sum of `unitPriceMinor * quantity` over `lines`, and the
 * lines are ordered by unit price, highest first, one line per sku. These map to the checkout
 * object's subtotal, discount and matchType (docs/api.md "Store checkout").
 */
export type MatchResult =
  | {
      ok: true;
      matchType: MatchType;
      lines: BasketLine[];
      subtotalMinor: bigint;
      discountMinor: bigint;
      chargeMinor: bigint;
    }
  | { ok: false; error: string };

/** Options of a match. `maxDiscountBps`: largest order discount in basis points of the list total, integer 0..9000, default 2000 (20 percent, docs/api.md "Limits"). */
export type MatchOptions = { maxDiscountBps?: number };

/** Largest charge and price accepted, in fils: the API amount pattern allows 10 integer digits and 2 decimals. */
export const MAX_AMOUNT_MINOR = 999_999_999_999n;
/** Error text when no product, package or basket fits (default 20 percent bound). */
export const NO_MATCH_ERROR = "no product or basket within a 20% discount";

/**
 * A catalog prepared for repeated matching (see `prepareCatalog`). Its answers never change; it
 * keeps internal caches that grow on demand. Safe to share between requests while the catalog is
 * unchanged (single-threaded JavaScript).
 */
export class PreparedCatalog {
  /** Counts of the prepared catalog and the preparation time in milliseconds. */
  readonly stats: {
    items: number;
    products: number;
    packages: number;
    distinctProductPrices: number;
    cheapestProductMinor: bigint | null;
    dearestProductMinor: bigint | null;
    /** sum-set levels built so far (see the module guarantees) */
    readonly sumLevels: number;
    /** largest total (fils) the exact minimum-item table may cover */
    dpLimitMinor: bigint;
    /** price step of the index in fils (greatest common divisor of the product prices; null without products) */
    priceStepMinor: bigint | null;
    /** why discounted baskets cannot be computed for this catalog (only exact matches then), else null */
    unsupported: string | null;
    prepareMs: number;
  };
  /** @internal */
  readonly internals: Internals | null;
  /** @internal */
  readonly exactProduct: Map<bigint, CatalogItem>;
  /** @internal */
  readonly exactPackage: Map<bigint, CatalogItem>;

  /** @internal Use `prepareCatalog`. */
  constructor(
    stats: Omit<PreparedCatalog["stats"], "sumLevels">,
    internals: Internals | null,
    exactProduct: Map<bigint, CatalogItem>,
    exactPackage: Map<bigint, CatalogItem>,
  ) {
    this.stats = Object.freeze({
      ...stats,
      get sumLevels() {
        return internals ? internals.sums.length - 1 : 0;
      },
    });
    this.internals = internals;
    this.exactProduct = exactProduct;
    this.exactPackage = exactPackage;
    Object.freeze(this);
  }
}

/**
 * Detailed outcome of a match (diagnostics for tests, benchmarks and logs).
 * - method: "exact-product" | "exact-package" | "dp" (exact minimum-item table) | "levels" (count
 *   search from the lower bound) | "greedy" | "none" (ok: false).
 * - fewestItemsProven: the item count is proven minimal for the minimal discount.
 * - exact: the result is provably the rule's unique answer (count and tie-break).
 * - lowerBoundItems: ceil(T / dearest product price <= T) for baskets, else null.
 */
export type MatchExplanation = {
  result: MatchResult;
  method: "exact-product" | "exact-package" | "dp" | "levels" | "greedy" | "none";
  fewestItemsProven: boolean;
  exact: boolean;
  lowerBoundItems: number | null;
};

/**
 * Builds the reusable matching index of a catalog.
 *
 * Input: catalog items (any order; only active items, the caller filters), each with a unique
 * non-empty sku, kind PRODUCT or PACKAGE and `priceMinor` a bigint in fils, 1..999,999,999,999.
 * Cost: O(n log n + m * r + q^2) time at preparation, where g = greatest common divisor of the
 * product prices (the price step), m = cheapest product price / g, r = number of distinct nonzero
 * price residues mod m (<= min(q, m - 1)) and q = number of distinct product prices (the level-2
 * sum set, skipped beyond 150M pairs or 2^27 bits; about 0.1 s for 10,000 products). Memory: 8 * m
 * bytes plus at most a few 16 MiB bitsets; the exact minimum-item table (2 bytes per step, up to
 * dpLimit) and sum-set levels 3-4 grow lazily.
 * A catalog the index cannot hold (m above 5,000,000, i.e. a cheapest product above AED 50,000.00 at
 * a 1-fil step; residue work m * r above 2e9 steps; or a price range so wide that residue sums could
 * leave the exact integer range) is not an error: the result serves exact matches only and
 * `stats.unsupported` says why (see the module header).
 * Throws TypeError for a malformed item (wrong types, empty or duplicate sku, unknown kind) and
 * RangeError for a price outside 1..999,999,999,999 fils.
 * docs/api.md "Overview" item 6.
 */
export function prepareCatalog(catalog: readonly CatalogItem[], options: PrepareOptions = {}): PreparedCatalog {
  const started = performance.now();
  const seen = new Set<string>();
  const exactProduct = new Map<bigint, CatalogItem>();
  const exactPackage = new Map<bigint, CatalogItem>();
  const repByPrice = new Map<number, CatalogItem>();
  let products = 0;
  let packages = 0;
  for (const raw of catalog) {
    const item = validateItem(raw, seen);
    const target = item.kind === "PRODUCT" ? exactProduct : exactPackage;
    const prior = target.get(item.priceMinor);
    if (!prior || item.sku < prior.sku) target.set(item.priceMinor, item);
    if (item.kind === "PRODUCT") {
      products++;
      const key = Number(item.priceMinor);
      const rep = repByPrice.get(key);
      if (!rep || item.sku < rep.sku) repByPrice.set(key, item);
    } else {
      packages++;
    }
  }
  const keys = [...repByPrice.keys()].sort((a, b) => a - b);
  let internals: Internals | null = null;
  let unsupported: string | null = null;
  try {
    internals = keys.length > 0 ? buildInternals(keys, repByPrice, options) : null;
  } catch (error) {
    if (!(error instanceof UnsupportedCatalogError)) throw error;
    unsupported = error.message;
  }
  if (internals && options.eager) {
    ensureSumLevels(internals, MAX_SUM_LEVELS);
    ensureDpTable(internals, internals.dp.limit);
  }
  const stats = {
    items: catalog.length,
    products,
    packages,
    distinctProductPrices: keys.length,
    cheapestProductMinor: keys.length ? BigInt(keys[0]!) : null,
    dearestProductMinor: keys.length ? BigInt(keys[keys.length - 1]!) : null,
    dpLimitMinor: internals ? BigInt(internals.dp.limit) * BigInt(internals.unit) : 0n,
    priceStepMinor: internals ? BigInt(internals.unit) : null,
    unsupported,
    prepareMs: performance.now() - started,
  };
  return new PreparedCatalog(stats, internals, exactProduct, exactPackage);
}

/**
 * Matches a locked charge against a catalog. Prepares the catalog on every call; for repeated
 * matching use `prepareCatalog` once (cache it while the catalog is unchanged) and `matchPrepared`.
 *
 * Input: `catalog` as for `prepareCatalog`; `chargeMinor` the locked charge in fils (AED);
 * `opts.maxDiscountBps` integer 0..9000, default 2000 (20 percent).
 * Returns `MatchResult` (the rule and guarantees are in the module header). Business outcomes are
 * never thrown: a charge <= 0 or above 999,999,999,999 fils, an empty catalog, "nothing fits" and
 * a charge that needs a basket from an unsupported catalog (`stats.unsupported`) give
 * `{ ok: false, error }` (the checkout is then REJECTED).
 * Throws as `prepareCatalog` for malformed catalog items, TypeError for a charge that is not a
 * bigint, RangeError for bad options.
 * docs/api.md "Overview" items 4 and 6; "checkout object"; Limits.
 */
export function matchCatalog(catalog: readonly CatalogItem[], chargeMinor: bigint, opts: MatchOptions = {}): MatchResult {
  return matchPrepared(prepareCatalog(catalog), chargeMinor, opts);
}

/**
 * Matches a locked charge against a prepared catalog. Same contract as `matchCatalog`.
 * Cost per match: O(m + q log T) for the discount and the greedy basket, plus for totals the lower
 * bound does not settle at most `scanBudget` bit visits and `guidedBudget` search nodes (lazy
 * cache fills excepted: the exact table and sum-set levels 3-4, once per catalog).
 * docs/api.md "Overview" items 4 and 6; "checkout object"; Limits.
 */
export function matchPrepared(index: PreparedCatalog, chargeMinor: bigint, opts: MatchOptions = {}): MatchResult {
  return matchPreparedDetailed(index, chargeMinor, opts).result;
}

/**
 * `matchPrepared` with diagnostics (`MatchExplanation`): how the basket was found and what is
 * proven about it. Steps for a basket of the minimal total T:
 *  1. Greedy: walking the distinct prices from the highest (<= T) down, take as many copies of
 *     each as leave a reachable remainder (reachability is exact, from the residue table). This is
 *     the lexicographically greatest basket of total T over all item counts; if its count equals
 *     the lower bound ceil(T / P), it is the rule's answer.
 *  2. "dp": T <= dpLimit: exact minimum-item table, lexicographically greatest reconstruction.
 *  3. "levels": every count k from the lower bound up to the greedy count - 1 (at most
 *     maxExtraLevels + 1 counts) is tried as (k - j) copies of the dearest product plus j other
 *     products: with deficits d = Pmax - p, exactly when k * Pmax - T is a sum of at most k nonzero
 *     deficits. Sum sets decide this exactly for j <= 2L; beyond, a residue-guided search may find
 *     one. The first count that works is taken, fewest other products first, lexicographically.
 *  4. "greedy": nothing smaller found; the greedy basket is returned.
 * Throws as `matchPrepared`.
 */
export function matchPreparedDetailed(index: PreparedCatalog, chargeMinor: bigint, opts: MatchOptions = {}): MatchExplanation {
  const bps = opts.maxDiscountBps ?? MAX_DISCOUNT_BPS;
  if (!Number.isInteger(bps) || bps < 0 || bps > 9000) {
    throw new RangeError("maxDiscountBps must be an integer between 0 and 9000");
  }
  if (typeof chargeMinor !== "bigint") throw new TypeError("chargeMinor must be a bigint amount in fils");
  const fail = (error: string): MatchExplanation => ({
    result: { ok: false, error },
    method: "none",
    fewestItemsProven: true,
    exact: true,
    lowerBoundItems: null,
  });
  if (chargeMinor <= 0n) return fail("charge must be a positive amount");
  if (chargeMinor > MAX_AMOUNT_MINOR) return fail("charge exceeds the largest supported amount");
  if (index.stats.items === 0) return fail("catalog is empty");

  const product = index.exactProduct.get(chargeMinor);
  if (product) return exactLine("EXACT_PRODUCT", product, chargeMinor, "exact-product");
  const pkg = index.exactPackage.get(chargeMinor);
  if (pkg) return exactLine("EXACT_PACKAGE", pkg, chargeMinor, "exact-package");

  const noMatch = bps === MAX_DISCOUNT_BPS ? NO_MATCH_ERROR : `no product or basket within a ${formatBps(bps)}% discount`;
  // Largest admissible list total: D * 10000 <= T * bps  <=>  T * (10000 - bps) <= C * 10000.
  const tMax = (chargeMinor * 10_000n) / BigInt(10_000 - bps);
  const cheapest = index.stats.cheapestProductMinor;
  if (cheapest === null || cheapest > tMax) return fail(noMatch);
  if (index.stats.unsupported !== null) return fail(index.stats.unsupported);
  const ix = index.internals;
  if (!ix) return fail(noMatch);

  // In price steps of ix.unit fils: the least reachable step count >= ceil(C / unit).
  const unit = BigInt(ix.unit);
  const steps = smallestReachableAtLeast(ix, Number((chargeMinor + unit - 1n) / unit));
  if (steps === null || BigInt(steps) * unit > tMax) return fail(noMatch);

  const found = fewestItems(ix, steps);
  const lines = toLines(ix, found.counts);
  let subtotal = 0n;
  for (const line of lines) subtotal += line.unitPriceMinor * BigInt(line.quantity);
  const discount = subtotal - chargeMinor;
  // docs/api.md "Overview" 4 and 6, re-checked in bigint: list prices, one discount within the bound.
  if (subtotal !== BigInt(steps) * unit || discount < 0n || discount * 10_000n > subtotal * BigInt(bps)) {
    throw new Error("internal matching invariant violated");
  }
  return {
    result: {
      ok: true,
      matchType: "DISCOUNTED_BASKET",
      lines,
      subtotalMinor: subtotal,
      discountMinor: discount,
      chargeMinor,
    },
    method: found.method,
    fewestItemsProven: found.fewestItemsProven,
    exact: found.exact,
    lowerBoundItems: found.lowerBound,
  };
}

// ---------------------------------------------------------------------------------------------
// Preparation

function validateItem(raw: CatalogItem, seen: Set<string>): CatalogItem {
  if (raw === null || typeof raw !== "object") throw new TypeError("catalog item must be an object");
  const { sku, name, kind, priceMinor } = raw;
  if (typeof sku !== "string" || sku.length === 0) throw new TypeError("catalog item sku must be a non-empty string");
  if (seen.has(sku)) throw new TypeError(`duplicate sku in catalog: ${sku}`);
  seen.add(sku);
  if (typeof name !== "string") throw new TypeError(`catalog item ${sku}: name must be a string`);
  if (kind !== "PRODUCT" && kind !== "PACKAGE") throw new TypeError(`catalog item ${sku}: kind must be PRODUCT or PACKAGE`);
  if (typeof priceMinor !== "bigint") throw new TypeError(`catalog item ${sku}: priceMinor must be a bigint (fils)`);
  if (priceMinor <= 0n || priceMinor > MAX_AMOUNT_MINOR) {
    throw new RangeError(`catalog item ${sku}: price must be between 1 and ${MAX_AMOUNT_MINOR} fils`);
  }
  return { sku, name, kind, priceMinor };
}

function exactLine(matchType: MatchType, item: CatalogItem, charge: bigint, method: "exact-product" | "exact-package"): MatchExplanation {
  return {
    result: {
      ok: true,
      matchType,
      lines: [{ sku: item.sku, name: item.name, kind: item.kind, unitPriceMinor: item.priceMinor, quantity: 1 }],
      subtotalMinor: charge,
      discountMinor: 0n,
      chargeMinor: charge,
    },
    method,
    fewestItemsProven: true,
    exact: true,
    lowerBoundItems: null,
  };
}

function formatBps(bps: number): string {
  const whole = Math.trunc(bps / 100);
  const frac = bps % 100;
  return frac === 0 ? String(whole) : `${whole}.${String(frac).padStart(2, "0").replace(/0$/, "")}`;
}
