import { describe, expect, it } from "vitest";
import { dubaiDay } from "@/lib/contract/money/dubai";
import { db, depositBody, limitUsed, messageOf, newMerchant, savePricingVersion, type TestMerchant } from "../support/fixtures";
import { createStorePayment, eurStoreMerchant, waitForCheckout } from "../support/store";
import { present } from "../../scripts/harness/present";

// POST /v1/sandbox/payments/{id}/expire (docs/api.md "Test helpers"): a pending payment expires now exactly as the
// expiry sweep expires it: EXPIRED, one payment.expired event, the limits given back, a store checkout EXPIRED.

const expire = (m: TestMerchant, id: string, idempotencyKey?: string | null) => m.api(`/v1/sandbox/payments/${id}/expire`, { method: "POST", idempotencyKey });

/** Today's use of the daily limit of the profile that priced `payment` (its pricing.ruleId), in minor units. */
async function usedToday(payment: { pricing: { ruleId: string } }): Promise<bigint> {
  return limitUsed(payment.pricing.ruleId, `D:${dubaiDay()}`);
}

describe("POST /v1/sandbox/payments/{id}/expire", () => {
  it("expires a PENDING deposit now: one payment.expired event, the amount back in the limits; a replay or a second request answers it as it is and writes nothing", async () => {
    const m = await newMerchant();
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "USD",
      channel: "GATEWAY",
      direction: "DEPOSIT",
      chargeCurrency: "USD",
      settlementCurrency: "USD",
      commissionBps: 100,
      reason: "test: a profile whose limits are counted",
    });
    const p = (await m.api("/v1/payments", { body: depositBody({ amount: "40.00" }) })).body;
    expect(await usedToday(p)).toBe(4000n);
    const res = await expire(m, p.id, "expire-once-1");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: p.id, status: "EXPIRED", expiresAt: p.expiresAt });
    expect(res.body.finalizedAt).not.toBeNull();
    expect(await usedToday(p)).toBe(0n);
    const events = await db.event.findMany({ where: { paymentId: p.id } });
    expect(events.map((e) => e.type)).toEqual(["payment.expired"]);
    expect(JSON.parse(present(events?.[0], "events?.[0]").body)).toMatchObject({ type: "payment.expired", data: { id: p.id, status: "EXPIRED" } });
    expect(await db.ledgerEntry.count({ where: { paymentId: p.id } })).toBe(0);

    const replay = await expire(m, p.id, "expire-once-1");
    expect([replay.status, replay.headers.get("idempotency-replayed")]).toEqual([200, "true"]);
    expect(replay.body).toEqual(res.body);
    const again = await expire(m, p.id);
    expect([again.status, again.headers.get("idempotency-replayed")]).toEqual([200, null]);
    expect(again.body).toEqual(res.body);
    expect(await db.event.count({ where: { paymentId: p.id } }), "nothing is written twice").toBe(1);
    expect(await usedToday(p)).toBe(0n);
  });

  it("expires a withdrawal awaiting approval; a final payment is 409, another merchant's 404, a missing key or scope is refused and changes nothing", async () => {
    const m = await newMerchant();
    const w = (await m.api("/v1/payments", { body: depositBody({ direction: "WITHDRAWAL", method: "BANK_TRANSFER", amount: "25.00" }) })).body;
    expect(w.status).toBe("PENDING_APPROVAL");
    expect((await expire(m, w.id)).body).toMatchObject({ status: "EXPIRED" });

    const done = (await m.api("/v1/payments", { body: depositBody() })).body;
    expect((await m.api(`/v1/sandbox/payments/${done.id}/complete`, { body: { outcome: "SUCCEEDED" } })).status).toBe(200);
    const final = await expire(m, done.id);
    expect([final.status, final.body.error.code]).toEqual([409, "INVALID_STATE"]);
    expect(messageOf(final)).toMatch(/^payment is SUCCEEDED; a final payment cannot change its result$/);

    const pending = (await m.api("/v1/payments", { body: depositBody() })).body;
    const other = await newMerchant();
    const foreign = await expire(other, pending.id);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, "NOT_FOUND"]);
    const noKey = await expire(m, pending.id, null);
    expect([noKey.status, noKey.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    const readOnly = await newMerchant({ scopes: ["payments:read", "payments:create"] });
    const mine = (await readOnly.api("/v1/payments", { body: depositBody() })).body;
    const scope = await expire(readOnly, mine.id);
    expect([scope.status, scope.body.error.code]).toEqual([403, "INSUFFICIENT_SCOPE"]);
    for (const id of [pending.id, mine.id]) expect((await db.payment.findUniqueOrThrow({ where: { id } })).status).toBe("PENDING");
    expect(await db.event.count({ where: { paymentId: { in: [pending.id, mine.id] } } })).toBe(0);
  });

  it("a store checkout payment expires the way the sweep expires it: the checkout becomes EXPIRED too", async () => {
    const m = await eurStoreMerchant();
    const p = await createStorePayment(m, { amount: "25.00", currency: "EUR" });
    await waitForCheckout(m, p.id, "READY");
    const res = await expire(m, p.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "EXPIRED", checkout: { state: "EXPIRED" } });
    expect((await db.event.findMany({ where: { paymentId: p.id } })).map((e) => e.type)).toEqual(["payment.expired"]);
    expect(await usedToday(p)).toBe(0n);
  });
});
