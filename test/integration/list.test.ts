import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db, depositBody, newMerchant } from "../support/fixtures";

async function insertAt(merchantId: string, createdAt: string, over: Record<string, unknown> = {}) {
  return db.payment.create({
    data: {
      merchantId,
      reference: `at-${createdAt}-${randomUUID().slice(0, 6)}`,
      amountMinor: 1000n,
      feeMinor: 0n,
      currency: "USD",
      method: "GATEWAY",
      direction: "DEPOSIT",
      status: "PENDING",
      businessDay: createdAt.slice(0, 10),
      createdAt: new Date(createdAt),
      expiresAt: null,
      customer: { email: "x@y.z" },
      ...over,
    },
  });
}

describe("GET /v1/payments", () => {
  it("pages newest first with total and pages; items never carry customer or checkout", async () => {
    const m = await newMerchant();
    for (let i = 0; i < 5; i++) await m.api("/v1/payments", { body: depositBody({ reference: `page-${i}`, customer: { email: "p@q.io" } }) });
    const res = await m.api("/v1/payments?page=2&limit=2");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 5, page: 2, limit: 2, pages: 3 });
    expect(res.body.items.map((p: any) => p.reference)).toEqual(["page-2", "page-1"]);
    for (const item of res.body.items) {
      expect(item).not.toHaveProperty("customer");
      expect(item).not.toHaveProperty("checkout");
    }
    const last = await m.api("/v1/payments?page=3&limit=2");
    expect(last.body.items.map((p: any) => p.reference)).toEqual(["page-0"]);
    expect((await m.api("/v1/payments?page=9")).body.items).toEqual([]);
  });

  it("filters by status, method, direction, currency and reference search; only the merchant's own", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    await other.api("/v1/payments", { body: depositBody({ reference: "order-A-1" }) });
    const a = (await m.api("/v1/payments", { body: depositBody({ reference: "order-A-1" }) })).body;
    await m.api("/v1/payments", { body: depositBody({ reference: "order-B-2", currency: "EUR", method: "BANK_TRANSFER" }) });
    await m.api("/v1/payments", { body: depositBody({ reference: "payout-3", method: "BANK_TRANSFER", direction: "WITHDRAWAL" }) });
    await m.api(`/v1/sandbox/payments/${a.id}/complete`, { body: { outcome: "SUCCEEDED" } });
    const refs = async (q: string) => (await m.api(`/v1/payments?${q}`)).body.items.map((p: any) => p.reference).sort();
    expect(await refs("status=SUCCEEDED")).toEqual(["order-A-1"]);
    expect(await refs("method=BANK_TRANSFER")).toEqual(["order-B-2", "payout-3"]);
    expect(await refs("direction=WITHDRAWAL")).toEqual(["payout-3"]);
    expect(await refs("currency=EUR")).toEqual(["order-B-2"]);
    expect(await refs("search=order")).toEqual(["order-A-1", "order-B-2"]);
    expect(await refs("search=b-2")).toEqual(["order-B-2"]);
    expect(await refs("status=PENDING_APPROVAL&direction=WITHDRAWAL")).toEqual(["payout-3"]);
  });

  it("search matches the text literally: %, _ and \\ are not wildcards", async () => {
    const m = await newMerchant();
    for (const reference of ["50%_off\\x", "50x_off", "50%aoff", "500ff"]) {
      expect((await m.api("/v1/payments", { body: depositBody({ reference }) })).status).toBe(201);
    }
    const refs = async (search: string) => (await m.api(`/v1/payments?search=${encodeURIComponent(search)}`)).body.items.map((p: any) => p.reference).sort();
    expect(await refs("%")).toEqual(["50%_off\\x", "50%aoff"]);
    expect(await refs("_")).toEqual(["50%_off\\x", "50x_off"]);
    expect(await refs("%_OFF")).toEqual(["50%_off\\x"]);
    expect(await refs("\\")).toEqual(["50%_off\\x"]);
    expect(await refs("0%a")).toEqual(["50%aoff"]);
  });

  it("from/to are Dubai (UTC+4) calendar days with an inclusive end", async () => {
    const m = await newMerchant();
    // 2026-03-09T20:00Z is 2026-03-10 00:00 in Dubai; 2026-03-10T19:59:59Z is still 2026-03-10 in Dubai.
    await insertAt(m.merchant.id, "2026-03-09T19:59:59.000Z"); // Dubai 03-09
    await insertAt(m.merchant.id, "2026-03-09T20:00:00.000Z"); // Dubai 03-10
    await insertAt(m.merchant.id, "2026-03-10T19:59:59.999Z"); // Dubai 03-10
    await insertAt(m.merchant.id, "2026-03-10T20:00:00.000Z"); // Dubai 03-11
    const count = async (q: string) => (await m.api(`/v1/payments?${q}`)).body.total;
    expect(await count("from=2026-03-10&to=2026-03-10")).toBe(2);
    expect(await count("from=2026-03-10")).toBe(3);
    expect(await count("to=2026-03-09")).toBe(1);
    expect(await count("from=2026-03-09&to=2026-03-11")).toBe(4);
  });

  it("400 VALIDATION_ERROR for bad paging and filters", async () => {
    const m = await newMerchant();
    for (const q of [
      "page=0",
      "limit=0",
      "limit=101",
      "page=abc",
      "status=DONE",
      "from=2026-13-01",
      "from=2026-03-02&to=2026-03-01",
      "currency=JPY",
      "foo=bar",
      "__proto__=",
      "__proto__=x&limit=1",
      "constructor=x",
    ]) {
      const res = await m.api(`/v1/payments?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
    expect((await m.api("/v1/payments?limit=100")).status).toBe(200);
  });
});
