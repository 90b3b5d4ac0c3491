import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db, depositBody, newMerchant, savePricingVersion } from "../support/fixtures";

describe("idempotency (docs/api.md 'Idempotency')", () => {
  it("a replay returns the first response, 201, with Idempotency-Replayed: true, even after the payment changed", async () => {
    const m = await newMerchant();
    const key = `idem-${randomUUID()}`;
    const body = depositBody();
    const first = await m.api("/v1/payments", { body, idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotency-replayed")).toBeNull();
    await m.api(`/v1/sandbox/payments/${first.body.id}/complete`, { body: { outcome: "SUCCEEDED" } });
    // Same content with other key order and whitespace is the same body.
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(body).reverse()), null, 2);
    const replay = await m.api("/v1/payments", { rawBody: reordered, idempotencyKey: key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    // Byte for byte: the members come in the first answer's order (pricing snapshot included).
    expect(replay.text).toBe(first.text);
    expect(Object.keys(replay.body.pricing)).toEqual(Object.keys(first.body.pricing));
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(1);
  });

  it("409 IDEMPOTENCY_CONFLICT for the same key with another body or path; keys are per merchant", async () => {
    const m = await newMerchant();
    const key = `idem-${randomUUID()}`;
    const first = await m.api("/v1/payments", { body: depositBody(), idempotencyKey: key });
    const other = await m.api("/v1/payments", { body: depositBody(), idempotencyKey: key });
    expect([other.status, other.body.error.code]).toEqual([409, "IDEMPOTENCY_CONFLICT"]);
    const path = await m.api(`/v1/sandbox/payments/${first.body.id}/complete`, { body: { outcome: "FAILED" }, idempotencyKey: key });
    expect([path.status, path.body.error.code]).toEqual([409, "IDEMPOTENCY_CONFLICT"]);
    const n = await newMerchant();
    expect((await n.api("/v1/payments", { body: depositBody(), idempotencyKey: key })).status).toBe(201);
  });

  it("50 concurrent identical requests create exactly one payment and all answer 201 with it", async () => {
    const m = await newMerchant();
    const key = `idem-${randomUUID()}`;
    const body = depositBody();
    const results = await Promise.all(Array.from({ length: 50 }, () => m.api("/v1/payments", { body, idempotencyKey: key })));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotency-replayed") === "true")).toHaveLength(49);
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(1);
    expect(await db.idempotencyRecord.count({ where: { merchantId: m.merchant.id } })).toBe(1);
  });

  it("50 concurrent identical requests whose payment takes the last of every bound (daily limit, velocity rule) still all answer 201 with it", async () => {
    const m = await newMerchant();
    const body = depositBody({ amount: "40.00", customer: { email: "last@example.com" } });
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: body.currency,
      channel: body.method,
      direction: body.direction,
      chargeCurrency: body.currency,
      settlementCurrency: body.currency,
      dailyLimitMinor: 4000n,
      reason: "test",
    });
    await db.riskRule.create({ data: { merchantId: m.merchant.id, kind: "COUNT", subject: "EMAIL", windowSeconds: 3600, maxCount: 1, reason: "test" } });
    const key = `idem-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 50 }, () => m.api("/v1/payments", { body, idempotencyKey: key })));
    expect(results.map((r) => (r.status === 201 ? 201 : `${r.status} ${r.body.error?.code}`))).toEqual(Array(50).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await db.payment.count({ where: { merchantId: m.merchant.id } })).toBe(1);
    // The same key with another body is a conflict, not a refusal by the bounds the first one used up.
    const other = await m.api("/v1/payments", { body: { ...body, reference: `other-${randomUUID()}` }, idempotencyKey: key });
    expect([other.status, other.body.error?.code]).toEqual([409, "IDEMPOTENCY_CONFLICT"]);
  });

  it("an error is not stored: the same key may be retried after the cause is fixed", async () => {
    const m = await newMerchant({ enabledCurrencies: ["USD"] });
    const key = `idem-${randomUUID()}`;
    const body = depositBody({ currency: "EUR" });
    expect((await m.api("/v1/payments", { body, idempotencyKey: key })).status).toBe(400);
    await db.merchant.update({ where: { id: m.merchant.id }, data: { enabledCurrencies: ["USD", "EUR"] } });
    expect((await m.api("/v1/payments", { body, idempotencyKey: key })).status).toBe(201);
  });

  it("completion replays its first response", async () => {
    const m = await newMerchant();
    const p = (await m.api("/v1/payments", { body: depositBody() })).body;
    const key = `done-${randomUUID()}`;
    const first = await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "SUCCEEDED" }, idempotencyKey: key });
    const again = await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "SUCCEEDED" }, idempotencyKey: key });
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });
});
