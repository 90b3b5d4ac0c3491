import { describe, expect, it } from "vitest";
import { againstLastWeek, countOf } from "./words";

describe("countOf", () => {
  it("says one thing in the singular and every other number in the plural", () => {
    expect(countOf(1, "delivery")).toBe("1 delivery");
    expect(countOf(2, "delivery")).toBe("2 deliveries");
    expect(countOf(0, "API key")).toBe("0 API keys");
    expect(countOf(1, "checkout session")).toBe("1 checkout session");
    expect(countOf(3, "pricing profile")).toBe("3 pricing profiles");
    expect(countOf(2, "attempt")).toBe("2 attempts");
    expect(countOf(2, "day")).toBe("2 days");
    expect(countOf(2, "match")).toBe("2 matches");
    expect(countOf(1n, "version")).toBe("1 version");
    expect(countOf(5, "person", "people")).toBe("5 people");
  });
});

describe("againstLastWeek", () => {
  it("says plainly when last week had nothing to compare with", () => {
    expect(againstLastWeek(3, 0, "0", "2026-11-19", "no payments")).toBe("no payments on 2026-11-19 to compare with");
    expect(againstLastWeek(0, 0, "0.00", "2026-11-19", "nothing charged")).toBe("nothing charged on 2026-11-19 either");
  });

  it("gives the change in per cent, or says it is the same", () => {
    expect(againstLastWeek(6, 5, "5", "2026-11-19", "no payments")).toBe("+20 % against 2026-11-19 (5)");
    expect(againstLastWeek(3, 5, "5", "2026-11-19", "no payments")).toBe("−40 % against 2026-11-19 (5)");
    expect(againstLastWeek(5, 5, "5", "2026-11-19", "no payments")).toBe("the same as on 2026-11-19 (5)");
    expect(againstLastWeek(0, 12.5, "12.50", "2026-11-19", "no payments")).toBe("−100 % against 2026-11-19 (12.50)");
  });
});
