// The shapes shared by the matching rule (lib/simulators/test-store/matching.ts) and its two halves (catalog-index.ts,
// basket-search.ts): a catalog entry, a basket line and the tuning of a prepared catalog. Kept apart so the halves
// import these shapes without importing the rule that imports them.

/** A catalog entry. `priceMinor` is the list price in fils (AED minor units), > 0. A PACKAGE is a fixed bundle sold at one price. */
export type CatalogItem = {
  sku: string;
  name: string;
  kind: "PRODUCT" | "PACKAGE";
  priceMinor: bigint;
};

/** One basket line: `unitPriceMinor` in fils, `quantity` an integer >= 1. */
export type BasketLine = {
  sku: string;
  name: string;
  kind: "PRODUCT" | "PACKAGE";
  unitPriceMinor: bigint;
  quantity: number;
};

/**
 * Tuning of a prepared catalog (tests and benchmarks; the defaults suit production).
 * - dpTableWork (default 6e7): step budget of the exact minimum-item table; the table covers totals
 *   0..dpLimit fils, dpLimit = min(dpMaxTotal, g * floor(dpTableWork / distinct product prices),
 *   65534 * cheapest price) with g the price step (see `prepareCatalog`), filled lazily (doubling)
 *   up to the largest total a match needed.
 * - dpMaxTotal (default 2,000,000 fils): largest total the table may cover (in fils at any price step).
 * - maxExtraLevels (default 8): item counts above the lower bound the level search may try.
 * - scanBudget (default 1.5e6): bit visits a match may spend scanning sum sets (a few ms).
 * - guidedBudget (default 3000): nodes a match may spend in the guided search (0 disables it).
 * - sumSetWork (default 8e7): steps allowed to build sum-set levels 3 and 4 (sparse catalogs).
 * - eager (default false): build the lazy parts (sum-set levels 3-4, the whole table) at preparation.
 */
export type PrepareOptions = {
  dpTableWork?: number;
  dpMaxTotal?: number;
  maxExtraLevels?: number;
  scanBudget?: number;
  guidedBudget?: number;
  sumSetWork?: number;
  eager?: boolean;
};
