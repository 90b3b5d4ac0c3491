// Geometry of the discount wheel (pure; used by the client component and its unit test).
import { groupedAmount } from "@/components/checkout/amount";

/** Number of segments of the wheel. */
export const SEGMENTS = 6;
/** Index of the segment that carries the discount. */
export const TARGET_SEGMENT = 4;
/** Full turns before the wheel lands. */
export const FULL_TURNS = 5;
const RADIUS = 100;
const LABEL_RADIUS = 60;
const FILLS = ["#fde68a", "#bae6fd", "#bbf7d0", "#fecdd3", "#fef3c7", "#ddd6fe"];
const SYMBOLS = ["★", "◆", "●", "▲", "", "✦"];

export type WheelSegment = {
  index: number;
  /** Centre angle in degrees, clockwise from the top. */
  angle: number;
  path: string;
  fill: string;
  textTransform: string;
  /** The discount (AED decimal text) on the target segment, null elsewhere. */
  label: string | null;
  symbol: string;
  fontSize: number;
};

/** Point on a circle of radius r at `deg` degrees clockwise from the top (SVG coordinates, y down). */
function point(r: number, deg: number): string {
  const rad = (deg * Math.PI) / 180;
  const round = (v: number) => Math.round(v * 1000) / 1000 + 0; // + 0 turns -0 into 0
  return `${round(r * Math.sin(rad))} ${round(-r * Math.cos(rad))}`;
}

/**
 * The wheel for a discount: six equal segments (centre angles 0, 60, ..., 300 degrees), the discount on
 * segment TARGET_SEGMENT, and the final rotation (degrees, clockwise) that brings that segment's centre
 * under the pointer at the top after FULL_TURNS turns: (angle + finalRotation) mod 360 = 0.
 * `turn` (degrees, default 0) draws the same wheel turned clockwise: every centre angle is
 * (index x 60 + turn) mod 360; finalRotation is always counted from the unturned wheel. The landed wheel
 * is drawn with `turn = finalRotation mod 360` and no CSS transform, the same picture as the rotated one:
 * the boxes of rotated elements (their rotated bounding boxes) reach far outside the wheel and would seem
 * to cover the text below it to contrast checkers such as axe-core.
 * Angles are display geometry only; the amount stays text.
 */
export function wheelGeometry(discount: string, turn = 0): { segments: WheelSegment[]; finalRotation: number } {
  const step = 360 / SEGMENTS;
  const labelChars = groupedAmount(discount).length;
  const segments = Array.from({ length: SEGMENTS }, (_, index): WheelSegment => {
    const angle = (((index * step + turn) % 360) + 360) % 360;
    const target = index === TARGET_SEGMENT;
    return {
      index,
      angle,
      path: `M 0 0 L ${point(RADIUS, angle - step / 2)} A ${RADIUS} ${RADIUS} 0 0 1 ${point(RADIUS, angle + step / 2)} Z`,
      fill: FILLS[index % FILLS.length]!,
      textTransform: `rotate(${angle}) translate(0 ${-LABEL_RADIUS})`,
      label: target ? discount : null,
      symbol: SYMBOLS[index % SYMBOLS.length]!,
      // Fits the label in the segment's width at the label radius (about 58 units).
      fontSize: Math.min(14, Math.floor((58 / (0.6 * labelChars)) * 10) / 10),
    };
  });
  const finalRotation = FULL_TURNS * 360 + ((360 - TARGET_SEGMENT * step) % 360);
  return { segments, finalRotation };
}
