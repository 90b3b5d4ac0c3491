import { describe, expect, it } from "vitest";
import { compactNumber, latencyLabel, latencyScale, NBSP } from "@/components/console/charts/daily-chart";

// The console charts' scales and tick labels (docs/guides/console-for-operators.md "Charts"): every point inside the scale with headroom, labels
// short and unbreakable.

describe("latencyScale", () => {
  it("runs from half the smallest to twice the largest value, its top tick above every point", () => {
    const { domain, ticks } = latencyScale([null, 1024, 32768, null, 128]);
    expect(domain).toEqual([64, 65536]);
    expect(ticks.at(-1)).toBe(65536);
    expect(ticks.length).toBeLessThanOrEqual(6);
    for (const t of ticks) expect(Math.log2(t) % 1).toBe(0);
    for (const t of ticks) expect(t >= domain[0] && t <= domain[1]).toBe(true);
  });

  it("gives one value a bucket of room on each side, and a default range without values", () => {
    expect(latencyScale([256])).toEqual({ domain: [128, 512], ticks: [128, 256, 512] });
    expect(latencyScale([null, null]).domain).toEqual([1, 1024]);
  });
});

describe("tick labels", () => {
  it("write latency in ms below a second and in seconds from one up, joined by a no-break space", () => {
    expect(latencyLabel(512)).toBe(`512${NBSP}ms`);
    expect(latencyLabel(32768)).toBe(`32.8${NBSP}s`);
    expect(latencyLabel(1024)).toBe(`1.02${NBSP}s`);
    expect(latencyLabel(65536)).not.toMatch(/ /);
  });

  it("write counts and amounts compactly", () => {
    expect(compactNumber(950)).toBe("950");
    expect(compactNumber(1500)).toBe("1.5K");
    expect(compactNumber(2_000_000)).toBe("2M");
  });
});
