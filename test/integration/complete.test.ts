import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db, depositBody, eventually, newMerchant, savePricingVersion, insertPendingPayment } from "../support/fixtures";
import pg from "pg";
import { TEST_DATABASE_URL } from "../support/env";
import { postLedgerEntry } from "@/lib/domain/ledger/post";
import { approveWithdrawal } from "@/lib/domain/payments/approve";
import { transaction } from "@/lib/platform/db";
import { systemNow } from "@/lib/platform/clock";
import { present } from "../../scripts/harness/present";

const complete = (m: Awaited<ReturnType<typeof newMerchant>>, id: string, outcome: string, idempotencyKey?: string) =>
  m.api(`/v1/sandbox/payments/${id}/complete`, { body: { outcome }, idempotencyKey });

async function assertLedgerBalanced() {
  const unbalanced = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM (SELECT entry_id, currency FROM ledger_lines GROUP BY entry_id, currency HAVING SUM(amount_minor) <> 0) t`;
  expect(present(unbalanced?.[0], "unbalanced?.[0]").n).toBe(0n);
}

describe("POST /v1/sandbox/payments/{id}/complete", () => {
  it("SUCCEEDED writes one balanced ledger entry and one payment.succeeded event; a repeat writes nothing", async () => {
    const m = await newMerchant({ defaultCommissionBps: 250 });
    const p = (await m.api("/v1/payments", { body: depositBody({ amount: "1123.52" }) })).body;
    const res = await complete(m, p.id, "SUCCEEDED");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("SUCCEEDED");
    expect(res.body.finalizedAt).not.toBeNull();
    const entries = await db.ledgerEntry.findMany({ where: { paymentId: p.id }, include: { lines: true } });
    expect(entries).toHaveLength(1);
    const lines = Object.fromEntries(present(entries[0], "entries[0]").lines.map((l) => [l.account.replace(m.merchant.id, "M"), l.amountMinor]));
    expect(lines).toEqual({ "sandbox:clearing": 112352n, "merchant:M:payable": -109543n, "revenue:commission": -2809n });
    const events = await db.event.findMany({ where: { paymentId: p.id } });
    expect(events.map((e) => e.type)).toEqual(["payment.succeeded"]);
    const envelope = JSON.parse(present(events[0], "events[0]").body);
    expect(envelope).toMatchObject({
      id: present(events[0], "events[0]").id,
      type: "payment.succeeded",
      data: { id: p.id, amount: "1123.52", currency: "USD", status: "SUCCEEDED" },
    });
    expect(envelope.data).not.toHaveProperty("customer");
    expect(await db.delivery.count({ where: { eventId: present(events?.[0], "events?.[0]").id } })).toBe(1);

    const again = await complete(m, p.id, "SUCCEEDED");
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(await db.ledgerEntry.count({ where: { paymentId: p.id } })).toBe(1);
    expect(await db.event.count({ where: { paymentId: p.id } })).toBe(1);

    const other = await complete(m, p.id, "FAILED");
    expect([other.status, other.body.error.code]).toEqual([409, "INVALID_STATE"]);
    await assertLedgerBalanced();
  });

  it("a deposit with a reserve books net, reserve and commission; the database refuses an unbalanced entry and any change to a line", async () => {
    const m = await newMerchant();
    await savePricingVersion(db, {
      merchantId: m.merchant.id,
      currency: "EUR",
      channel: "BANK_TRANSFER",
      direction: "DEPOSIT",
      chargeCurrency: "EUR",
      settlementCurrency: "EUR",
      commissionBps: 250,
      reserveBps: 500,
      reason: "test: reserve",
    });
    const p = (await m.api("/v1/payments", { body: depositBody({ currency: "EUR", method: "BANK_TRANSFER", amount: "1123.52" }) })).body;
    expect(p.pricing).toMatchObject({ fee: "28.09", reserve: "56.18", merchantNet: "1039.25" });
    expect((await complete(m, p.id, "SUCCEEDED")).status).toBe(200);
    const entry = await db.ledgerEntry.findFirstOrThrow({ where: { paymentId: p.id }, include: { lines: true } });
    const lines = Object.fromEntries(entry.lines.map((l) => [l.account.replace(m.merchant.id, "M"), [l.currency, l.amountMinor]]));
    // 1123.52 = 1039.25 net + 56.18 reserve + 28.09 commission, in the original currency.
    expect(lines).toEqual({
      "sandbox:clearing": ["EUR", 112352n],
      "merchant:M:payable": ["EUR", -103925n],
      "merchant:M:reserve": ["EUR", -5618n],
      "revenue:commission": ["EUR", -2809n],
    });

    // The code refuses an unbalanced entry; so does the database at commit, whoever writes it.
    await expect(transaction((tx) => postLedgerEntry(tx, p.id, "test", [{ account: "a", currency: "EUR", amountMinor: 1n }]))).rejects.toThrow(/unbalanced/);
    const raw = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await raw.connect();
    try {
      for (const [second, currency] of [
        [-99, "EUR"],
        [-100, "USD"],
      ] as const) {
        await raw.query("BEGIN");
        const [{ id }] = (await raw.query("INSERT INTO ledger_entries (id, payment_id, kind) VALUES (gen_random_uuid(), $1, 'test') RETURNING id", [p.id]))
          .rows;
        await raw.query(
          "INSERT INTO ledger_lines (id, entry_id, account, currency, amount_minor) VALUES (gen_random_uuid(), $1, 'a', 'EUR', 100), (gen_random_uuid(), $1, 'b', $2, $3)",
          [id, currency, second],
        );
        await expect(raw.query("COMMIT"), `${second} ${currency}`).rejects.toThrow(/is not balanced/);
      }
    } finally {
      await raw.end();
    }
    await expect(db.ledgerLine.update({ where: { id: present(entry?.lines[0], "entry?.lines[0]").id }, data: { amountMinor: 1n } })).rejects.toThrow(
      /append-only/,
    );
    await expect(db.ledgerLine.delete({ where: { id: present(entry?.lines[0], "entry?.lines[0]").id } })).rejects.toThrow(/append-only/);
    expect(await db.ledgerEntry.count({ where: { paymentId: p.id } })).toBe(1);
    await assertLedgerBalanced();
  });

  it("FAILED writes payment.failed and no ledger entry", async () => {
    const m = await newMerchant();
    const p = (await m.api("/v1/payments", { body: depositBody() })).body;
    const res = await complete(m, p.id, "FAILED");
    expect(res.body.status).toBe("FAILED");
    expect(await db.ledgerEntry.count({ where: { paymentId: p.id } })).toBe(0);
    expect((await db.event.findMany({ where: { paymentId: p.id } })).map((e) => e.type)).toEqual(["payment.failed"]);
    expect((await complete(m, p.id, "SUCCEEDED")).status).toBe(409);
  });

  it("a withdrawal completes only after approval by another user; the ledger books amount + commission", async () => {
    const m = await newMerchant({ defaultCommissionBps: 100 });
    const w = (await m.api("/v1/payments", { body: depositBody({ method: "BANK_TRANSFER", direction: "WITHDRAWAL", amount: "50.00" }) })).body;
    const early = await complete(m, w.id, "SUCCEEDED");
    expect([early.status, early.body.error.code]).toEqual([409, "INVALID_STATE"]);
    const now = systemNow();
    await expect(
      transaction((tx) => approveWithdrawal(tx, { paymentId: w.id, approver: { id: m.owner.id, role: "MERCHANT", merchantId: m.merchant.id }, now })),
    ).rejects.toThrow(/another user/);
    const approved = await transaction((tx) =>
      approveWithdrawal(tx, { paymentId: w.id, approver: { id: m.approver.id, role: "MERCHANT", merchantId: m.merchant.id }, now }),
    );
    expect(approved.status).toBe("PENDING");
    expect(approved.approvedAt).not.toBeNull();
    const res = await complete(m, w.id, "SUCCEEDED");
    expect(res.body).toMatchObject({ status: "SUCCEEDED", approvedAt: approved.approvedAt!.toISOString() });
    const lines = await db.ledgerLine.findMany({ where: { entry: { paymentId: w.id } } });
    expect(lines.find((l) => l.account.endsWith(":payable"))?.amountMinor).toBe(5050n);
    await assertLedgerBalanced();
  });

  it("404 for another merchant's payment; 409 for a store checkout payment and a payment past expiresAt", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const p = (await a.api("/v1/payments", { body: depositBody() })).body;
    const cross = await complete(b, p.id, "SUCCEEDED");
    expect([cross.status, cross.body.error.code]).toEqual([404, "NOT_FOUND"]);
    expect((await complete(b, randomUUID(), "SUCCEEDED")).status).toBe(404);

    const store = await insertPendingPayment(a.merchant.id, { kind: "STORE" });
    const s = await complete(a, store.id, "SUCCEEDED");
    expect([s.status, s.body.error.code]).toEqual([409, "INVALID_STATE"]);
    expect(s.body.error.message).toMatch(/store/);

    const late = await insertPendingPayment(a.merchant.id, { expiresAt: new Date(Date.now() - 1), createdAt: new Date(Date.now() - 60_000) });
    expect((await complete(a, late.id, "SUCCEEDED")).status).toBe(409);
    expect(await db.ledgerEntry.count({ where: { paymentId: { in: [store.id, late.id] } } })).toBe(0);
  });

  it("rejects members other than outcome", async () => {
    const m = await newMerchant();
    const p = (await m.api("/v1/payments", { body: depositBody() })).body;
    const res = await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "SUCCEEDED", amount: "1.00" } });
    expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    const bad = await m.api(`/v1/sandbox/payments/${p.id}/complete`, { body: { outcome: "CANCELLED" } });
    expect(bad.status).toBe(400);
  });
});

describe("expiry sweep", () => {
  it("turns PENDING and PENDING_APPROVAL past expiresAt into EXPIRED with payment.expired; null expiresAt never expires", async () => {
    const m = await newMerchant({ minutes: { gatewayDeposit: 0, withdrawalApproval: 0 } });
    const d = (await m.api("/v1/payments", { body: depositBody() })).body;
    const w = (await m.api("/v1/payments", { body: depositBody({ method: "BANK_TRANSFER", direction: "WITHDRAWAL" }) })).body;
    const legacy = await db.payment.create({
      data: {
        merchantId: m.merchant.id,
        reference: `v01-${randomUUID()}`,
        amountMinor: 1000n,
        feeMinor: 0n,
        currency: "USD",
        method: "GATEWAY",
        direction: "DEPOSIT",
        status: "PENDING",
        businessDay: "2020-01-01",
        createdAt: new Date("2020-01-01T00:00:00Z"),
        expiresAt: null,
        pricing: undefined,
      },
    });
    for (const id of [d.id, w.id]) {
      const expired = await eventually(async () => {
        const r = await m.api(`/v1/payments/${id}`);
        return r.body.status === "EXPIRED" ? r.body : null;
      });
      expect(expired.finalizedAt).not.toBeNull();
      expect((await db.event.findMany({ where: { paymentId: id } })).map((e) => e.type)).toEqual(["payment.expired"]);
    }
    const after = await complete(m, d.id, "SUCCEEDED");
    expect([after.status, after.body.error.code]).toEqual([409, "INVALID_STATE"]);
    const old = await m.api(`/v1/payments/${legacy.id}`);
    expect(old.body).toMatchObject({ status: "PENDING", expiresAt: null, pricing: null });
  });
});
