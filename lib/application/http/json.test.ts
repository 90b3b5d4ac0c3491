import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ApiError } from "@/lib/contract/errors";
import { parseJsonBody, queryObject, repeatedMember } from "@/lib/application/http/json";

const body = (text: string) => Buffer.from(text, "utf8");
const rejects = (text: string | Buffer, message: RegExp) => {
  try {
    parseJsonBody(typeof text === "string" ? body(text) : text);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("VALIDATION_ERROR");
    expect((error as ApiError).message).toMatch(message);
    return;
  }
  throw new Error(`accepted: ${String(text).slice(0, 80)}`);
};

describe("strict JSON request bodies", () => {
  it("rejects empty, non-UTF-8 and malformed bodies", () => {
    rejects("", /empty/);
    rejects(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), /not valid UTF-8; send JSON text encoded as UTF-8/);
    rejects("{'a':1}", /not valid JSON at position 1 \(line 1, column 2\)/);
    rejects('{"a":1}{"b":2}', /not valid JSON at position 7 \(line 1, column 8\)/);
  });

  it("rejects a member name repeated in one object, also when spelled with escapes, at any depth", () => {
    rejects('{"reference":"a","amount":"1.00","reference":"b"}', /repeats the member "reference"/);
    rejects('{"a":1,"\\u0061":2}', /repeats the member "a"/);
    rejects('{"customer":{"id":"x","email":"a@b.co","id":"y"}}', /repeats the member "id"/);
    rejects('[{"x":[{"k":1,"k":2}]}]', /repeats the member "k"/);
  });

  it("accepts the same name in sibling objects and names that only look alike", () => {
    expect(parseJsonBody(body('[{"a":1},{"a":2}]'))).toEqual([{ a: 1 }, { a: 2 }]);
    expect(parseJsonBody(body('{"a":{"a":{"a":1}},"b":"\\"a\\":1,\\"a\\":2"}'))).toEqual({ a: { a: { a: 1 } }, b: '"a":1,"a":2' });
    expect(parseJsonBody(body('{"a":1,"A":2,"a ":3,"\\\\a":4}'))).toEqual({ a: 1, A: 2, "a ": 3, "\\a": 4 });
  });

  it("rejects NUL and lone surrogates in strings and member names; accepts surrogate pairs", () => {
    rejects('{"reference":"a\\u0000b"}', /NUL or a lone surrogate/);
    rejects('{"reference":"\\ud800"}', /NUL or a lone surrogate/);
    rejects('{"reference":"x\\udc00"}', /NUL or a lone surrogate/);
    rejects('{"\\u0000":1}', /NUL or a lone surrogate/);
    rejects('[[["\\udbff"]]]', /NUL or a lone surrogate/);
    expect(parseJsonBody(body('{"r":"\\ud83d\\ude00 caf\\u00e9"}'))).toEqual({ r: "😀 café" });
  });

  it("survives nesting as deep as 32 KiB allows (iterative scan)", () => {
    const depth = 16_000;
    expect(parseJsonBody(body("[".repeat(depth) + "]".repeat(depth)))).toBeInstanceOf(Array);
    expect(repeatedMember('{"a":'.repeat(5000) + "1" + "}".repeat(5000))).toBeNull();
  });

  it("property: JSON.stringify output never repeats a member; adding a repeated member is always found", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        expect(repeatedMember(JSON.stringify(value))).toBeNull();
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1 }), fc.jsonValue({ maxDepth: 2 }), (object, extra) => {
        const name = Object.keys(object)[0];
        const text = JSON.stringify(object);
        const doubled = `${text.slice(0, -1)},${JSON.stringify(name)}:${JSON.stringify(extra)}}`;
        expect(repeatedMember(doubled)).toBe(name);
      }),
      { numRuns: 300 },
    );
  });
});

describe("query strings", () => {
  it("takes single values, rejects a repeated parameter or NUL", () => {
    expect(queryObject(new URLSearchParams("page=2&status=PENDING"))).toEqual({ page: "2", status: "PENDING" });
    expect(() => queryObject(new URLSearchParams("status=PENDING&status=FAILED"))).toThrow(/given more than once/);
    expect(() => queryObject(new URLSearchParams("search=a%00b"))).toThrow(/NUL/);
    expect(Object.keys(queryObject(new URLSearchParams("__proto__=x&constructor=y")))).toEqual(["__proto__", "constructor"]);
  });
});
