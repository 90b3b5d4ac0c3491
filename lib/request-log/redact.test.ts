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
  it("redacts at any depth: a secret member whatever its value (null kept), secrets inside strings and array items", () => {
    const body = {
      items: [{ url: "https://x.test/a", n: 1 }, "key sk_sandbox_abc123 here"],
      key: { a: 1 },
      token: null,
      note: "see /checkout/abcdefghijklmnopqrstu",
    };
    expect(JSON.parse(redactBody(JSON.stringify(body))!)).toEqual({
      items: [{ url: "[redacted]", n: 1 }, "key [redacted] here"],
      key: "[redacted]",
      token: null,
      note: "see [redacted]",
    });
  });
});
