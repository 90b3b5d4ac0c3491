import { createHmac } from "node:crypto";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Webhook } from "standardwebhooks";
import { buildCallbackHeaders, callbackHeaderNames, signCallback, signStandardWebhook, standardWebhooksSecret } from "./signing";
import { present } from "../../../scripts/harness/present";

function independentHmac(secret: string, timestamp: string, body: Buffer): string {
  const h = createHmac("sha256", Buffer.from(secret, "utf8"));
  h.update(Buffer.concat([Buffer.from(timestamp + ".", "utf8"), body]));
  return h.digest("hex");
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("callbackHeaderNames", () => {
  it("defaults to the documented names when SERVICE_NAME is unset or empty", () => {
    vi.stubEnv("SERVICE_NAME", undefined);
    expect(callbackHeaderNames()).toEqual({
      eventId: "X-Service-Event-Id",
      timestamp: "X-Service-Timestamp",
      signature: "X-Service-Signature",
    });
    vi.stubEnv("SERVICE_NAME", "");
    expect(callbackHeaderNames().signature).toBe("X-Service-Signature");
  });

  it("substitutes SERVICE_NAME or the explicit name", () => {
    vi.stubEnv("SERVICE_NAME", "Sandpiper");
    expect(callbackHeaderNames().eventId).toBe("X-Sandpiper-Event-Id");
    expect(callbackHeaderNames("Acme-Pay")).toEqual({
      eventId: "X-Acme-Pay-Event-Id",
      timestamp: "X-Acme-Pay-Timestamp",
      signature: "X-Acme-Pay-Signature",
    });
  });

  it("rejects names that cannot be part of a header name", () => {
    for (const bad of ["", "Sand piper", "Sand\r\nX", "-Sandpiper", "a--b"]) {
      expect(() => callbackHeaderNames(bad)).toThrow(TypeError);
    }
  });
});

describe("signCallback", () => {
  const secret = "whsec_test_0123456789";
  const body = '{"id":"7f1c1f0e-3c55-4a43-9f0e-8d7c1b1b2a10","type":"payment.succeeded","note":"caf\u00e9 \u{1F600}"}';

  it("matches an independent HMAC-SHA256 over timestamp + '.' + raw body bytes", () => {
    const expected = independentHmac(secret, "1700000000", Buffer.from(body, "utf8"));
    expect(signCallback(secret, 1700000000, body)).toBe(expected);
    expect(signCallback(secret, "1700000000", body)).toBe(expected);
    expect(signCallback(secret, 1700000000, Buffer.from(body, "utf8"))).toBe(expected);
  });

  it("is lowercase hex of 64 characters", () => {
    expect(signCallback(secret, 1700000000, body)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("signs the exact bytes: whitespace, timestamp and secret all change it", () => {
    const base = signCallback(secret, 1700000000, body);
    expect(signCallback(secret, 1700000000, JSON.stringify(JSON.parse(body), null, 2))).not.toBe(base);
    expect(signCallback(secret, 1700000001, body)).not.toBe(base);
    expect(signCallback(secret + "x", 1700000000, body)).not.toBe(base);
  });

  it("signs non-UTF-8 buffers byte for byte", () => {
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x7b]);
    expect(signCallback(secret, 1700000000, bytes)).toBe(independentHmac(secret, "1700000000", bytes));
  });

  it("agrees with the independent computation for arbitrary secrets and bodies", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.integer({ min: 1_000_000_000, max: 9_999_999_999 }), fc.string(), (s, ts, b) => {
        expect(signCallback(s, ts, b)).toBe(independentHmac(s, String(ts), Buffer.from(b, "utf8")));
      }),
    );
  });

  it("throws for an empty secret or a non-integer timestamp", () => {
    expect(() => signCallback("", 1700000000, body)).toThrow(TypeError);
    expect(() => signCallback(secret, 1700000000.5, body)).toThrow(RangeError);
    expect(() => signCallback(secret, Number.NaN, body)).toThrow(RangeError);
    expect(() => signCallback(secret, -1, body)).toThrow(RangeError);
  });
});

describe("buildCallbackHeaders", () => {
  const secret = "whsec_test_0123456789";
  const eventId = "7f1c1f0e-3c55-4a43-9f0e-8d7c1b1b2a10";
  const rawBody = JSON.stringify({ id: eventId, type: "payment.failed" });

  it("builds content type, event id, 10-digit timestamp and signature", () => {
    vi.stubEnv("SERVICE_NAME", undefined);
    const headers = buildCallbackHeaders({ eventId, rawBody, secret, nowMs: 1_700_000_000_999 });
    expect(headers).toEqual({
      "Content-Type": "application/json",
      "X-Service-Event-Id": eventId,
      "X-Service-Timestamp": "1700000000",
      "X-Service-Signature": independentHmac(secret, "1700000000", Buffer.from(rawBody, "utf8")),
      "webhook-id": eventId,
      "webhook-timestamp": "1700000000",
      "webhook-signature": signStandardWebhook(secret, eventId, "1700000000", rawBody),
    });
  });

  it("uses the given service name", () => {
    const headers = buildCallbackHeaders({ eventId, rawBody, secret, nowMs: 1_800_000_000_000, serviceName: "Sandpiper" });
    expect(Object.keys(headers).sort()).toEqual(
      ["Content-Type", "X-Sandpiper-Event-Id", "X-Sandpiper-Signature", "X-Sandpiper-Timestamp", "webhook-id", "webhook-signature", "webhook-timestamp"].sort(),
    );
    expect(headers["X-Sandpiper-Timestamp"]).toBe("1800000000");
  });

  it("refuses times that do not give 10 digits and unsafe event ids", () => {
    expect(() => buildCallbackHeaders({ eventId, rawBody, secret, nowMs: 999_999_999_999 })).toThrow(RangeError);
    expect(() => buildCallbackHeaders({ eventId, rawBody, secret, nowMs: 10_000_000_000_000 })).toThrow(RangeError);
    expect(() => buildCallbackHeaders({ eventId, rawBody, secret, nowMs: Number.NaN })).toThrow(RangeError);
    expect(() => buildCallbackHeaders({ eventId: "a\r\nX-Evil: 1", rawBody, secret, nowMs: 1_700_000_000_000 })).toThrow(TypeError);
    expect(() => buildCallbackHeaders({ eventId: "", rawBody, secret, nowMs: 1_700_000_000_000 })).toThrow(TypeError);
  });
});

describe("Standard Webhooks", () => {
  const eventId = "7f1c1f0e-3c55-4a43-9f0e-8d7c1b1b2a10";
  const rawBody = JSON.stringify({ id: eventId, type: "payment.failed", note: "caf\u00e9" });
  const nowMs = Date.now();
  const ts = String(Math.floor(nowMs / 1000));

  /** A secret of the current form: `whsec_` + 44 letters and digits (33 bytes). */
  const newCallbackSecret = () =>
    "whsec_" +
    Buffer.from(crypto.getRandomValues(new Uint8Array(33)))
      .toString("base64")
      .replace(/[+/]/g, "A");

  function verifies(secret: string, headers: Record<string, string>): boolean {
    try {
      new Webhook(secret).verify(rawBody, headers);
      return true;
    } catch {
      return false;
    }
  }

  it("an older base64url secret is keyed with its decoded bytes; its standard form verifies", () => {
    const old = "whsec_" + Buffer.alloc(32, 0xfb).toString("base64url"); // "-" and "_" in it, 43 characters
    expect(old).toMatch(/[-_]/);
    const standard = standardWebhooksSecret(old);
    expect(standard).toBe("whsec_" + Buffer.alloc(32, 0xfb).toString("base64"));
    expect(verifies(standard, buildCallbackHeaders({ eventId, rawBody, secret: old, nowMs }))).toBe(true);
  });

  it("signs id.timestamp.body with HMAC-SHA256 of the decoded key, as the specification's example does", () => {
    const key = Buffer.from("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "base64");
    const expected = "v1," + createHmac("sha256", key).update(`msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}`).digest("base64");
    expect(signStandardWebhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", '{"test": 2432232314}')).toBe(expected);
    expect(expected).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("during an overlap the contract's header keeps the previous secret and webhook-signature carries both", () => {
    const current = newCallbackSecret();
    const previous = newCallbackSecret();
    const headers = buildCallbackHeaders({ eventId, rawBody, secret: current, previousSecret: previous, nowMs });
    expect(headers["X-Service-Signature"]).toBe(independentHmac(previous, ts, Buffer.from(rawBody, "utf8")));
    expect(present(headers?.["webhook-signature"], 'headers?.["webhook-signature"]').split(" ")).toEqual([
      signStandardWebhook(current, eventId, ts, rawBody),
      signStandardWebhook(previous, eventId, ts, rawBody),
    ]);
    expect(verifies(current, headers)).toBe(true);
    expect(verifies(previous, headers)).toBe(true);
    expect(verifies(newCallbackSecret(), headers)).toBe(false);
  });
});
