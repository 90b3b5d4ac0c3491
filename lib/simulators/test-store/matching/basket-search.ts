// The basket search behind matchPreparedDetailed (lib/simulators/test-store/matching.ts, which states the matching rule and its
// guarantees: docs/api.md "Overview" item 6): the fewest items for the least reachable total, through the
// exact minimum-item table, the count search over sum-set levels, the guided search and the greedy fallback, and
// the tie-break reconstruction. Amounts are exact integers held in `number`, in price steps of `ix.unit` fils
// (the greatest common divisor of the product prices; lib/simulators/test-store/matching/catalog-index.ts).
import {
  DP_NONE,
  GUIDE_MAX_TERMS,
  GUIDE_MODULUS,
  MAX_SUM_LEVELS,
  ceilDiv,
  ensureDpTable,
  ensureSumLevels,
  floorDiv,
  reachable,
  testBit,
  type Guide,
  type Internals,
} from "./catalog-index";
import type { BasketLine } from "./types";

const GUIDED_STEPS_PER_TRY = 300;
type Counts = Map<number, number>; // distinct-price index -> quantity

type Found = {
  counts: Counts;
  method: "dp" | "levels" | "greedy";
  fewestItemsProven: boolean;
  exact: boolean;
  lowerBound: number;
};

/** Index of the largest value <= x in an ascending array, or -1. */
function upperIndex(values: Float64Array, x: number): number {
  let lo = 0;
  let hi = values.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! <= x) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

function priceIndex(prices: Float64Array, p: number): number {
  const i = upperIndex(prices, p);
  if (i < 0 || prices[i] !== p) throw new Error("internal: price not in catalog");
  return i;
}

/** Work left for one match. */
type Work = { scan: number; guided: number };

/** A fewest-items basket of the reachable total T (steps in `matchPreparedDetailed`). */
export function fewestItems(ix: Internals, total: number): Found {
  const top = upperIndex(ix.prices, total);
  const lowerBound = ceilDiv(total, ix.prices[top]!);
  const greedy = greedyBasket(ix, total, top);
  let greedyCount = 0;
  for (const q of greedy.values()) greedyCount += q;
  if (greedyCount === lowerBound) {
    return { counts: greedy, method: "greedy", fewestItemsProven: true, exact: true, lowerBound };
  }
  if (ensureDpTable(ix, total)) {
    return { counts: dpBasket(ix, total, top), method: "dp", fewestItemsProven: true, exact: true, lowerBound };
  }
  const work: Work = { scan: ix.scanBudget, guided: ix.guidedBudget };
  let allExhaustive = true;
  const lastLevel = Math.min(greedyCount - 1, lowerBound + ix.maxExtraLevels);
  for (let k = lowerBound; k <= lastLevel; k++) {
    // Each count may spend at most half of the scan budget left, so later counts keep some.
    const share: Work = { scan: Math.floor(work.scan / 2), guided: work.guided };
    const spent = share.scan;
    const level = searchLevel(ix, total, k, lowerBound, share);
    work.scan -= spent - Math.max(0, share.scan);
    work.guided = share.guided;
    if (level.deficits) {
      const counts: Counts = new Map();
      const copies = k - level.deficits.length;
      if (copies > 0) counts.set(ix.prices.length - 1, copies);
      for (const d of level.deficits) {
        const i = priceIndex(ix.prices, ix.pmax - d);
        counts.set(i, (counts.get(i) ?? 0) + 1);
      }
      return {
        counts,
        method: "levels",
        fewestItemsProven: allExhaustive,
        exact: allExhaustive && level.lexExact,
        lowerBound,
      };
    }
    allExhaustive &&= level.exhaustive;
  }
  // Nothing smaller found. The greedy basket is the lexicographically greatest of all baskets of
  // total T, hence the rule's answer whenever its count is proven minimal.
  const proven = allExhaustive && lastLevel === greedyCount - 1;
  return { counts: greedy, method: "greedy", fewestItemsProven: proven, exact: proven, lowerBound };
}

/**
 * Exact minimum-item basket of total T from the table, lexicographically greatest among those:
 * repeatedly the highest price p (not above the previous one) with g[rem - p] = g[rem] - 1. (Any
 * fewest-item basket of rem - p has no price above p, else that price could have come first.)
 */
function dpBasket(ix: Internals, total: number, top: number): Counts {
  const prices = ix.prices;
  const f = ix.dp.table;
  if (f[total] === DP_NONE) throw new Error("internal: total not reachable");
  const counts: Counts = new Map();
  let rem = total;
  let hi = top;
  while (rem > 0) {
    const need = f[rem]! - 1;
    let taken = false;
    for (let i = hi; i >= 0; i--) {
      const p = prices[i]!;
      if (p <= rem && f[rem - p] === need) {
        counts.set(i, (counts.get(i) ?? 0) + 1);
        rem -= p;
        hi = i;
        taken = true;
        break;
      }
    }
    if (!taken) throw new Error("internal: dp reconstruction failed");
  }
  return counts;
}

/**
 * Greedy basket: for each distinct price from the highest (<= T) down, the most copies that leave a
 * reachable remainder (binary search: if rem - q * p is reachable, so is rem - (q - 1) * p). Once
 * a price is passed no higher price fits again, so this is the lexicographically greatest basket
 * of total T. O(q log T).
 */
function greedyBasket(ix: Internals, total: number, top: number): Counts {
  const counts: Counts = new Map();
  let rem = total;
  for (let i = top; i >= 0 && rem > 0; i--) {
    const p = ix.prices[i]!;
    if (p > rem) continue;
    const qmax = floorDiv(rem, p);
    let q: number;
    if (reachable(ix, rem - qmax * p)) q = qmax;
    else {
      let lo = 0; // reachable (rem itself)
      let hi = qmax; // not reachable
      while (hi - lo > 1) {
        const mid = lo + Math.floor((hi - lo) / 2);
        if (reachable(ix, rem - mid * p)) lo = mid;
        else hi = mid;
      }
      q = lo;
    }
    if (q > 0) {
      counts.set(i, q);
      rem -= q * p;
    }
  }
  if (rem !== 0) throw new Error("internal: greedy basket incomplete");
  return counts;
}

type Level = { deficits: number[] | null; exhaustive: boolean; lexExact: boolean };

const MISS = -1;
const UNKNOWN = -2;
const DIRECT = -3;

/**
 * Is x a sum of at most t nonzero deficits? MISS, UNKNOWN (scan budget exhausted or t > 2L), or a
 * hit: DIRECT (t <= L, one bit) or the split y >= 0 with y in sums[t - L] and x - y in sums[L].
 */
function member(ix: Internals, x: number, t: number, work: Work): number {
  if (x === 0) return DIRECT;
  const def = ix.def;
  if (x < 0 || t <= 0 || def.length === 0) return MISS;
  const maxDef = def[def.length - 1]!;
  if (x < def[0]! || x > t * maxDef) return MISS;
  if (t > ix.sums.length - 1) ensureSumLevels(ix, t);
  const levels = ix.sums.length - 1;
  if (levels === 0) return t === 1 ? (binarySearchDef(def, x) ? DIRECT : MISS) : UNKNOWN;
  if (t <= levels) return testBit(ix.sums[t]!, x) ? DIRECT : MISS;
  if (t > 2 * levels) return UNKNOWN;
  const a = t - levels;
  const small = ix.sums[a]!;
  const large = ix.sums[levels]!;
  const lo = Math.max(0, x - levels * maxDef);
  let hi = Math.min(x, a * maxDef);
  if (a === levels) hi = Math.min(hi, floorDiv(x, 2));
  for (let w = lo >>> 5; w <= hi >>> 5; w++) {
    let bits = small[w]!;
    work.scan--;
    while (bits !== 0) {
      const low = bits & -bits;
      const y = (w << 5) + (31 - Math.clz32(low));
      bits ^= low;
      if (y < lo || y > hi) continue;
      if (--work.scan < 0) return UNKNOWN;
      if (testBit(large, x - y)) return y;
    }
    if (work.scan < 0) return UNKNOWN;
  }
  return MISS;
}

function binarySearchDef(def: Float64Array, x: number): boolean {
  const i = upperIndex(def, x);
  return i >= 0 && def[i] === x;
}

/**
 * Lexicographically smallest j nonzero deficits (ascending) summing to x, given that x is a sum of
 * at most j and of no fewer. Each term is the smallest deficit d (not below the previous term)
 * whose remainder is a sum of one term fewer; any such remainder has no term below d (else that
 * term would have come first). Returns null when the scan budget runs out.
 */
function lexTerms(ix: Internals, x: number, j: number, work: Work): number[] | null {
  const def = ix.def;
  const out: number[] = [];
  let rem = x;
  let from = 0;
  for (let i = j; i >= 1; i--) {
    let chosen = -1;
    for (let idx = from; idx < def.length; idx++) {
      const d = def[idx]!;
      if (i * d > rem) break;
      const r = i === 1 ? (d === rem ? DIRECT : MISS) : member(ix, rem - d, i - 1, work);
      if (r === UNKNOWN) return null;
      if (r !== MISS) {
        chosen = idx;
        break;
      }
    }
    if (chosen < 0) throw new Error("internal: lexicographic reconstruction failed");
    out.push(def[chosen]!);
    rem -= def[chosen]!;
    from = chosen;
  }
  if (rem !== 0) throw new Error("internal: lexicographic reconstruction incomplete");
  return out;
}

/** Fewest nonzero deficits (<= t) summing to x, lexicographically smallest when `lexExact`. */
function representation(ix: Internals, x: number, t: number, work: Work): { terms: number[]; lexExact: boolean } | "miss" | "unknown" {
  if (x === 0) return { terms: [], lexExact: true };
  let split = MISS;
  let j = 1;
  for (; j <= t; j++) {
    split = member(ix, x, j, work);
    if (split === UNKNOWN) return "unknown";
    if (split !== MISS) break;
  }
  if (split === MISS) return "miss";
  const lex = lexTerms(ix, x, j, work);
  if (lex) return { terms: lex, lexExact: true };
  // Out of budget for the lexicographic search: split into two parts of at most L terms each
  // (cheap: their members are single bits) and decompose those.
  if (split < 0) throw new Error("internal: no split for a scanned member");
  const levels = ix.sums.length - 1;
  const free: Work = { scan: Infinity, guided: 0 };
  const left = representation(ix, split, j - levels, free);
  const right = representation(ix, x - split, levels, free);
  if (typeof left === "string" || typeof right === "string") throw new Error("internal: split decomposition failed");
  return { terms: [...left.terms, ...right.terms].sort((p, q) => p - q), lexExact: false };
}

/**
 * Can total T be paid with exactly k products? With deficits d = Pmax - p, k products sum to T
 * exactly when their deficits sum to delta = k * Pmax - T using at most k nonzero deficits (the
 * rest are copies of the dearest product), and at most floor(delta / dmin) of them. Sum sets
 * decide up to 2L terms exactly; beyond, the guided search may find one (not exhaustive).
 */
function searchLevel(ix: Internals, total: number, k: number, lowerBound: number, work: Work): Level {
  const delta = k * ix.pmax - total;
  const def = ix.def;
  if (delta === 0) return { deficits: [], exhaustive: true, lexExact: true };
  if (def.length === 0) return { deficits: null, exhaustive: true, lexExact: true };
  const dmin = def[0]!;
  const dmax = def[def.length - 1]!;
  const maxTerms = Math.min(k, floorDiv(delta, dmin));
  if (maxTerms === 0 || delta > maxTerms * dmax) return { deficits: null, exhaustive: true, lexExact: true };
  ensureSumLevels(ix, Math.min(MAX_SUM_LEVELS, Math.ceil(maxTerms / 2)));
  const decidable = Math.max(1, 2 * (ix.sums.length - 1));
  // When the level cannot be decided anyway, skip the costliest scan (level L against level L),
  // except at the lower bound, where any basket found is proven and the scan buys the tie-break.
  const cap = maxTerms <= decidable || k === lowerBound ? Math.min(maxTerms, decidable) : Math.max(1, decidable - 1);
  const rep = representation(ix, delta, cap, work);
  if (typeof rep === "object") return { deficits: rep.terms, exhaustive: true, lexExact: rep.lexExact };
  if (rep === "miss" && maxTerms <= decidable) return { deficits: null, exhaustive: true, lexExact: true };
  if (ix.guide && work.guided > 0) {
    const jMax = Math.min(maxTerms, GUIDE_MAX_TERMS);
    for (let j = Math.max(cap + 1, ix.sums.length); j <= jMax && work.guided > 0; j++) {
      if (delta > j * dmax || delta < j * dmin) continue;
      const state = { steps: 0, budget: Math.min(work.guided, GUIDED_STEPS_PER_TRY) };
      const found = guidedTerms(ix, ix.guide, delta, j, state, work);
      work.guided -= state.steps;
      if (found) return { deficits: found.sort((a, b) => a - b), exhaustive: false, lexExact: false };
    }
  }
  return { deficits: null, exhaustive: false, lexExact: true };
}

/**
 * Residue-guided depth-first search for at most t nonzero deficits summing to x (heuristic,
 * bounded by `state.budget` nodes). Deficits are grouped by residue mod 100 (at a 1-fil step the fils of a dirham,
 * where shop prices differ most); each choice keeps the remainder's residue makeable by the terms
 * left, takes a term near the remainder's mean, and the last L + 1 terms are decided exactly.
 */
function guidedTerms(ix: Internals, g: Guide, x: number, t: number, state: { steps: number; budget: number }, work: Work): number[] | null {
  const levels = ix.sums.length - 1;
  if (t <= levels + 1) {
    state.steps++;
    const rep = representation(ix, x, t, work);
    return typeof rep === "object" ? rep.terms : null;
  }
  if (++state.steps > state.budget) return null;
  const def = ix.def;
  const dmin = def[0]!;
  const dmax = def[def.length - 1]!;
  const mean = floorDiv(x, t);
  for (const c of g.residues) {
    const rho = (((x - c) % GUIDE_MODULUS) + GUIDE_MODULUS) % GUIDE_MODULUS;
    if (!g.reach[(t - 1) * GUIDE_MODULUS + rho]) continue;
    const arr = g.classes[c]!;
    const at = upperIndex(arr, mean);
    for (let idx = at; idx <= at + 1; idx++) {
      if (idx < 0 || idx >= arr.length) continue;
      const a = arr[idx]!;
      const rest = x - a;
      if (rest < (t - 1) * dmin || rest > (t - 1) * dmax) continue;
      const sub = guidedTerms(ix, g, rest, t - 1, state, work);
      if (sub) {
        sub.push(a);
        return sub;
      }
      if (state.steps > state.budget || work.scan < 0) return null;
    }
  }
  return null;
}

/** The basket lines of `counts` (distinct-price index -> quantity), dearest price first, one line per product. */
export function toLines(ix: Internals, counts: Counts): BasketLine[] {
  const order = [...counts.entries()].filter(([, q]) => q > 0).sort((a, b) => b[0] - a[0]);
  return order.map(([i, q]) => {
    const item = ix.reps[i]!;
    return { sku: item.sku, name: item.name, kind: item.kind, unitPriceMinor: item.priceMinor, quantity: q };
  });
}
