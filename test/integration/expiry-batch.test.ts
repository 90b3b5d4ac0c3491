import { describe, expect, it } from "vitest";
import { realInstant } from "@/lib/platform/clock";
import { setCallbackUrl } from "@/lib/domain/callbacks/callback-config";
import { expireDuePayments } from "@/lib/domain/payments/expire";
import { db, depositBody, newMerchant } from "../support/fixtures";

// The expiry sweep's batch (docs/architecture.md "Jobs"): one statement claims and expires a batch through the
// transition table, with one payment.expired event and one delivery per payment in the same transaction. The
// payments are given an expiry one hour ahead and the sweep is run at a time two hours ahead, so the running
// service's own sweep (real clock) never takes them first.

const HOUR = 3_600_000;

describe("expiry sweep batches", () => {
  it("expires every due payment once, with one event and one delivery each, in batches and concurrent runs; non-due ones are left alone", async () => {
    const m = await newMerchant();
    await setCallbackUrl(db, { merchantId: m.merchant.id, url: "http://127.0.0.1:9/hook" });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const created = await m.api("/v1/payments", { body: depositBody() });
      expect(created.status).toBe(201);
      ids.push(created.body.id as string);
    }
    const [notDue, ...due] = ids;
    const now = Date.now();
    await db.payment.updateMany({ where: { id: { in: due } }, data: { expiresAt: new Date(now + HOUR) } });
    await db.payment.update({ where: { id: notDue }, data: { expiresAt: new Date(now + 3 * HOUR) } });

    const at = realInstant(new Date(now + 2 * HOUR));
    // Two runs at once, in batches of 2: each payment is claimed by one of them.
    const counts = await Promise.all([
      expireDuePayments({ now: at, merchantId: m.merchant.id, batchSize: 2 }),
      expireDuePayments({ now: at, merchantId: m.merchant.id, batchSize: 2 }),
    ]);
    expect(counts[0] + counts[1]).toBe(6);
    expect(await expireDuePayments({ now: at, merchantId: m.merchant.id, batchSize: 2 })).toBe(0);

    const payments = await db.payment.findMany({ where: { id: { in: ids } } });
    for (const p of payments) {
      expect(p.status).toBe(p.id === notDue ? "PENDING" : "EXPIRED");
      expect(p.finalizedAt?.getTime() ?? null).toBe(p.id === notDue ? null : at.getTime());
    }
    const events = await db.event.findMany({ where: { paymentId: { in: ids } }, include: { deliveries: true } });
    expect(events.map((e) => e.paymentId).sort()).toEqual([...due].sort());
    for (const e of events) {
      expect(e.type).toBe("payment.expired");
      expect(e.deliveries).toHaveLength(1);
      expect(e.deliveries[0]!.state).toBe("PENDING");
      const body = JSON.parse(e.body) as { type: string; data: { id: string; status: string } };
      expect(body).toMatchObject({ type: "payment.expired", data: { id: e.paymentId, status: "EXPIRED" } });
    }
  });
});
