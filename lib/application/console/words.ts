// Words the console builds around numbers: counts with the right noun ("1 delivery", "2 deliveries") and today's
// figures said against the same weekday last week without jargon (docs/guides/console-for-operators.md "Charts").

/**
 * A count with its noun in the right number: `countOf(1, "delivery")` is "1 delivery", `countOf(2, "delivery")`
 * "2 deliveries", `countOf(0, "API key")` "0 API keys". `plural` is for nouns the rule below gets wrong.
 * @param n a whole number (a bigint is taken as it is).
 * @param singular the noun for one, e.g. "payment", "delivery", "checkout session".
 * @param plural the noun for any other number; default: "y" after a consonant becomes "ies", "s", "x", "ch" and
 *   "sh" take "es", anything else takes "s".
 */
export function countOf(n: number | bigint, singular: string, plural?: string): string {
  return `${n} ${n === 1 || n === 1n ? singular : (plural ?? pluralOf(singular))}`;
}

/** The regular English plural of a noun (the last word of it). */
function pluralOf(singular: string): string {
  if (/[^aeiou]y$/i.test(singular)) return `${singular.slice(0, -1)}ies`;
  if (/(s|x|ch|sh)$/i.test(singular)) return `${singular}es`;
  return `${singular}s`;
}

/**
 * Today's figure said against the same weekday last week, for the overview's cards:
 * - nothing then and nothing now: "no payments on 2026-11-19 either";
 * - nothing then, something now: "no payments on 2026-11-19 to compare with";
 * - the same: "the same as on 2026-11-19 (5)";
 * - otherwise the change in per cent: "+20 % against 2026-11-19 (5)", "−40 % against 2026-11-19 (5)".
 * @param now today's figure; `before` the figure of `day`, a week earlier (any unit: counts or amounts).
 * @param beforeText `before` as shown (e.g. "1250.00" for an amount).
 * @param day the Dubai day a week earlier, "YYYY-MM-DD".
 * @param none what a zero is in words, e.g. "no payments", "nothing charged".
 */
export function againstLastWeek(now: number, before: number, beforeText: string, day: string, none: string): string {
  if (before === 0) return now === 0 ? `${none} on ${day} either` : `${none} on ${day} to compare with`;
  const pct = Math.round(((now - before) / before) * 100);
  if (pct === 0) return `the same as on ${day} (${beforeText})`;
  return `${pct > 0 ? "+" : "−"}${Math.abs(pct)} % against ${day} (${beforeText})`;
}
