"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import { groupedAmount } from "@/components/checkout/amount";
import { wheelGeometry, type WheelSegment } from "@/components/store/wheel-geometry";

const SPIN_MS = 4200;
const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

function subscribeReducedMotion(onChange: () => void): () => void {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}
const prefersReducedMotion = () => window.matchMedia(REDUCED_MOTION).matches;

function Segment({ segment, locale }: { segment: WheelSegment; locale: string }) {
  return (
    <g data-segment={segment.index} data-label={segment.label ?? ""}>
      <path d={segment.path} fill={segment.fill} stroke="#ffffff" strokeWidth={1.5} />
      {segment.label !== null ? (
        <text transform={segment.textTransform} textAnchor="middle" className="fill-slate-950 font-semibold" style={{ fontSize: segment.fontSize }}>
          <tspan x={0} dy={-2}>
            AED
          </tspan>
          <tspan x={0} dy={segment.fontSize + 1}>
            {groupedAmount(segment.label, locale)}
          </tspan>
        </text>
      ) : (
        <text transform={segment.textTransform} textAnchor="middle" dominantBaseline="middle" className="fill-slate-700" style={{ fontSize: 14 }}>
          {segment.symbol}
        </text>
      )}
    </g>
  );
}

/**
 * The store's discount wheel (docs/api.md "Overview" 6: "The store shows the discount on a
 * wheel"). An SVG wheel of six segments; exactly one carries the computed discount and the spin always
 * lands on it under the pointer (the other segments carry symbols, never other amounts: the discount is
 * fixed by the basket, the wheel only reveals it, and the page says so). The spin is a 4.2 s CSS
 * transition, started by the page's script: the server's page (and a browser without JavaScript, or before the script
 * has loaded) shows the wheel landed on the result and the discount below it; with prefers-reduced-motion the wheel
 * stays there without spinning. When it lands, the discount row below and a polite live region announce the amount.
 * @param discount AED decimal text, e.g. "3.42" (> 0)
 * @param labels the words shown, in the page's language: the discount as the page formats it, e.g. "AED 3.42", the
 * spinning placeholder, the caption, the discount row's label, the wheel's names landed ("{amount}" where the discount
 * goes) and turning, and the announcement ("{amount}" too); `locale` formats the segment's figure (BCP 47).
 */
export function DiscountWheel({
  discount,
  labels,
}: {
  discount: string;
  labels: { amount: string; spinning: string; caption: string; discount: string; showing: string; turning: string; announce: string; locale: string };
}) {
  const geometry = wheelGeometry(discount);
  const reduced = useSyncExternalStore(subscribeReducedMotion, prefersReducedMotion, () => false);
  // "landed" first: what the server renders, so the page without its script shows the result.
  const [phase, setPhase] = useState<"resting" | "spinning" | "landed">("landed");
  const [spun, setSpun] = useState(false);

  useEffect(() => {
    if (reduced || spun) return;
    let next = 0;
    // Back to the resting wheel on the next frame, then spin from there on the one after, so the transition runs.
    const frame = requestAnimationFrame(() => {
      setPhase("resting");
      next = requestAnimationFrame(() => setPhase((p) => (p === "resting" ? "spinning" : p)));
    });
    // transitionend may not fire (tab in the background); land at the end of the spin regardless.
    const timer = setTimeout(() => {
      setPhase("landed");
      setSpun(true);
    }, SPIN_MS + 100);
    return () => {
      cancelAnimationFrame(frame);
      cancelAnimationFrame(next);
      clearTimeout(timer);
    };
  }, [reduced, spun]);

  const landed = reduced || phase === "landed";
  const rotation = phase === "spinning" ? geometry.finalRotation : 0;
  // Landed: the same picture drawn turned (no CSS transform left on the wheel; see wheelGeometry).
  const drawn = landed ? wheelGeometry(discount, geometry.finalRotation % 360) : geometry;
  return (
    <div className="space-y-3">
      <figure className="mx-auto w-full max-w-[17rem]" aria-labelledby="wheel-caption">
        <svg
          viewBox="-105 -118 210 223"
          className="h-auto w-full"
          role="img"
          aria-label={landed ? labels.showing.replace("{amount}", labels.amount) : labels.turning}
          data-testid="discount-wheel"
          data-landed={landed ? "true" : "false"}
        >
          <g
            onTransitionEnd={() => {
              setPhase("landed");
              setSpun(true);
            }}
            style={{
              transform: landed ? "none" : `rotate(${rotation}deg)`,
              transformOrigin: "0px 0px",
              transition: !landed && phase === "spinning" ? `transform ${SPIN_MS}ms cubic-bezier(0.15, 0.65, 0.1, 1)` : "none",
            }}
            className="motion-reduce:!transition-none"
          >
            <circle r={101} fill="#0f172a" />
            {drawn.segments.map((s) => (
              <Segment key={s.index} segment={s} locale={labels.locale} />
            ))}
            <circle r={14} fill="#0f172a" />
            <circle r={5} fill="#fbbf24" />
          </g>
          {/* The pointer: a downward triangle above the wheel's top. */}
          <path d="M -11 -116 L 11 -116 L 0 -94 Z" fill="#b91c1c" stroke="#ffffff" strokeWidth={2} data-testid="wheel-pointer" />
        </svg>
        <figcaption id="wheel-caption" className="mt-2 text-center text-xs text-slate-600">
          {labels.caption}
        </figcaption>
      </figure>
      <div className="flex items-baseline justify-between gap-4 rounded-lg bg-emerald-50 px-3 py-2 text-emerald-950">
        <span className="font-medium">{labels.discount}</span>
        <span className="font-semibold tabular-nums" data-testid="discount-value">
          {landed ? `− ${labels.amount}` : labels.spinning}
        </span>
      </div>
      <p className="sr-only" aria-live="polite">
        {landed && (spun || reduced) ? labels.announce.replace("{amount}", labels.amount) : ""}
      </p>
    </div>
  );
}
