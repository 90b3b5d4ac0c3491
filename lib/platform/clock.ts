// The one source of "now" for the domain (docs/decisions/0150-one-source-of-now.md). Every rule that reads the time
// takes a `now` from its caller; callers get it here: the real clock with `systemNow()`, or a merchant's sandbox time
// with `sandboxNow()` (docs/api.md "Sandbox clock"). A lint rule (eslint.config.mjs) refuses `new Date()` and
// `Date.now()` elsewhere in lib/.

declare const CLOCK: unique symbol;

/**
 * An instant of the real clock (docs/architecture.md "Which clock a column holds"): what `systemNow()` gives and the
 * `recorded_at` columns, deliveries and listener forwards hold. A `Date` everywhere a `Date` is taken, but never a
 * {@link SandboxInstant}: passing one where the other is wanted does not compile.
 */
export type RealInstant = Date & { readonly [CLOCK]: "real" };

/**
 * An instant of a merchant's sandbox clock (docs/api.md "Sandbox clock"): what `sandboxNow()` gives and the
 * merchant's `created_at`, `expires_at`, ... columns hold. Equal to the real time while the clock is not moved, but
 * never a {@link RealInstant} by type.
 */
export type SandboxInstant = Date & { readonly [CLOCK]: "sandbox" };

/** An instant of either clock, knowing which. */
export type Instant = RealInstant | SandboxInstant;

/** The real clock: the current instant. */
export function systemNow(): RealInstant {
  return new Date() as RealInstant;
}

/**
 * A merchant's sandbox time: `at` (default the real clock) moved `offsetMs` ahead (docs/api.md "Sandbox clock").
 * @param offsetMs the merchant's clock offset in milliseconds (0 = the real clock); a bigint or a number.
 */
export function sandboxNow(offsetMs: bigint | number, at: RealInstant = systemNow()): SandboxInstant {
  return new Date(at.getTime() + Number(offsetMs)) as SandboxInstant;
}

/**
 * The real instant at which a merchant whose clock runs `offsetMs` ahead reaches sandbox time `at` (the inverse of
 * {@link sandboxNow}): when a sandbox due time comes on the real clock.
 */
export function realAt(offsetMs: bigint | number, at: SandboxInstant): RealInstant {
  return new Date(at.getTime() - Number(offsetMs)) as RealInstant;
}

/**
 * A stored or received instant known to be real time (a `recorded_at` column, a delivery's attempt, a listener's
 * report; docs/architecture.md "Which clock a column holds"), typed so.
 * @throws RangeError when `value` is not a valid instant.
 */
export function realInstant(value: Date | string | number): RealInstant {
  return checked(value) as RealInstant;
}

/**
 * A stored or received instant known to be a merchant's sandbox time (its payments' and events' `created_at`,
 * `expires_at`; docs/architecture.md "Which clock a column holds"), typed so.
 * @throws RangeError when `value` is not a valid instant.
 */
export function sandboxInstant(value: Date | string | number): SandboxInstant {
  return checked(value) as SandboxInstant;
}

function checked(value: Date | string | number): Date {
  const at = new Date(value instanceof Date ? value.getTime() : value);
  if (Number.isNaN(at.getTime())) throw new RangeError(`not an instant: ${String(value)}`);
  return at;
}

/** `at` moved `ms` milliseconds (negative: back) on its own clock. */
export function later<T extends Instant>(at: T, ms: number): T {
  return new Date(at.getTime() + ms) as T;
}

/** True when `a` lies before `b`; both of one clock (comparing a real and a sandbox instant does not compile). */
export function isBefore<T extends Instant>(a: T, b: NoInfer<T>): boolean {
  return a.getTime() < b.getTime();
}

/** Milliseconds from `a` to `b` (negative when `b` is earlier); both of one clock. */
export function msBetween<T extends Instant>(a: T, b: NoInfer<T>): number {
  return b.getTime() - a.getTime();
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
    const [w = 0, d = 0, h = 0, m = 0, s = 0] = iso.slice(1).map((n) => Number(n ?? 0));
    const ms = w * UNIT_MS.w + d * UNIT_MS.d + h * UNIT_MS.h + m * UNIT_MS.m + s * UNIT_MS.s;
    return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
  }
  if (!/^(\d+[smhdw])+$/i.test(trimmed)) return null;
  let ms = 0;
  for (const [, n, unit = ""] of trimmed.matchAll(/(\d+)([smhdw])/gi)) ms += Number(n) * UNIT_MS[unit.toLowerCase() as keyof typeof UNIT_MS];
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
