import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { luhnValid, redactBody, redactQuery, redactText } from "./redact";

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
      items: [{ url: "[redacted]", n: 1 }, "key [redacted: api key] here"],
      key: "[redacted]",
      token: null,
      note: "see [redacted: page link]",
    });
  });
});

/** Whatever a stored text must never hold: an API key, a whsec_ secret, a bearer token, a Luhn-valid card number. */
function leaks(stored: string, secrets: string[]): string[] {
  const found = secrets.filter((s) => stored.includes(s));
  for (const run of stored.match(/(?<![0-9])[0-9](?:[ -]?[0-9]){12,18}(?![0-9])/g) ?? []) {
    if (luhnValid(run.replace(/[ -]/g, ""))) found.push(`card ${run}`);
  }
  return found;
}

/** A Luhn-valid card number of `length` digits from `body` (length - 1 digits), written with `separator` every 4. */
function card(body: string, separator: string): string {
  for (let check = 0; check <= 9; check++) {
    if (luhnValid(body + check)) return (body + check).replace(/(\d{4})(?=\d)/g, `$1${separator}`);
  }
  throw new Error("unreachable");
}

describe("redactText keeps ids", () => {
  it("a UUID whose digit groups would pass Luhn is kept whole; a card number beside it is redacted", () => {
    // "66-9962-4172907" inside this UUID is 13 digits passing Luhn: it was once redacted from a logged path.
    const id = "90f87e08-a723-4c66-9962-4172907d1b37";
    expect(luhnValid("6699624172907")).toBe(true);
    expect(redactText(`/v1/sandbox/scenario-rules/${id}`)).toBe(`/v1/sandbox/scenario-rules/${id}`);
    expect(redactText("12345678-1234-1234-1234-123456789012")).toBe("12345678-1234-1234-1234-123456789012");
    expect(redactText(`${id} 4111 1111 1111 1111`)).toBe(`${id} [redacted: card number]`);
  });
});

describe("redaction, property: no secret survives whatever its placement or encoding", () => {
  const alnum = fc.stringMatching(/^[A-Za-z0-9]{20,43}$/);
  const secret = fc.oneof(
    alnum.map((s) => `sk_sandbox_${s}`),
    alnum.map((s) => `whsec_${s}`),
    fc
      .tuple(fc.integer({ min: 12, max: 18 }), fc.constantFrom("", " ", "-"))
      .chain(([n, sep]) => fc.stringMatching(new RegExp(`^[1-9][0-9]{${n - 1}}$`)).map((digits) => card(digits, sep))),
  );
  const name = fc.constantFrom("note", "search", "q", "password", "cvv", "pan", "data", "api_key", "x");
  const text = fc.string({ maxLength: 12 }).map((s) => s.replace(/[0-9]/g, ""));

  it("in a JSON body (member value, member name, array item, nested, number)", () => {
    fc.assert(
      fc.property(secret, name, text, text, fc.integer({ min: 0, max: 4 }), (s, member, before, after, placement) => {
        const inner = `${before}${s}${after}`;
        const bodies = [
          { [member]: inner },
          { [inner]: 1 },
          { items: [inner] },
          { a: { b: { [member]: [inner] } } },
          { [member]: /^[0-9]+$/.test(s) ? Number(s) : inner },
        ];
        const stored = redactBody(JSON.stringify(bodies[placement]))!;
        expect(leaks(stored, [s])).toEqual([]);
        expect(leaks(redactBody(`not json ${inner}`)!, [s])).toEqual([]);
      }),
    );
  });

  it("in a query (as sent or percent-encoded, any parameter name) and in an Idempotency-Key", () => {
    fc.assert(
      fc.property(secret, name, fc.boolean(), (s, param, encodeAll) => {
        const value = encodeAll ? [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`).join("") : encodeURIComponent(s);
        const stored = redactQuery(`page=1&${param}=${value}&${value}=x`)!;
        expect(leaks(decodeURIComponent(stored), [s])).toEqual([]);
        expect(leaks(stored, [s])).toEqual([]);
        expect(leaks(redactText(`idem-${s}`), [s])).toEqual([]);
      }),
    );
  });

  it("redacts query parameters named like secrets and keeps the others as sent", () => {
    expect(redactQuery("search=abc&password=hunter2&api_key=zz&page=2")).toBe("search=abc&password=%5Bredacted%5D&api_key=%5Bredacted%5D&page=2");
    expect(redactText("Bearer abc.def-1")).toBe("[redacted: bearer token]");
    expect(redactBody('{"pan":"4111111111111111","cvv":"123","note":"4111-1111-1111-1111"}')).toBe(
      '{"pan":"[redacted]","cvv":"[redacted]","note":"[redacted: card number]"}',
    );
  });
});
