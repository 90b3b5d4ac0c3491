import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { base64url, decodeJwt, decodeProtectedHeader, SignJWT } from "jose";
import type { HandoffPayload } from "@/lib/simulators/test-store/connector";
import {
  HANDOFF_AUDIENCE,
  HANDOFF_ISSUER,
  HANDOFF_MAX_AGE_SECONDS,
  HANDOFF_MAX_SKEW_SECONDS,
  signHandoff,
  verifyHandoff,
} from "@/lib/simulators/test-store/handoff-signing";
import { assertPresent } from "../../../scripts/harness/present";

const key = randomBytes(32);
const now = new Date("2026-11-22T10:00:00.000Z");
const payload = (over: Partial<HandoffPayload> = {}): HandoffPayload => ({
  v: 1,
  reference: "order-42",
  paymentId: "3f0c8b8e-1d2a-4a4b-9c3e-2b1f0e9d8c7a",
  chargeMinor: "101505",
  chargeAmount: "1015.05",
  chargeCurrency: "AED",
  amount: "250.00",
  currency: "EUR",
  expiresAt: "2026-11-22T10:30:00.000Z",
  issuedAt: now.toISOString(),
  ...over,
});

/** A token with the given claims, signed with `signingKey` (HS256 unless `alg` says otherwise). */
function tokenWith(claims: Record<string, unknown>, signingKey: Uint8Array = key, alg = "HS256") {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: "JWT" }).sign(signingKey);
}

const { issuedAt: _i, expiresAt: _e, ...business } = payload();
const registered = {
  iat: Math.floor(now.getTime() / 1000),
  exp: Math.floor(now.getTime() / 1000) + 1800,
  iss: HANDOFF_ISSUER,
  aud: HANDOFF_AUDIENCE,
  jti: "0b7f6a1e-2c3d-4e5f-8a9b-0c1d2e3f4a5b",
};

describe("store handoff token (jose, HS256 JWS)", () => {
  it("is a compact JWS whose claims are the payload with iat, exp, iss, aud and a jti; it verifies back to the payload", async () => {
    const signed = await signHandoff(payload(), key);
    expect(signed.token.split(".")).toHaveLength(3);
    expect(decodeProtectedHeader(signed.token)).toEqual({ alg: "HS256", typ: "JWT" });
    const claims = decodeJwt(signed.token);
    expect(claims).toMatchObject({ ...business, iat: registered.iat, exp: registered.exp, iss: "sandpiper", aud: "sandpiper-store" });
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(await verifyHandoff(signed, key, now)).toEqual({ ok: true, payload: payload() });
    // Two tokens for the same payload in the same second differ (jti).
    expect((await signHandoff(payload(), key)).token).not.toBe(signed.token);
  });

  it("a changed claim, a changed signature or another key is BAD_SIGNATURE", async () => {
    const signed = await signHandoff(payload(), key);
    const [header, body, signature] = signed.token.split(".");
    assertPresent(signature, "signature");
    assertPresent(body, "body");
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(body)));
    const forged = base64url.encode(JSON.stringify({ ...claims, chargeMinor: "1000", chargeAmount: "10.00" }));
    expect(await verifyHandoff({ token: `${header}.${forged}.${signature}` }, key, now)).toEqual({ ok: false, reason: "BAD_SIGNATURE" });
    const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
    expect(await verifyHandoff({ token: `${header}.${body}.${flipped}` }, key, now)).toEqual({ ok: false, reason: "BAD_SIGNATURE" });
    expect(await verifyHandoff(signed, randomBytes(32), now)).toEqual({ ok: false, reason: "BAD_SIGNATURE" });
  });

  it(`is STALE when issued more than ${HANDOFF_MAX_AGE_SECONDS} s before, or more than ${HANDOFF_MAX_SKEW_SECONDS} s after, the store's clock, or once expiresAt has passed`, async () => {
    const at = (ms: number) => new Date(now.getTime() + ms);
    const signed = await signHandoff(payload(), key);
    expect(await verifyHandoff(signed, key, at(HANDOFF_MAX_AGE_SECONDS * 1000))).toMatchObject({ ok: true });
    expect(await verifyHandoff(signed, key, at(HANDOFF_MAX_AGE_SECONDS * 1000 + 1))).toEqual({ ok: false, reason: "STALE" });
    expect(await verifyHandoff(signed, key, at(-HANDOFF_MAX_SKEW_SECONDS * 1000))).toMatchObject({ ok: true });
    expect(await verifyHandoff(signed, key, at(-HANDOFF_MAX_SKEW_SECONDS * 1000 - 1))).toEqual({ ok: false, reason: "STALE" });
    const expiring = await signHandoff(payload({ expiresAt: at(10_000).toISOString() }), key);
    expect((await verifyHandoff(expiring, key, at(9_999))).ok).toBe(true);
    expect(await verifyHandoff(expiring, key, at(10_000))).toEqual({ ok: false, reason: "STALE" });
  });

  it("a correctly signed token of the wrong shape, issuer, audience or algorithm, or no token at all, is MALFORMED", async () => {
    const bad: Record<string, unknown>[] = [
      { ...business, ...registered, chargeAmount: "1015.06" },
      { ...business, ...registered, chargeMinor: "0" },
      { ...business, ...registered, chargeMinor: 101505 },
      { ...business, ...registered, chargeCurrency: "USD" },
      { ...business, ...registered, currency: "JPY" },
      { ...business, ...registered, paymentId: "not-a-uuid" },
      { ...business, ...registered, v: 2 },
      { ...business, ...registered, extra: true },
      { ...business, ...registered, iss: "someone-else" },
      { ...business, ...registered, aud: "another-store" },
      (({ reference: _r, ...rest }) => rest)({ ...business, ...registered }),
      (({ jti: _j, ...rest }) => rest)({ ...business, ...registered }),
    ];
    for (const claims of bad)
      expect(await verifyHandoff({ token: await tokenWith(claims) }, key, now), JSON.stringify(claims)).toEqual({ ok: false, reason: "MALFORMED" });
    expect(await verifyHandoff({ token: await tokenWith({ ...business, ...registered }, key, "HS512") }, key, now)).toEqual({ ok: false, reason: "MALFORMED" });
    const unsigned = `${base64url.encode(JSON.stringify({ alg: "none" }))}.${base64url.encode(JSON.stringify({ ...business, ...registered }))}.`;
    expect(await verifyHandoff({ token: unsigned }, key, now)).toEqual({ ok: false, reason: "MALFORMED" });
    expect(await verifyHandoff({ token: "not a token" }, key, now)).toEqual({ ok: false, reason: "MALFORMED" });
    expect(await verifyHandoff({} as never, key, now)).toEqual({ ok: false, reason: "MALFORMED" });
    // The well-formed control passes, so the refusals above are about what was changed.
    expect(await verifyHandoff({ token: await tokenWith({ ...business, ...registered }) }, key, now)).toMatchObject({ ok: true });
  });
});
