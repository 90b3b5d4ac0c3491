import { describe, expect, it } from "vitest";
import { redactBody } from "./redact";

// docs/api.md "Request log": what the log keeps of a body.
describe("redactBody", () => {
  it("keeps a body that is not JSON, with a NUL written as \\u0000 (PostgreSQL text cannot hold one)", () => {
    expect(redactBody('{"a":1\u0000')).toBe('{"a":1\\u0000');
    expect(redactBody('{"a":"x\\u0000y"}')).toBe('{"a":"x\\u0000y"}');
    expect(redactBody("plain")).toBe("plain");
  });
  it("redacts members named like secrets and cuts long bodies", () => {
    expect(redactBody('{"secret":"s","amount":"1.00"}')).toBe('{"secret":"[redacted]","amount":"1.00"}');
    expect(redactBody("x".repeat(100), 10)).toMatch(/^x{10}\.\.\.\[cut: 90 more bytes\]$/);
  });
});
