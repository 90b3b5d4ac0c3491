// The prepared matching index of a store catalog: distinct product prices, the residue table of least reachable
// totals modulo the cheapest price, sum-set bitsets of price deficits, the guide for the guided search and the lazy
// minimum-item table, with their tuning constants. Built by prepareCatalog (lib/simulators/test-store/matching.ts, which states the
// matching rule and its guarantees: docs/api.md "Overview" item 6). Amounts are exact integers in
// `number` typed arrays, counted in price steps: `unit` fils each, the greatest common divisor of the product
// prices (far below 2^53, see lib/simulators/test-store/matching.ts).
import { fromMinor } from "../../../contract/money/currency";
import type { CatalogItem, PrepareOptions } from "./types";

const DEFAULT_DP_TABLE_WORK = 60_000_000;
const DEFAULT_DP_MAX_TOTAL = 2_000_000;
const DEFAULT_MAX_EXTRA_LEVELS = 8;
const DEFAULT_SCAN_BUDGET = 1_500_000;
const DEFAULT_GUIDED_BUDGET = 3_000;
const DEFAULT_SUM_SET_WORK = 80_000_000;
/** Modulus of the guided search's residue classes of deficits. */
export const GUIDE_MODULUS = 100;
/** Most nonzero deficits one guided-search representation may use. */
export const GUIDE_MAX_TERMS = 12;
/** Most sum-set levels (deficit counts) the index builds. */
export const MAX_SUM_LEVELS = 4;
/** Minimum-item table entry for a total no basket reaches. */
export const DP_NONE = 0xffff;
/** Largest residue table (cheapest product price in price steps) the index accepts: AED 50,000.00 at a step of 1 fil. */
export const MAX_MODULUS = 5_000_000;
/** Largest work of the residue table (modulus x generators) accepted at preparation. */
const MAX_RESIDUE_WORK = 2_000_000_000;
/** Largest sum-set bitset (bits) and pair count for level 2. */
const MAX_SUM_BITS = 1 << 27;
const MAX_PAIRS = 150_000_000;
const SAFE = Number.MAX_SAFE_INTEGER;

/** Deficits grouped by residue mod GUIDE_MODULUS, and which residues t deficits can make. */
export type Guide = {
  classes: Float64Array[];
  residues: number[];
  /** reach[t * GUIDE_MODULUS + r]: some t nonzero deficits have a sum congruent to r */
  reach: Uint8Array;
};

/**
 * A catalog the index cannot hold (limits of the residue table, see prepareCatalog). Deterministic for a
 * given catalog: `prepareCatalog` records the reason and the catalog serves exact matches only.
 */
export class UnsupportedCatalogError extends RangeError {
  constructor(reason: string) {
    super(`catalog not supported for discounted baskets: ${reason}`);
    this.name = "UnsupportedCatalogError";
  }
}

export type Internals = {
  /** fils per price step: the greatest common divisor of the product prices; every amount below is in steps */
  unit: number;
  /** distinct product prices, ascending (price steps, exact integers) */
  prices: Float64Array;
  /** product represented at each distinct price: lowest sku */
  reps: CatalogItem[];
  /** modulus m = cheapest product price; dist[r] = least reachable total congruent to r mod m */
  m: number;
  dist: Float64Array;
  /** Pmax and the nonzero deficits Pmax - p over the other distinct prices, ascending */
  pmax: number;
  def: Float64Array;
  /**
   * sums[t] (t >= 1): bitset over 0..t * maxDef of the sums of at most t nonzero deficits
   * (0 included). sums[0] unused. Levels 1 and 2 are built at preparation when they fit; 3 and 4
   * lazily when cheap enough (sparse catalogs).
   */
  sums: Uint32Array[];
  sumsFinal: boolean;
  sumSetWork: number;
  guide: Guide | null;
  dp: { table: Uint16Array; filled: number; limit: number };
  maxExtraLevels: number;
  scanBudget: number;
  guidedBudget: number;
};

/**
 * The matching index of a catalog's products: `pricesFils` are the distinct product prices in fils, ascending;
 * `repByPrice` the product represented at each price (lowest sku). Every price is divided by their greatest
 * common divisor (the price step, `unit` fils): a catalog priced in whole dirhams is indexed in dirhams, so its
 * residue table is 100 times smaller. Builds the residue table, the level 1-2 sum sets and the guide; the
 * minimum-item table and levels 3-4 start empty and grow lazily. `options.dpMaxTotal` is in fils.
 * @throws UnsupportedCatalogError (a RangeError) for a catalog the index cannot hold (see prepareCatalog).
 */
export function buildInternals(pricesFils: number[], repByPrice: Map<number, CatalogItem>, options: PrepareOptions): Internals {
  const unit = pricesFils.reduce((g, p) => gcd(p, g), 0);
  const keys = pricesFils.map((p) => p / unit); // exact: unit divides every price
  const prices = Float64Array.from(keys);
  const reps = pricesFils.map((p) => repByPrice.get(p)!);
  const m = keys[0]!;
  const pmax = keys[keys.length - 1]!;
  if (m > MAX_MODULUS) {
    throw new UnsupportedCatalogError(
      `the cheapest product costs AED ${fromMinor(BigInt(m * unit))}, above the AED ${fromMinor(BigInt(MAX_MODULUS * unit))} supported for prices in steps of AED ${fromMinor(BigInt(unit))}`,
    );
  }
  // Generators of the residue table: the cheapest price of every nonzero residue class mod m.
  const genByResidue = new Map<number, number>();
  for (const p of keys) {
    const r = p % m;
    if (r !== 0 && !genByResidue.has(r)) genByResidue.set(r, p); // keys ascending: first is cheapest
  }
  const gens = [...genByResidue.values()];
  if (m * gens.length > MAX_RESIDUE_WORK) {
    throw new UnsupportedCatalogError("residue table too large (cheapest price x distinct price residues)");
  }
  let maxGen = 0;
  for (const g of gens) maxGen = Math.max(maxGen, g);
  if ((m - 1) * maxGen > SAFE / 16) throw new UnsupportedCatalogError("price range too wide (cheapest price x dearest residue generator)");
  const dist = residueTable(m, gens);

  // Deficits relative to the dearest product: Pmax - p for every other distinct price, ascending.
  const def = new Float64Array(keys.length - 1);
  for (let i = 0; i < keys.length - 1; i++) def[i] = pmax - keys[keys.length - 2 - i]!;
  const sums = buildBaseSums(def);
  const guide = sums.length > 2 ? buildGuide(def) : null;
  const dpLimit = Math.max(
    0,
    Math.min(
      Math.floor((options.dpMaxTotal ?? DEFAULT_DP_MAX_TOTAL) / unit),
      Math.floor((options.dpTableWork ?? DEFAULT_DP_TABLE_WORK) / keys.length),
      (DP_NONE - 1) * m,
    ),
  );
  return {
    unit,
    prices,
    reps,
    m,
    dist,
    pmax,
    def,
    sums,
    sumsFinal: sums.length < 3, // no level 2 -> no higher levels either
    sumSetWork: options.sumSetWork ?? DEFAULT_SUM_SET_WORK,
    guide,
    dp: { table: new Uint16Array(1), filled: 0, limit: dpLimit },
    maxExtraLevels: options.maxExtraLevels ?? DEFAULT_MAX_EXTRA_LEVELS,
    scanBudget: options.scanBudget ?? DEFAULT_SCAN_BUDGET,
    guidedBudget: options.guidedBudget ?? DEFAULT_GUIDED_BUDGET,
  };
}

/**
 * Round-robin shortest paths over residues mod m (Boecker and Liptak): dist[r] is the least sum of
 * generators (plus any multiple of m) congruent to r mod m, Infinity when none. O(m) per generator.
 */
function residueTable(m: number, gens: number[]): Float64Array {
  const dist = new Float64Array(m).fill(Infinity);
  dist[0] = 0;
  for (const a of gens) {
    const step = a % m;
    const d = gcd(step, m);
    const cycle = m / d;
    for (let start = 0; start < d; start++) {
      let at = -1;
      let best = Infinity;
      for (let r = start; r < m; r += d) {
        if (dist[r]! < best) {
          best = dist[r]!;
          at = r;
        }
      }
      if (at < 0) continue;
      let cur = at;
      for (let i = 1; i < cycle; i++) {
        let next = cur + step;
        if (next >= m) next -= m;
        const cand = dist[cur]! + a;
        if (cand < dist[next]!) dist[next] = cand;
        cur = next;
      }
    }
  }
  return dist;
}

function gcd(a: number, b: number): number {
  while (b !== 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

function setBit(bits: Uint32Array, i: number): void {
  bits[i >>> 5]! |= 1 << (i & 31);
}

/** True when bit `i` of the bitset is set. */
export function testBit(bits: Uint32Array, i: number): boolean {
  return ((bits[i >>> 5]! >>> (i & 31)) & 1) === 1;
}

/** Sum-set levels 1 (0 and the deficits) and 2 (all pair sums), when they fit. */
function buildBaseSums(def: Float64Array): Uint32Array[] {
  const sums: Uint32Array[] = [new Uint32Array(0)];
  if (def.length === 0) return sums;
  const maxDef = def[def.length - 1]!;
  if (maxDef + 1 > MAX_SUM_BITS) return sums;
  const one = new Uint32Array((maxDef >>> 5) + 1);
  setBit(one, 0);
  for (const d of def) setBit(one, d);
  sums.push(one);
  const n = def.length;
  if (2 * maxDef + 1 > MAX_SUM_BITS || (n * (n + 1)) / 2 > MAX_PAIRS) return sums;
  const two = new Uint32Array(((2 * maxDef) >>> 5) + 1);
  two.set(one);
  for (let i = 0; i < n; i++) {
    const a = def[i]!;
    for (let j = i; j < n; j++) setBit(two, a + def[j]!);
  }
  sums.push(two);
  return sums;
}

function popcount(bits: Uint32Array): number {
  let c = 0;
  for (let i = 0; i < bits.length; i++) {
    let v = bits[i]!;
    v = v - ((v >>> 1) & 0x55555555);
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    c += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return c;
}

/**
 * Builds sum-set levels 3.. up to `level` (at most MAX_SUM_LEVELS) while each costs at most the
 * remaining sumSetWork (set bits of the previous level x deficits) and fits in MAX_SUM_BITS.
 */
export function ensureSumLevels(ix: Internals, level: number): void {
  const sums = ix.sums;
  const def = ix.def;
  while (!ix.sumsFinal && sums.length <= Math.min(level, MAX_SUM_LEVELS)) {
    const t = sums.length; // level to build
    const prev = sums[t - 1]!;
    const maxDef = def[def.length - 1]!;
    const cost = popcount(prev) * def.length;
    if (t > MAX_SUM_LEVELS || cost > ix.sumSetWork || t * maxDef + 1 > MAX_SUM_BITS) {
      ix.sumsFinal = true;
      return;
    }
    ix.sumSetWork -= cost;
    const next = new Uint32Array(((t * maxDef) >>> 5) + 1);
    next.set(prev);
    for (let w = 0; w < prev.length; w++) {
      let bits = prev[w]!;
      while (bits !== 0) {
        const low = bits & -bits;
        const v = (w << 5) + (31 - Math.clz32(low));
        bits ^= low;
        for (let i = 0; i < def.length; i++) setBit(next, v + def[i]!);
      }
    }
    sums.push(next);
    if (sums.length > MAX_SUM_LEVELS) ix.sumsFinal = true;
  }
}

function buildGuide(def: Float64Array): Guide {
  const byResidue = new Map<number, number[]>();
  for (const d of def) {
    const r = d % GUIDE_MODULUS;
    const list = byResidue.get(r);
    if (list) list.push(d);
    else byResidue.set(r, [d]);
  }
  const classes: Float64Array[] = [];
  for (let r = 0; r < GUIDE_MODULUS; r++) classes.push(Float64Array.from(byResidue.get(r) ?? []));
  const residues = [...byResidue.keys()].sort((a, b) => a - b);
  const reach = new Uint8Array((GUIDE_MAX_TERMS + 1) * GUIDE_MODULUS);
  reach[0] = 1;
  for (let t = 1; t <= GUIDE_MAX_TERMS; t++) {
    for (let r = 0; r < GUIDE_MODULUS; r++) {
      if (!reach[(t - 1) * GUIDE_MODULUS + r]) continue;
      for (const c of residues) reach[t * GUIDE_MODULUS + ((r + c) % GUIDE_MODULUS)] = 1;
    }
  }
  return { classes, residues, reach };
}

// ---------------------------------------------------------------------------------------------
// Exact integer division and reachable totals

/** floor(a / b) for non-negative safe integers, exact. */
export function floorDiv(a: number, b: number): number {
  let q = Math.floor(a / b);
  if (q * b > a) q--;
  else if ((q + 1) * b <= a) q++;
  return q;
}

/** ceil(a / b) for non-negative safe integers, exact. */
export function ceilDiv(a: number, b: number): number {
  const q = floorDiv(a, b);
  return q * b === a ? q : q + 1;
}

/** Is x (price steps) the total of some basket of products (0 = empty basket)? Exact, O(1). */
export function reachable(ix: Internals, x: number): boolean {
  if (x < 0) return false;
  return x >= ix.dist[x % ix.m]!;
}

/** Least reachable total >= c. Every d[r] + k * m is reachable and nothing below d[r] in its class. O(m). */
export function smallestReachableAtLeast(ix: Internals, c: number): number | null {
  const { m, dist } = ix;
  let best = Infinity;
  for (let r = 0; r < m; r++) {
    const d = dist[r]!;
    if (d === Infinity) continue;
    const t = d >= c ? d : d + ceilDiv(c - d, m) * m;
    if (t < best) best = t;
  }
  return best === Infinity ? null : best;
}

/**
 * Makes the exact minimum-item table cover 0..total when total <= dp.limit (filling lazily and
 * doubling, so all fills together cost at most about twice dpTableWork). Returns false when total
 * is beyond the limit. g[s] = 1 + min over prices p <= s of g[s - p]; O(covered x prices).
 */
export function ensureDpTable(ix: Internals, total: number): boolean {
  const dp = ix.dp;
  if (total > dp.limit) return false;
  if (total <= dp.filled) return true;
  const target = Math.min(dp.limit, Math.max(total, 2 * dp.filled, 4096));
  const table = new Uint16Array(target + 1);
  table.set(dp.table.subarray(0, dp.filled + 1));
  const prices = ix.prices;
  const n = prices.length;
  for (let s = dp.filled + 1; s <= target; s++) {
    let best = DP_NONE;
    for (let i = 0; i < n; i++) {
      const p = prices[i]!;
      if (p > s) break;
      const v = table[s - p]!;
      if (v < best) best = v;
    }
    table[s] = best === DP_NONE ? DP_NONE : best + 1;
  }
  dp.table = table;
  dp.filled = target;
  return true;
}
