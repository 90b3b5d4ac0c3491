import { formatConsoleTime, formatRelativeTime, formatRowTime, formatSandboxTime, isSandboxTime, isoOf, type TimeInput } from "@/lib/platform/time-format";

/**
 * A time in the console (docs/operating.md "Times in the console"): `<time>` with the text of lib/platform/time-format.ts,
 * "2026-11-26 23:57 Dubai", or under a moved sandbox clock (`recordedAt`, the real time the row was written, well
 * behind `at`) "2026-11-27 01:35 sandbox · 2026-11-26 23:35 Dubai". `sandbox` marks a time known to be a sandbox
 * clock's whose real time is not kept ("2026-11-27 01:50 sandbox": a moved-clock payment's acceptance end).
 * `zone={false}` in a column whose header names Dubai; "—" without a time.
 */
export function ConsoleTime({
  at,
  recordedAt,
  zone,
  seconds,
  sandbox: sandboxOnly = false,
}: {
  at: TimeInput | null | undefined;
  recordedAt?: TimeInput | null;
  zone?: boolean;
  seconds?: boolean;
  sandbox?: boolean;
}) {
  if (at === null || at === undefined) return <>—</>;
  const sandbox = sandboxOnly || isSandboxTime(at, recordedAt);
  return (
    <time dateTime={isoOf(at)} data-clock={sandbox ? "sandbox" : "real"} className={sandbox ? "text-amber-800" : undefined}>
      {sandboxOnly && !isSandboxTime(at, recordedAt) ? formatSandboxTime(at, { seconds }) : formatRowTime(at, recordedAt, { zone, seconds })}
    </time>
  );
}

/**
 * A time relative to `now` ("3 min ago"), with the exact console time on hover (`title`) and for screen readers
 * ("3 min ago, 2026-11-26 23:57 Dubai").
 */
export function RelativeTime({ at, now }: { at: TimeInput; now: TimeInput }) {
  const relative = formatRelativeTime(at, now);
  const exact = formatConsoleTime(at);
  return (
    <time dateTime={isoOf(at)} title={exact}>
      <span aria-hidden="true">{relative}</span>
      <span className="sr-only">{`${relative}, ${exact}`}</span>
    </time>
  );
}
