// The one source of "now" for the domain (docs/decisions/0150-one-source-of-now.md). Every rule that reads the time
// takes a `now` from its caller; callers get it here: the real clock with `systemNow()`, or a merchant's sandbox time
// with `sandboxNow()` (docs/api.md "Sandbox clock"). A lint rule (eslint.config.mjs) refuses `new Date()` and
// `Date.now()` elsewhere in lib/.

/** The real clock: the current instant as a Date. */
export function systemNow(): Date {
  return new Date();
}

/**
 * A merchant's sandbox time: `at` (default the real clock) moved `offsetMs` ahead (docs/api.md "Sandbox clock").
 * @param offsetMs the merchant's clock offset in milliseconds (0 = the real clock); a bigint or a number.
 */
export function sandboxNow(offsetMs: bigint | number, at: Date = systemNow()): Date {
  const offset = Number(offsetMs);
  return offset === 0 ? at : new Date(at.getTime() + offset);
}

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const ISO_DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/i;

/**
 * Parses a duration: a sequence of whole numbers with a unit, `s`, `m`, `h`, `d` or `w` (`90s`, `15m`, `2h`,
 * `1d12h`, `2w`), or an ISO 8601 duration without years and months (`PT2H`, `P1DT12H`, `P2W`).
 * @returns milliseconds (a whole number), or null when the text is not such a duration or is zero.
 */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  const iso = ISO_DURATION.exec(trimmed);
  if (iso && trimmed.length > 1 && !/T$/i.test(trimmed)) {
    const [w, d, h, m, s] = iso.slice(1).map((n) => Number(n ?? 0));
    const ms = w * UNIT_MS.w + d * UNIT_MS.d + h * UNIT_MS.h + m * UNIT_MS.m + s * UNIT_MS.s;
    return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
  }
  if (!/^(\d+[smhdw])+$/i.test(trimmed)) return null;
  let ms = 0;
  for (const [, n, unit] of trimmed.matchAll(/(\d+)([smhdw])/gi)) ms += Number(n) * UNIT_MS[unit.toLowerCase() as keyof typeof UNIT_MS];
  return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
}

/** A clock offset for people: `2d 3h 5m 10s`, `0s` for none (milliseconds below a second are left out). */
export function formatOffset(offsetMs: bigint | number): string {
  let seconds = Math.floor(Number(offsetMs) / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [
    ["d", 86_400],
    ["h", 3_600],
    ["m", 60],
    ["s", 1],
  ] as const) {
    const n = Math.floor(seconds / size);
    seconds -= n * size;
    if (n > 0) parts.push(`${n}${unit}`);
  }
  return parts.length ? parts.join(" ") : "0s";
}
