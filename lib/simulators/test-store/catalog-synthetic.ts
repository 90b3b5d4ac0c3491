/**
 * Deterministic synthetic catalogs for tests and benchmarks of store catalog matching
 * (docs/api.md "Overview" item 6). Not used by the service itself.
 */
import type { CatalogItem } from "./matching";

/** mulberry32: a small seeded PRNG; returns a function yielding uniform floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform bigint in [lo, hi] (inclusive) from a seeded PRNG, exact for ranges below 2^52. */
export function randomBigInt(random: () => number, lo: bigint, hi: bigint): bigint {
  const span = hi - lo + 1n;
  const high = BigInt(Math.floor(random() * 2 ** 26));
  const low = BigInt(Math.floor(random() * 2 ** 26));
  return lo + (((high << 26n) | low) % span);
}

const ENDINGS = [0n, 0n, 0n, 50n, 95n, 99n, 99n, 25n, 75n, 49n];

/**
 * A catalog of `products` products (and `packages` packages) with shop-like prices in fils:
 * log-uniform between `minMinor` and `maxMinor` (defaults AED 4.50 and AED 25,000.00), whole-dirham
 * part plus a usual ending (.00, .50, .95, .99, ...), clamped to the range; the cheapest and the
 * dearest price are always present. Skus SYN-000001..., PKG-000001...; same seed, same catalog.
 */
export function syntheticCatalog(opts: { products: number; packages?: number; seed: number; minMinor?: bigint; maxMinor?: bigint }): CatalogItem[] {
  const random = seededRandom(opts.seed);
  const min = opts.minMinor ?? 450n;
  const max = opts.maxMinor ?? 2_500_000n;
  const logMin = Math.log(Number(min));
  const logMax = Math.log(Number(max));
  const price = (i: number): bigint => {
    if (i === 0) return min;
    if (i === 1) return max;
    const whole = BigInt(Math.floor(Math.exp(logMin + random() * (logMax - logMin)) / 100));
    const ending = ENDINGS[Math.floor(random() * ENDINGS.length)];
    if (ending === undefined) throw new RangeError("random() must return a number in [0, 1)");
    let p = whole * 100n + ending;
    if (p < min) p = min;
    if (p > max) p = max;
    return p;
  };
  const items: CatalogItem[] = [];
  for (let i = 0; i < opts.products; i++) {
    items.push({ sku: `SYN-${String(i + 1).padStart(6, "0")}`, name: `Synthetic product ${i + 1}`, kind: "PRODUCT", priceMinor: price(i) });
  }
  for (let i = 0; i < (opts.packages ?? 0); i++) {
    items.push({ sku: `PKG-${String(i + 1).padStart(6, "0")}`, name: `Synthetic package ${i + 1}`, kind: "PACKAGE", priceMinor: price(i + 2) });
  }
  return items;
}
