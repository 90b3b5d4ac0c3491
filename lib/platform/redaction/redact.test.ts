import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { after, before, cardNumber, leaks, secret } from "../../../test/support/secrets";
import { luhnValid, redactBody, redactQuery, redactText, redactValue } from "./redact";

// docs/api.md "Request log" and docs/operating.md "Secrets in logs and traces": the one redaction rule.
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
  const name = fc.constantFrom("note", "search", "q", "password", "cvv", "pan", "data", "api_key", "x");
  const text = fc.string({ maxLength: 12 }).map((s) => s.replace(/[0-9\uFF10-\uFF19]/g, ""));

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
        const value = encodeAll ? [...Buffer.from(s)].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("") : encodeURIComponent(s);
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

  it("a card number in any writing (separators, full-width digits), wherever it stands, through every outlet's function", () => {
    fc.assert(
      fc.property(cardNumber, before, after, name, (card, head, tail, member) => {
        const inner = `${head}${card}${tail}`;
        const outlets = [
          redactText(inner),
          redactText(`GET /v1/payments/${inner}?search=${encodeURIComponent(inner)}`),
          redactBody(JSON.stringify({ reference: inner, [member]: { note: inner } }))!,
          redactBody(`{"reference":"${inner}","note":"${inner}",`)!,
          redactQuery(`search=${encodeURIComponent(inner)}&page=1`)!,
          JSON.stringify(redactValue({ msg: inner, path: `/v1/payments/${inner}`, err: new Error(`bad value ${inner}`) })),
          JSON.stringify(redactValue({ "http.target": `/v1/payments?search=${inner}`, "exception.message": inner })),
        ];
        for (const stored of outlets) expect(leaks(stored, [card]), stored).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it("secret-named members of a body that is not valid JSON, and secret-named parameters of a URL", () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{7,24}$/);
    fc.assert(
      fc.property(word, fc.stringMatching(/^[0-9]{3,4}$/), secret, (password, cvv, key) => {
        const body = `{"reference":"x","cvv":"${cvv}","password":"${password}","api_key":"${key}",`;
        const stored = redactBody(body)!;
        expect(stored).toBe('{"reference":"x","cvv":"[redacted]","password":"[redacted]","api_key":"[redacted]",');
        const url = redactText(`/v1/payments?password=${password}&api_key=${encodeURIComponent(key)}&page=1`);
        expect(url).toBe("/v1/payments?password=[redacted]&api_key=[redacted]&page=1");
      }),
    );
  });

  it("the reported reproductions", () => {
    expect(redactBody('{"reference":"x","cvv":"987","password":"Hunter2Secret",')).toBe('{"reference":"x","cvv":"[redacted]","password":"[redacted]",');
    expect(redactBody('{"reference":"sec-a4cfe7-4242424242424242"}')).toBe('{"reference":"sec-a4cfe7-[redacted: card number]"}');
    for (const written of [
      "4242.4242.4242.4242",
      "4242_4242_4242_4242",
      "4242\u00A04242\u00A04242\u00A04242",
      "4242/4242/4242/4242",
      "４２４２４２４２４２４２４２４２",
    ]) {
      expect(redactText(`card ${written}.`)).toBe("card [redacted: card number].");
    }
    expect(redactText("/v1/payments/4242424242424242")).toBe("/v1/payments/[redacted: card number]");
    expect(redactText("/v1/payments?search=4242424242424242&password=x&api_key=sk_sandbox_abc")).toBe(
      "/v1/payments?search=[redacted: card number]&password=[redacted]&api_key=[redacted]",
    );
  });

  it("log fields: an Error's message and stack, a URL object, a secret-named member at any depth; dates kept", () => {
    const at = new Date("2026-11-28T00:00:00.000Z");
    const fields = redactValue({
      err: new Error("no payment 4242424242424242"),
      target: new URL("http://x.test/v1/payments?password=hunter2&q=4242 4242 4242 4242"),
      nested: { deeper: { apiKey: "sk_sandbox_abc", at } },
    }) as { err: { message: string; stack: string }; target: string; nested: { deeper: { apiKey: string; at: Date } } };
    expect(fields.err.message).toBe("no payment [redacted: card number]");
    expect(fields.err.stack).not.toContain("4242424242424242");
    expect(fields.target).toBe("http://x.test/v1/payments?password=[redacted]&q=[redacted: card number]");
    expect(fields.nested.deeper).toEqual({ apiKey: "[redacted]", at });
  });

  it("keeps what is not a secret: ids, times, amounts, prose naming a member", () => {
    for (const kept of ["2026-11-28T02:06:29.123Z", "amount 10.00 AED", "forwardToken: issued to another API key's stream", "page=2&limit=50", "4242 4242"]) {
      expect(redactText(kept)).toBe(kept);
    }
  });

  it("ids and times skip the scans and are kept; a time that is not one of those is still searched", () => {
    for (const kept of [
      "0f8fad5b-d9cb-469f-a165-70867728950e",
      "0F8FAD5B-D9CB-469F-A165-70867728950E",
      "2026-11-28T14:43:00Z",
      "2026-11-28T14:43:00.123456+04:00",
    ]) {
      expect(redactText(kept)).toBe(kept);
      expect(redactValue({ id: kept })).toEqual({ id: kept });
    }
    // Nine fraction digits and an offset: "00.123456788-04" is 13 digits joined by separators and passes Luhn.
    expect(redactText("2026-11-28T14:43:00.123456788-04:00")).toBe("2026-11-28T14:43:[redacted: card number]:00");
    // A UUID followed by more text is not a whole id: a card number after it is still found.
    expect(redactText("0f8fad5b-d9cb-469f-a165-70867728950e 4242424242424242")).toBe("0f8fad5b-d9cb-469f-a165-70867728950e [redacted: card number]");
    expect(redactText("BEARER abc.def")).toBe("[redacted: bearer token]");
  });
});
