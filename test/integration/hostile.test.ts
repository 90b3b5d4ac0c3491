import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { IDEMPOTENCY_KEY_PATTERN } from "@/lib/application/http/idempotency";
import { MAX_BODY_BYTES } from "@/lib/application/http/body";
import type { Operation } from "@/lib/application/openapi/operations";
import { call, type TestMerchant } from "../support/fixtures";
import { exampleBody, expectContractError, footprint, implementedOperations, merchantFor, pathOf, recordFor } from "../support/operations";
import { assertPresent } from "../../scripts/harness/present";

// Hostile input against the running service (docs/api.md "Errors";
// docs/decisions/0047-duplicate-members-nul-and-lone-surrogates-are-refused.md: bad input gets a clear error in the
// contract's envelope and changes nothing). Every property runs against every implemented operation of the registry,
// with a fresh merchant (so rate limits never mask a validation answer), and checks after each request that nothing
// the merchant owns changed. call() also checks each response against the document.

const RUNS = { body: 150, raw: 100, headers: 100, query: 120, path: 60 };
const TIMEOUT = 180_000;

// --- arbitraries -------------------------------------------------------------------------------------------
// Header-safe text: what an HTTP client can put in a header value (printable Latin-1, no DEL or controls).
const latin1 = fc.string({
  unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});
const tricky = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "0",
  "-1",
  "+1",
  "1e3",
  "1.234",
  ".5",
  "5.",
  "00001.00",
  "１２３",
  "١٢٣",
  "NaN",
  "Infinity",
  "12345678901",
  "99999999999.99",
  "9999999999.99",
  "0x10",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%00",
  "\u202eevil",
  "😀".repeat(61),
  "a".repeat(121),
  "d".repeat(501),
  "x@y",
  "@example.com",
  "a@b",
  "+0",
  "+97150",
  "ae",
  "AED ",
  "__proto__",
  "constructor",
);
const hostileString = fc.oneof(tricky, fc.string({ unit: "binary", maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 130 }), latin1);
const hugeNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, -0, 0.1 + 0.2, 1123.52),
  fc.double(),
  fc.integer(),
  fc.bigInt().map((n) => Number(n)),
);
const deepValue = fc.integer({ min: 20, max: 2000 }).chain((depth) =>
  fc.constantFrom("array", "object").map((kind) => {
    let v: unknown = "x";
    for (let i = 0; i < depth; i++) v = kind === "array" ? [v] : { amount: v };
    return v;
  }),
);
const hostileValue = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: hugeNumber },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null, undefined, [], {}) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2, stringUnit: "binary" }) },
  { weight: 1, arbitrary: deepValue },
);

/** Paths of the members of an example body (top level and one level down), plus unknown ones. */
function memberPaths(example: Record<string, unknown>): string[][] {
  const paths: string[][] = [];
  for (const [k, v] of Object.entries(example)) {
    paths.push([k]);
    if (v && typeof v === "object" && !Array.isArray(v)) for (const inner of Object.keys(v)) paths.push([k, inner]);
  }
  return paths;
}

/** A copy of `body` with the member at `path` set (own properties only: "__proto__" is a plain name here). */
function setAt(body: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const own = (target: Record<string, unknown>, key: string, v: unknown) =>
    Object.defineProperty(target, key, { value: v, enumerable: true, writable: true, configurable: true });
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) {
    const next = Object.hasOwn(target, key) ? target[key] : undefined;
    if (!next || typeof next !== "object" || Array.isArray(next)) own(target, key, {});
    target = Object.getOwnPropertyDescriptor(target, key)!.value;
  }
  const last = path[path.length - 1];
  assertPresent(last, "last");
  if (value === undefined) {
    if (Object.hasOwn(target, last)) delete target[last];
  } else own(target, last, value);
  return copy;
}

/** Bodies built from the example: one member replaced, removed or added, or a random JSON value altogether. */
function hostileBodies(op: Operation) {
  const example = exampleBody(op)!;
  const mutated = fc
    .record({
      path: fc.oneof(
        fc.constantFrom(...memberPaths(example)),
        fc.array(fc.oneof(fc.string(), fc.constantFrom("__proto__", "merchantId", "fee", "status")), { minLength: 1, maxLength: 2 }),
      ),
      value: hostileValue,
    })
    .map(({ path, value }) => setAt(exampleBody(op)!, path, value) as unknown);
  const several = fc
    .array(fc.tuple(fc.constantFrom(...memberPaths(example)), hostileValue), { minLength: 2, maxLength: 4 })
    .map((changes) => changes.reduce<Record<string, unknown>>((body, [path, value]) => setAt(body, path, value), exampleBody(op)!));
  const random = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3, stringUnit: "binary" }));
  return fc.oneof({ weight: 5, arbitrary: mutated }, { weight: 2, arbitrary: several }, { weight: 1, arbitrary: random });
}

/** True when the service must reject the body: zod rejects it, or it has text PostgreSQL cannot store. */
function mustReject(op: Operation, body: unknown): boolean {
  const text = JSON.stringify(body) ?? "";
  return text === "" || !op.body!.safeParse(JSON.parse(text)).success || /\\u0000|\\ud[89a-f][0-9a-f]{2}/i.test(text);
}
const encodable = (s: string) => {
  try {
    encodeURIComponent(s);
    return true;
  } catch {
    return false; // a lone surrogate cannot be put in a URL
  }
};

// --- harness -------------------------------------------------------------------------------------------------
/**
 * fast-check reporter that names the failure without fast-check's own stringify: that one recurses per level and
 * overflows the stack on the deep-nesting values, hiding the real failure behind a RangeError.
 */
function reporter<Ts>(details: fc.RunDetails<Ts>): void {
  if (!details.failed) return;
  let example: string;
  try {
    example = (JSON.stringify(details.counterexample) ?? String(details.counterexample)).slice(0, 600);
  } catch {
    example = "(not printable)";
  }
  const cause = details.errorInstance;
  throw new Error(
    `property failed (seed ${details.seed}, path ${details.counterexamplePath}): ${cause instanceof Error ? cause.message : String(cause)}\ncounterexample: ${example}`,
    { cause },
  );
}

type Ctx = { m: TestMerchant; id: string | undefined; before: Record<string, unknown> };
async function prepare(op: Operation): Promise<Ctx> {
  const m = await merchantFor(op);
  const id = await recordFor(op, m);
  return { m, id, before: await footprint(m.merchant.id) };
}
async function expectNothingWritten(ctx: Ctx, label: string) {
  expect(await footprint(ctx.m.merchant.id), `database changed after ${label}`).toEqual(ctx.before);
}
const show = (v: unknown) => (JSON.stringify(v) ?? String(v)).slice(0, 200);

for (const op of implementedOperations) {
  describe(`hostile input: ${op.method} ${op.path}`, () => {
    if (op.body) {
      it(
        "hostile bodies (mutated, missing and unknown members, unicode, huge numbers, deep nesting, random JSON): 400 when invalid, never 5xx; nothing written when rejected",
        async () => {
          const ctx = await prepare(op);
          let rejected = 0;
          await fc.assert(
            fc.asyncProperty(hostileBodies(op), async (body) => {
              const text = JSON.stringify(body) ?? "";
              const res = await ctx.m.api(pathOf(op, ctx.id), { method: op.method, rawBody: text });
              if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
                // Deeply nested members can push a body past the limit: docs/api.md "Limits" answers 413 before validation.
                rejected++;
                expect(res.status, `${show(body)} -> ${res.text}`).toBe(413);
                expectContractError(res, ["PAYLOAD_TOO_LARGE"]);
                await expectNothingWritten(ctx, show(body));
              } else if (mustReject(op, body)) {
                rejected++;
                expect(res.status, `${show(body)} -> ${res.text}`).toBe(400);
                // A missing or blank required customer member is CUSTOMER_PROFILE_REQUIRED (docs/api.md "Customer").
                expectContractError(res, ["VALIDATION_ERROR", "INVALID_EMAIL", "CUSTOMER_PROFILE_REQUIRED"]);
                await expectNothingWritten(ctx, show(body));
              } else {
                // A body the schema accepts may still break a business rule; it must never be a server error.
                if (res.status >= 400) expectContractError(res);
                else expect(res.status).toBe(op.success.status);
                ctx.before = await footprint(ctx.m.merchant.id);
              }
            }),
            { numRuns: RUNS.body, reporter },
          );
          expect(rejected).toBeGreaterThan(RUNS.body / 2);
        },
        TIMEOUT,
      );

      it(
        "hostile raw text (repeated members, huge number literals, broken JSON, non-UTF-8, BOM): 400, nothing written",
        async () => {
          const ctx = await prepare(op);
          const valid = () => JSON.stringify(exampleBody(op));
          const raw = fc.oneof(
            fc
              .constantFrom(...Object.keys(op.example!))
              .chain((name) => fc.jsonValue({ maxDepth: 1 }).map((v) => valid().replace(/}$/, `,${JSON.stringify(name)}:${JSON.stringify(v)}}`))),
            fc.constantFrom("1e400", "-1e400", "123456789012345678901234567890", "1.00000000000000000000001", "0.0e-999").map((n) =>
              // The first member that must not be a number (every body has reference, amount, outcome, a boolean
              // setting, a forward's cursor, the clock's duration or a rotation's overlap).
              valid().replace(
                /"(?:reference|amount|outcome|by|overlap)":"[^"]*"|"fastRetries":(?:true|false)|"cursor":"[^"]*"/,
                (m) => `${m.split(":")[0]}:${n}`,
              ),
            ),
            fc.integer({ min: 1, max: 40 }).map((cut) => valid().slice(0, -cut)),
            fc.constantFrom("\u0000", "//", "/*x*/", "NaN", "'", "[").map((prefix) => prefix + valid()),
            // Never UTF-8: 0xFF cannot appear in UTF-8 at all, so the text is malformed whatever bytes follow it.
            fc
              .uint8Array({ minLength: 0, maxLength: 64 })
              .map((bytes) => Buffer.concat([Buffer.from('{"reference":"'), Buffer.from([0xff]), Buffer.from(bytes.map((b) => b | 0x80)), Buffer.from('"}')])),
          );
          await fc.assert(
            fc.asyncProperty(raw, async (rawBody) => {
              const res = await ctx.m.api(pathOf(op, ctx.id), { method: op.method, rawBody });
              expect(res.status, `${show(String(rawBody))} -> ${res.text}`).toBe(400);
              expectContractError(res, ["VALIDATION_ERROR"]);
              await expectNothingWritten(ctx, show(String(rawBody)));
            }),
            { numRuns: RUNS.raw, reporter },
          );
        },
        TIMEOUT,
      );

      it(
        "wrong or missing Content-Type: 415; missing body: 400; body over 32 KiB: 413; nothing written",
        async () => {
          const ctx = await prepare(op);
          const contentType = fc.oneof(
            fc.constantFrom(
              "text/plain",
              "application/x-www-form-urlencoded",
              "multipart/form-data; boundary=x",
              "application/jsonx",
              "application/json; charset=latin1",
              "application/json; charset=utf-16",
              "json",
              "application/*",
              "*/*",
              "text/json",
              "application/problem+json",
              "",
            ),
            latin1.filter((s) => !/^\s*application\/json\s*(;|$)/i.test(s)),
          );
          await fc.assert(
            fc.asyncProperty(contentType, async (type) => {
              const res = await ctx.m.api(pathOf(op, ctx.id), {
                method: op.method,
                rawBody: JSON.stringify(exampleBody(op)),
                headers: { "content-type": type },
              });
              expect(res.status, `${JSON.stringify(type)} -> ${res.text}`).toBe(415);
              expectContractError(res, ["UNSUPPORTED_MEDIA_TYPE"]);
            }),
            { numRuns: RUNS.headers / 2, reporter },
          );
          // No Content-Type at all: a byte body carries none.
          const bare = await fetch(`${(await import("vitest")).inject("baseUrl")}${pathOf(op, ctx.id)}`, {
            method: op.method,
            headers: { authorization: `Bearer ${ctx.m.key}`, "x-forwarded-for": ctx.m.ip, "idempotency-key": `bare-${crypto.randomUUID()}` },
            body: new TextEncoder().encode(JSON.stringify(exampleBody(op))),
          });
          expect(bare.status).toBe(415);
          const empty = await ctx.m.api(pathOf(op, ctx.id), { method: op.method, rawBody: "" });
          expect(empty.status).toBe(400);
          expectContractError(empty, ["VALIDATION_ERROR"]);
          await fc.assert(
            fc.asyncProperty(fc.integer({ min: MAX_BODY_BYTES + 1, max: 256 * 1024 }), async (size) => {
              const body = JSON.stringify({ ...exampleBody(op), description: "" });
              const padded = body.replace('"description":""', `"description":"${"x".repeat(size - body.length)}"`);
              const res = await ctx.m.api(pathOf(op, ctx.id), { method: op.method, rawBody: padded });
              expect(res.status).toBe(413);
              expectContractError(res, ["PAYLOAD_TOO_LARGE"]);
            }),
            { numRuns: 10, reporter },
          );
          await expectNothingWritten(ctx, "content type and size cases");
        },
        TIMEOUT,
      );
    }

    it(
      "malformed Authorization: 401 INVALID_API_KEY, nothing written",
      async () => {
        const ctx = await prepare(op);
        const key = ctx.m.key;
        const authorization = fc
          .oneof(
            latin1,
            latin1.map((s) => `Bearer ${s}`),
            fc.constantFrom(
              `Bearer\t${key}`,
              `Token ${key}`,
              key,
              `Bearer ${key.toUpperCase()}`,
              `Bearer ${key}x`,
              `Bearer ${key.slice(0, -1)}`,
              `Bearer ${key},${key}`,
              `Bearer ${key} ${key}`,
              `Basic ${Buffer.from(`${key}:`).toString("base64")}`,
              `Bearer ${"sk_sandbox_".padEnd(4000, "A")}`,
              "Bearer ",
              "Bearer sk_sandbox_",
            ),
            fc
              .integer({ min: 0, max: key.length - 1 })
              .chain((i) => fc.integer({ min: 0x21, max: 0x7e }).map((c) => `Bearer ${key.slice(0, i)}${String.fromCharCode(c)}${key.slice(i + 1)}`)),
            // The scheme name is case-insensitive and may be followed by several spaces: those forms are valid.
          )
          .filter((value) => !new RegExp(`^[Bb][Ee][Aa][Rr][Ee][Rr] +${key}$`).test(value.trim()));
        await fc.assert(
          fc.asyncProperty(authorization, async (value) => {
            const res = await call(pathOf(op, ctx.id), {
              method: op.method,
              ...(op.body ? { body: exampleBody(op) } : {}),
              ip: ctx.m.ip,
              key: null,
              headers: { authorization: value },
            });
            expect(res.status, `${JSON.stringify(value).slice(0, 80)} -> ${res.text}`).toBe(401);
            expectContractError(res, ["INVALID_API_KEY"]);
            expect(res.headers.get("www-authenticate")).toBe("Bearer");
          }),
          { numRuns: RUNS.headers, reporter },
        );
        await expectNothingWritten(ctx, "malformed Authorization");
      },
      TIMEOUT,
    );

    if (op.idempotent) {
      it(
        "malformed or missing Idempotency-Key: 400 VALIDATION_ERROR, nothing written",
        async () => {
          const ctx = await prepare(op);
          const allowed = fc.string({ unit: fc.constantFrom(..."abcXYZ019-_.:"), maxLength: 200 });
          const idempotencyKey = fc
            .oneof(
              latin1,
              allowed.filter((s) => s.length < 8 || s.length > 128),
              fc.tuple(allowed, fc.constantFrom(" x", "/", "?", "é", "*", "=", ",", "\t", "%20"), allowed).map((p) => p.join("")),
            )
            .filter((s) => !IDEMPOTENCY_KEY_PATTERN.test(s.trim()));
          await fc.assert(
            fc.asyncProperty(idempotencyKey, async (value) => {
              const res = await ctx.m.api(pathOf(op, ctx.id), { method: op.method, body: exampleBody(op), idempotencyKey: value });
              expect(res.status, `${JSON.stringify(value)} -> ${res.text}`).toBe(400);
              expectContractError(res, ["VALIDATION_ERROR"]);
              expect(res.body.error.message).toMatch(/Idempotency-Key/);
            }),
            { numRuns: RUNS.headers, reporter },
          );
          const missing = await ctx.m.api(pathOf(op, ctx.id), { method: op.method, body: exampleBody(op), idempotencyKey: null });
          expect(missing.status).toBe(400);
          expectContractError(missing, ["VALIDATION_ERROR"]);
          await expectNothingWritten(ctx, "malformed Idempotency-Key");
        },
        TIMEOUT,
      );
    }

    if (op.query) {
      const query = op.query;
      it(
        "hostile query strings (unknown, repeated, out-of-range, huge, unicode, NUL): 400 unless valid; nothing written",
        async () => {
          const ctx = await prepare(op);
          const names = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...Object.keys(query.shape)) }, { weight: 1, arbitrary: hostileString });
          const value = fc.oneof(
            hostileString,
            fc.constantFrom(
              "1",
              "100",
              "101",
              "0",
              "-1",
              "1.5",
              "999999999",
              "9999999999",
              "2026-02-29",
              "2024-02-29",
              "2026-13-01",
              "0000-01-01",
              "0001-01-01",
              "1969-12-31",
              "1970-01-01",
              "9999-12-31",
              "10000-01-01",
              "PENDING",
              "pending",
              "USD",
              "GATEWAY",
              "DEPOSIT",
            ),
          );
          await fc.assert(
            fc.asyncProperty(fc.array(fc.tuple(names, value), { maxLength: 5 }), async (pairs) => {
              const params = new URLSearchParams(pairs);
              const res = await ctx.m.api(`${pathOf(op, ctx.id)}?${params}`);
              const decoded = [...new URLSearchParams(params.toString())];
              const repeated = new Set(decoded.map(([n]) => n)).size !== decoded.length;
              const acceptable = !repeated && !decoded.some(([n, v]) => /\u0000/.test(n + v)) && query.safeParse(Object.fromEntries(decoded)).success;
              if (acceptable) expect(res.status, `${params} -> ${res.text}`).toBe(op.success.status);
              else {
                expect(res.status, `${params} -> ${res.text}`).toBe(400);
                expectContractError(res, ["VALIDATION_ERROR"]);
              }
            }),
            { numRuns: RUNS.query, reporter },
          );
          await expectNothingWritten(ctx, "hostile query strings");
        },
        TIMEOUT,
      );
    }

    if (op.pathId) {
      it(
        "hostile {id} path segments: 404 NOT_FOUND, nothing written",
        async () => {
          const ctx = await prepare(op);
          const id = fc.oneof(
            hostileString,
            fc.uuid(),
            fc.constantFrom("00000000-0000-0000-0000-000000000000", `${ctx.id}x`, ctx.id!.toUpperCase().replace(/-/g, ""), `{${ctx.id}}`, "1 OR 1=1", "%00"),
          );
          await fc.assert(
            fc.asyncProperty(
              id.filter((s) => s.length > 0 && encodable(s) && !/^[.\s]+$/.test(s) && s !== ctx.id && s.toLowerCase() !== ctx.id),
              async (value) => {
                const res = await ctx.m.api(pathOf(op, encodeURIComponent(value)), { method: op.method, ...(op.body ? { body: exampleBody(op) } : {}) });
                expect(res.status, `${JSON.stringify(value)} -> ${res.text}`).toBe(404);
                expectContractError(res, ["NOT_FOUND"]);
              },
            ),
            { numRuns: RUNS.path, reporter },
          );
          await expectNothingWritten(ctx, "hostile ids");
        },
        TIMEOUT,
      );
    }
  });
}

it("the hostile properties cover every implemented operation of the registry", () => {
  expect(implementedOperations.map((o) => o.operationId)).toEqual(
    expect.arrayContaining(["createPayment", "listPayments", "getPayment", "completeSandboxPayment"]),
  );
});
