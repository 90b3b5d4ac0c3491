import { describe, expect, it } from "vitest";
import {
  browserTimeZone,
  formatConsoleDay,
  formatConsoleTime,
  formatCustomerTime,
  formatRelativeTime,
  formatRowTime,
  formatSandboxTime,
  isSandboxTime,
  zoneName,
} from "@/lib/platform/time-format";

describe('console times: Dubai, 24-hour, the zone named (docs/operating.md "Times in the console")', () => {
  it("Dubai midnight: 20:00 UTC is the next day's 00:00 in Dubai", () => {
    expect(formatConsoleTime("2026-11-26T20:00:00Z")).toBe("2026-11-27 00:00 Dubai");
    expect(formatConsoleTime("2026-11-26T19:59:59Z")).toBe("2026-11-26 23:59 Dubai");
    expect(formatConsoleDay("2026-11-26T20:00:00Z")).toBe("2026-11-27");
  });

  it("month and year end roll over in Dubai, not in UTC", () => {
    expect(formatConsoleTime(new Date("2026-11-30T20:30:00Z"))).toBe("2026-12-01 00:30 Dubai");
    expect(formatConsoleTime("2026-12-31T21:05:00Z")).toBe("2027-01-01 01:05 Dubai");
    expect(formatConsoleDay("2027-02-28T20:00:00Z")).toBe("2027-03-01");
  });

  it("seconds on request; no zone under a header that names it; a dash for no time", () => {
    expect(formatConsoleTime("2026-11-21T20:30:05Z", { seconds: true })).toBe("2026-11-22 00:30:05 Dubai");
    expect(formatConsoleTime("2026-11-21T20:30:05Z", { zone: false })).toBe("2026-11-22 00:30");
    expect([formatConsoleTime(null), formatConsoleDay(undefined), formatSandboxTime(null), formatRowTime(null, null)]).toEqual(["—", "—", "—", "—"]);
    expect(() => formatConsoleTime("not a time")).toThrow(RangeError);
  });
});

describe("sandbox times beside real ones", () => {
  it("a row written under a moved clock shows its sandbox time and the real time it was written", () => {
    expect(isSandboxTime("2026-11-26T21:35:00Z", "2026-11-26T19:35:00Z")).toBe(true);
    expect(formatRowTime("2026-11-26T21:35:00Z", "2026-11-26T19:35:00Z")).toBe("2026-11-27 01:35 sandbox · 2026-11-26 23:35 Dubai");
    expect(formatSandboxTime("2026-11-26T21:35:00Z")).toBe("2026-11-27 01:35 sandbox");
  });

  it("a row on the real clock (its time a moment before or after it was written) is a Dubai time only", () => {
    expect(formatRowTime("2026-11-26T19:35:00.000Z", "2026-11-26T19:35:00.040Z")).toBe("2026-11-26 23:35 Dubai");
    expect(formatRowTime("2026-11-26T19:35:00.300Z", "2026-11-26T19:35:00.000Z", { zone: false })).toBe("2026-11-26 23:35");
    expect(isSandboxTime("2026-11-26T19:35:01.500Z", "2026-11-26T19:35:00Z")).toBe(true);
    // Rows from before the real time was kept: nothing to compare with.
    expect(formatRowTime("2026-11-26T21:35:00Z", null)).toBe("2026-11-27 01:35 Dubai");
  });
});

describe("relative times", () => {
  const now = "2026-11-26T20:00:00Z";
  it("says the largest whole unit, past and future", () => {
    expect(formatRelativeTime("2026-11-26T19:57:00Z", now)).toBe("3 min ago");
    expect(formatRelativeTime("2026-11-26T19:59:55Z", now)).toBe("just now");
    expect(formatRelativeTime("2026-11-26T19:59:30Z", now)).toBe("30 s ago");
    expect(formatRelativeTime("2026-11-26T17:59:00Z", now)).toBe("2 h ago");
    expect(formatRelativeTime("2026-11-25T19:00:00Z", now)).toBe("1 day ago");
    expect(formatRelativeTime("2026-11-21T20:00:00Z", now)).toBe("5 days ago");
    expect(formatRelativeTime("2026-11-26T20:05:00Z", now)).toBe("in 5 min");
  });
});

describe("customer times: their own zone, named", () => {
  it("names the zone by its city, UTC as UTC", () => {
    expect([zoneName("Asia/Dubai"), zoneName("America/New_York"), zoneName("America/Argentina/Buenos_Aires"), zoneName("UTC"), zoneName("Etc/UTC")]).toEqual([
      "Dubai",
      "New York",
      "Buenos Aires",
      "UTC",
      "UTC",
    ]);
  });

  it("formats in the zone given, 24-hour", () => {
    expect(formatCustomerTime("2026-11-26T20:09:00Z", "UTC")).toBe("26 Nov 2026, 20:09 UTC");
    expect(formatCustomerTime("2026-11-26T20:09:00Z", "America/New_York")).toBe("26 Nov 2026, 15:09 New York time");
    expect(formatCustomerTime("2026-11-26T20:09:00Z", "Asia/Dubai")).toBe("27 Nov 2026, 00:09 Dubai time");
    expect(() => formatCustomerTime("2026-11-26T20:09:00Z", "Not/AZone")).toThrow(RangeError);
    expect(browserTimeZone()).toMatch(/\S/);
  });

  it("in Arabic: the day, month and year roll over in the customer's zone at Dubai midnight and a month's end, the zone named", () => {
    // 20:30 UTC on 30 November is 00:30 on 1 December in Dubai; in UTC it is still November.
    expect(formatCustomerTime("2026-11-30T20:30:00Z", "Asia/Dubai", "ar-AE")).toBe("1 ديسمبر 2026، 00:30 توقيت الخليج");
    expect(formatCustomerTime("2026-11-30T20:30:00Z", "UTC", "ar-AE")).toMatch(/^30 نوفمبر 2026، 20:30 /);
    expect(formatCustomerTime("2026-12-31T21:05:00Z", "Asia/Dubai", "ar-AE")).toMatch(/^1 يناير 2027، 01:05 توقيت الخليج$/);
  });
});
