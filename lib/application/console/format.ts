/** Console display helpers. Times are formatted by lib/platform/time-format.ts, the one place that does (docs/operating.md "Times in the console"). */

/** Basis points as a percentage text without floating point: 250 -> "2.50 %". */
export function formatBps(bps: number | null | undefined): string {
  if (bps === null || bps === undefined) return "—";
  const whole = Math.trunc(bps / 100);
  const frac = String(Math.abs(bps % 100)).padStart(2, "0");
  return `${whole}.${frac} %`;
}

/** A 1-based page number from a search parameter (anything invalid is page 1). */
export function pageParam(value: string | string[] | undefined): number {
  const text = Array.isArray(value) ? value[0] : value;
  return text && /^\d{1,6}$/.test(text) && Number(text) >= 1 ? Number(text) : 1;
}

/** The first value of a search parameter, or undefined. */
export function param(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === "" ? undefined : text;
}

/**
 * A merchant's callback retry waits as the console shows them (docs/callbacks.md "Fast retries"):
 * "30 s, 2 min, ..., 60 min", or "0.5 s, 2 s, ..., 60 s" with fast retries.
 */
export function formatRetryWaits(seconds: readonly number[], fastRetries: boolean): string {
  return seconds.map((s) => (fastRetries || s < 60 ? `${s} s` : `${s / 60} min`)).join(", ");
}
