import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildCallbackHeaders } from "@/lib/contract/callbacks/signing";
import { verifyCallback } from "./verify";

const secret = "whsec_verify_test_secret";
const eventId = "0b5e3b8e-9a57-4d0e-a2c2-6f1f7c9b9e11";
const event = {
  id: eventId,
  type: "payment.succeeded",
  createdAt: "2024-01-01T00:00:00.000Z",
  data: { id: "c4d4b0d2-64c2-4e47-8f4b-1b8c3f7b2a01", reference: "order-1", amount: "100.00", currency: "AED", environment: "sandbox" },
};
// Deliberately not the output of JSON.stringify(event) so re-serialisation changes the bytes.
const rawBody = JSON.stringify(event, null, 2);
const ts = 1_700_000_000;
const now = ts * 1000;

function sign(timestamp: string, body: string | Buffer, key = secret): string {
  return createHmac("sha256", key).update(`${timestamp}.`).update(body).digest("hex");
}

function headersFor(body: string | Buffer = rawBody, overrides: Record<string, string | undefined> = {}) {
  const h: Record<string, string | undefined> = {
    "X-Service-Event-Id": eventId,
    "X-Service-Timestamp": String(ts),
    "X-Service-Signature": sign(String(ts), body),
    ...overrides,
  };
  return h;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("verifyCallback accepts", () => {
  it("a correctly signed callback and returns the parsed event", () => {
    const result = verifyCallback(rawBody, headersFor(), secret, { now });
    expect(result).toEqual({ ok: true, eventId, timestamp: ts, event });
  });

  it("headers from buildCallbackHeaders, as Buffer, Uint8Array and Fetch Headers", () => {
    const headers = buildCallbackHeaders({ eventId, rawBody, secret, nowMs: now + 400 });
    const bytes = Buffer.from(rawBody, "utf8");
    expect(verifyCallback(rawBody, headers, secret, { now }).ok).toBe(true);
    expect(verifyCallback(bytes, headers, secret, { now }).ok).toBe(true);
    expect(verifyCallback(new Uint8Array(bytes), headers, secret, { now }).ok).toBe(true);
    expect(verifyCallback(rawBody, new Headers(headers), secret, { now: new Date(now) }).ok).toBe(true);
  });

  it("header names in any case (Node lower-cases them)", () => {
    const lower = Object.fromEntries(Object.entries(headersFor()).map(([k, v]) => [k.toLowerCase(), v]));
    expect(verifyCallback(rawBody, lower, secret, { now }).ok).toBe(true);
  });

  it("timestamps exactly 300 s old or ahead", () => {
    expect(verifyCallback(rawBody, headersFor(), secret, { now: now + 300_000 }).ok).toBe(true);
    expect(verifyCallback(rawBody, headersFor(), secret, { now: now - 300_000 }).ok).toBe(true);
  });

  it("a custom service name and tolerance", () => {
    const headers = buildCallbackHeaders({ eventId, rawBody, secret, nowMs: now, serviceName: "Sandpiper" });
    expect(verifyCallback(rawBody, headers, secret, { now, serviceName: "Sandpiper" }).ok).toBe(true);
    expect(verifyCallback(rawBody, headers, secret, { now }).ok).toBe(false);
    // The name is the receiver's option only: an environment variable of the receiver's process changes nothing.
    vi.stubEnv("SERVICE_NAME", "Sandpiper");
    expect(verifyCallback(rawBody, headers, secret, { now }).ok).toBe(false);
    expect(verifyCallback(rawBody, headers, secret, { now: now + 61_000, serviceName: "Sandpiper", toleranceSeconds: 60 })).toEqual({
      ok: false,
      reason: "TIMESTAMP_OUT_OF_TOLERANCE",
    });
  });
});

describe("verifyCallback rejects", () => {
  const reject = (reason: string) => ({ ok: false, reason });

  it("a tampered body", () => {
    const tampered = rawBody.replace('"100.00"', '"900.00"');
    expect(tampered).not.toBe(rawBody);
    expect(verifyCallback(tampered, headersFor(), secret, { now })).toEqual(reject("BAD_SIGNATURE"));
  });

  it("the same JSON re-serialised with different whitespace", () => {
    const reserialised = JSON.stringify(JSON.parse(rawBody));
    expect(JSON.parse(reserialised)).toEqual(JSON.parse(rawBody));
    expect(verifyCallback(reserialised, headersFor(), secret, { now })).toEqual(reject("BAD_SIGNATURE"));
  });

  it("a signature made with another secret", () => {
    const headers = headersFor(rawBody, { "X-Service-Signature": sign(String(ts), rawBody, "another-secret") });
    expect(verifyCallback(rawBody, headers, secret, { now })).toEqual(reject("BAD_SIGNATURE"));
    expect(verifyCallback(rawBody, headersFor(), "another-secret", { now })).toEqual(reject("BAD_SIGNATURE"));
  });

  it("a timestamp 301 s old or 301 s in the future", () => {
    expect(verifyCallback(rawBody, headersFor(), secret, { now: now + 301_000 })).toEqual(reject("TIMESTAMP_OUT_OF_TOLERANCE"));
    expect(verifyCallback(rawBody, headersFor(), secret, { now: now - 301_000 })).toEqual(reject("TIMESTAMP_OUT_OF_TOLERANCE"));
  });

  it("timestamps that are not exactly 10 digits", () => {
    for (const bad of ["170000000", "17000000000", "0170000000 ", " 1700000000", "1700000000.0", "17000000a0", "-170000000", "１７００００００００"]) {
      const headers = headersFor(rawBody, { "X-Service-Timestamp": bad, "X-Service-Signature": sign(bad, rawBody) });
      expect(verifyCallback(rawBody, headers, secret, { now }), bad).toEqual(reject("BAD_TIMESTAMP"));
    }
  });

  it("a header event id different from the body id, even when correctly signed", () => {
    const headers = headersFor(rawBody, { "X-Service-Event-Id": "11111111-1111-4111-8111-111111111111" });
    expect(verifyCallback(rawBody, headers, secret, { now })).toEqual(reject("EVENT_ID_MISMATCH"));
  });

  it("each missing or empty header", () => {
    for (const name of ["X-Service-Event-Id", "X-Service-Timestamp", "X-Service-Signature"]) {
      expect(verifyCallback(rawBody, headersFor(rawBody, { [name]: undefined }), secret, { now }), name).toEqual(reject("MISSING_HEADER"));
      expect(verifyCallback(rawBody, headersFor(rawBody, { [name]: "" }), secret, { now }), name).toEqual(reject("MISSING_HEADER"));
    }
    expect(verifyCallback(rawBody, new Headers(), secret, { now })).toEqual(reject("MISSING_HEADER"));
  });

  it("an uppercase-hex, short, long or non-hex signature", () => {
    const good = sign(String(ts), rawBody);
    for (const bad of [good.toUpperCase(), good.slice(0, 63), good.slice(0, 32), good + "0", good.slice(0, 63) + "g", `${good},${good}`]) {
      expect(verifyCallback(rawBody, headersFor(rawBody, { "X-Service-Signature": bad }), secret, { now }), bad).toEqual(reject("BAD_SIGNATURE"));
    }
  });

  it("several values of one header", () => {
    const headers = { ...headersFor(), "x-service-signature": [sign(String(ts), rawBody), sign(String(ts), rawBody)] };
    delete (headers as Record<string, unknown>)["X-Service-Signature"];
    expect(verifyCallback(rawBody, headers, secret, { now })).toEqual(reject("BAD_SIGNATURE"));
  });

  it("correctly signed bodies that are not a JSON object with a string id", () => {
    for (const body of ["not json", "[]", "null", '{"type":"payment.failed"}', `{"id":123}`, Buffer.from([0xff, 0xfe, 0x7b, 0x7d])]) {
      const headers = headersFor(body);
      expect(verifyCallback(body, headers, secret, { now }), String(body)).toEqual(reject("MALFORMED_BODY"));
    }
  });

  it("throws on programmer errors instead of accepting", () => {
    expect(() => verifyCallback(rawBody, headersFor(), "", { now })).toThrow(TypeError);
    expect(() => verifyCallback(rawBody, headersFor(), secret, { now, toleranceSeconds: -1 })).toThrow(RangeError);
    expect(() => verifyCallback(rawBody, headersFor(), secret, { now: Number.NaN })).toThrow(RangeError);
  });
});

describe("verify.ts stays copyable by merchants", () => {
  it("imports nothing but node:crypto", () => {
    const source = readFileSync(fileURLToPath(new URL("./verify.ts", import.meta.url)), "utf8");
    const imports = [...source.matchAll(/^\s*import\s[^;]*?from\s+["']([^"']+)["']/gm)].map((m) => m[1]);
    expect(imports).toEqual(["node:crypto"]);
    expect(source).not.toMatch(/require\(|import\(/);
  });
});
