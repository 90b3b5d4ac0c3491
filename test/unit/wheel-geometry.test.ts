import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { FULL_TURNS, SEGMENTS, TARGET_SEGMENT, wheelGeometry } from "@/components/store/wheel-geometry";
import { fromMinor } from "@/lib/contract/money/currency";

// The discount wheel lands on the computed discount: exactly one segment carries an amount, it is the
// discount, and the final rotation brings that segment's centre under the pointer at the top.

describe("discount wheel geometry", () => {
  it("six segments; only the target carries the discount; the final rotation lands it at the top after five turns", () => {
    const { segments, finalRotation } = wheelGeometry("0.34");
    expect(segments).toHaveLength(SEGMENTS);
    expect(segments.filter((s) => s.label !== null)).toEqual([expect.objectContaining({ index: TARGET_SEGMENT, label: "0.34" })]);
    expect(finalRotation).toBeGreaterThanOrEqual(FULL_TURNS * 360);
    expect((segments[TARGET_SEGMENT]!.angle + finalRotation) % 360).toBe(0);
    expect(segments[0]!.path).toBe("M 0 0 L -50 -86.603 A 100 100 0 0 1 50 -86.603 Z");
  });

  it("the landed drawing (turned by the final rotation, no transform) is the rotated wheel: the discount at the top, every segment where the spin left it", () => {
    const { segments, finalRotation } = wheelGeometry("12.50");
    const landed = wheelGeometry("12.50", finalRotation % 360);
    expect(landed.finalRotation).toBe(finalRotation);
    expect(landed.segments.find((s) => s.label !== null)).toMatchObject({ index: TARGET_SEGMENT, angle: 0, label: "12.50" });
    for (const s of landed.segments) {
      expect(s.angle, `segment ${s.index}`).toBe((segments[s.index]!.angle + finalRotation) % 360);
      // Same picture as the segment now at that angle in the unturned wheel; only the content moved with the turn.
      const atThatAngle = segments.find((u) => u.angle === s.angle)!;
      expect(s.path).toBe(atThatAngle.path);
      expect(s.textTransform).toBe(atThatAngle.textTransform);
      expect([s.fill, s.symbol]).toEqual([segments[s.index]!.fill, segments[s.index]!.symbol]);
    }
  });

  it("for any discount: the landing segment's label equals the discount and the label fits its segment", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 99_999_999_999n }), (minor) => {
        const discount = fromMinor(minor);
        const { segments, finalRotation } = wheelGeometry(discount);
        // The segment under the pointer: centre angle + rotation = 0 (mod 360).
        const landed = segments.find((s) => (((s.angle + finalRotation) % 360) + 360) % 360 === 0)!;
        expect(landed.label).toBe(discount);
        expect(segments.filter((s) => s.label !== null)).toHaveLength(1);
        const width = 0.6 * landed.fontSize * discount.replace(/\B(?=(\d{3})+\.)/g, ",").length;
        expect(width).toBeLessThanOrEqual(58.5);
      }),
    );
  });
});
