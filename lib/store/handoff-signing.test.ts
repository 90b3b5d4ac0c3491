import { describe, expect, it } from "vitest";
import { createHmac, randomBytes } from "node:crypto";
import type { HandoffPayload } from "@/lib/store/connector";
import { HANDOFF_MAX_AGE_SECONDS, HANDOFF_MAX_SKEW_SECONDS, signHandoff, verifyHandoff } from "@/lib/store/handoff-signing";

const key = randomBytes(32);
const now = new Date("2026-11-22T10:00:00.000Z");
const payload = (over: Partial<HandoffPayload> = {}): HandoffPayload => ({
  v: 1, reference: "order-42", paymentId: "3f0c8b8e-1d2a-4a4b-9c3e-2b1f0e9d8c7a", chargeMinor: "101505", chargeAmount: "1015.05", chargeCurrency: "AED",
  amount: "250.00", currency: "EUR", expiresAt: "2026-11-22T10:30:00.000Z", issuedAt: now.toISOString(), ...over,
});

describe("store handoff signing", () => {
  it("signs the exact JSON text with HMAC-SHA256 (lowercase hex) and verifies it", () => {
    const signed = signHandoff(payload(), key);
    expect(signed.body).toBe(JSON.stringify(payload()));
    expect(signed.signature).toBe(createHmac("sha256", key).update(signed.body).digest("hex"));
    expect(signed.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyHandoff(signed, key, now)).toEqual({ ok: true, payload: payload() });
  });

  it("any change of the body or the signature, or another key, is BAD_SIGNATURE", () => {
    const signed = signHandoff(payload(), key);
    const tampered = [
      signed.body.replace("101505", "101504"),
      signed.body.replace('"EUR"', '"USD"'),
      signed.body.replace("order-42", "order-43"),
      `${signed.body} `,
      JSON.stringify(JSON.parse(signed.body), null, 1), // same data, other bytes: re-serialising breaks the signature
    ];
    for (const body of tampered) expect(verifyHandoff({ body, signature: signed.signature }, key, now)).toEqual({ ok: false, reason: "BAD_SIGNATURE" });
    expect(verifyHandoff({ body: signed.body, signature: signed.signature.toUpperCase() }, key, now)).toEqual({ ok: false, reason: "BAD_SIGNATURE" });
    expect(verifyHandoff({ body: signed.body, signature: signed.signature.slice(0, 63) }, key, now)).toEqual({ ok: false, reason: "BAD_SIGNATURE" });
    expect(verifyHandoff(signed, randomBytes(32), now)).toEqual({ ok: false, reason: "BAD_SIGNATURE" });
    expect(verifyHandoff({} as never, key, now)).toEqual({ ok: false, reason: "BAD_SIGNATURE" });
  });

  it(`is STALE when issued more than ${HANDOFF_MAX_AGE_SECONDS} s before, or more than ${HANDOFF_MAX_SKEW_SECONDS} s after, the store's clock, or once expiresAt has passed`, () => {
    const at = (ms: number) => new Date(now.getTime() + ms);
    const signed = signHandoff(payload(), key);
    expect(verifyHandoff(signed, key, at(HANDOFF_MAX_AGE_SECONDS * 1000))).toMatchObject({ ok: true });
    expect(verifyHandoff(signed, key, at(HANDOFF_MAX_AGE_SECONDS * 1000 + 1))).toEqual({ ok: false, reason: "STALE" });
    expect(verifyHandoff(signed, key, at(-HANDOFF_MAX_SKEW_SECONDS * 1000))).toMatchObject({ ok: true });
    expect(verifyHandoff(signed, key, at(-HANDOFF_MAX_SKEW_SECONDS * 1000 - 1))).toEqual({ ok: false, reason: "STALE" });
    const expiring = signHandoff(payload({ expiresAt: at(10_000).toISOString() }), key);
    expect(verifyHandoff(expiring, key, at(9_999)).ok).toBe(true);
    expect(verifyHandoff(expiring, key, at(10_000))).toEqual({ ok: false, reason: "STALE" });
  });

  it("a correctly signed but malformed payload is MALFORMED", () => {
    const sign = (body: string) => ({ body, signature: createHmac("sha256", key).update(body).digest("hex") });
    const bad: unknown[] = [
      { ...payload(), chargeAmount: "1015.06" },
      { ...payload(), chargeMinor: "0" },
      { ...payload(), chargeMinor: 101505 },
      { ...payload(), chargeCurrency: "USD" },
      { ...payload(), currency: "JPY" },
      { ...payload(), paymentId: "not-a-uuid" },
      { ...payload(), v: 2 },
      { ...payload(), issuedAt: "yesterday" },
      { ...payload(), extra: true },
      (({ reference: _r, ...rest }) => rest)(payload()),
    ];
    for (const b of bad) expect(verifyHandoff(sign(JSON.stringify(b)), key, now), JSON.stringify(b)).toEqual({ ok: false, reason: "MALFORMED" });
    expect(verifyHandoff(sign("{"), key, now)).toEqual({ ok: false, reason: "MALFORMED" });
  });
});
