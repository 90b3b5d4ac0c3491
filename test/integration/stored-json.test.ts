import { describe, expect, it } from "vitest";
import { db, depositBody, newMerchant } from "../support/fixtures";
import { getPayment } from "@/lib/domain/payments/read";
import { serializePayment } from "@/lib/domain/payments/serialize";
import { StoredDataError } from "@/lib/contract/schemas/stored/parse";

// docs/decisions/0153-stored-json-is-parsed-where-it-is-read.md: a payment whose stored snapshot lost a member (written
// by hand here, as older code or a manual fix could) is refused where it is read, with an error naming the column and
// the member; the ledger never posts a reserve of 0 in its place.

async function brokenSnapshotPayment() {
  const m = await newMerchant();
  const created = await m.api("/v1/payments", { body: depositBody() });
  expect(created.status).toBe(201);
  await db.$executeRaw`UPDATE payments SET pricing = pricing - 'reserve' WHERE id = ${created.body.id}::uuid`;
  return { m, id: created.body.id as string };
}

describe("a stored pricing snapshot missing a member", () => {
  it("is refused where it is read: the service names payments.pricing and reserve; the API answers 500 without internals", async () => {
    const { m, id } = await brokenSnapshotPayment();
    const row = await getPayment(db, m.merchant.id, id);
    expect(() => serializePayment(row, { detail: true })).toThrow(StoredDataError);
    expect(() => serializePayment(row, { detail: true })).toThrow(/^stored payments\.pricing does not match its schema: reserve: /);
    const res = await m.api(`/v1/payments/${id}`);
    expect([res.status, res.body.error.code]).toEqual([500, "INTERNAL_ERROR"]);
    expect(res.text).not.toContain("reserve");
  });

  it("is not completed: no ledger entry with a made-up reserve, the payment stays PENDING", async () => {
    const { m, id } = await brokenSnapshotPayment();
    const res = await m.api(`/v1/sandbox/payments/${id}/complete`, { body: { outcome: "SUCCEEDED" } });
    expect([res.status, res.body.error.code]).toEqual([500, "INTERNAL_ERROR"]);
    expect(await db.ledgerEntry.count({ where: { paymentId: id } })).toBe(0);
    expect((await db.payment.findUniqueOrThrow({ where: { id } })).status).toBe("PENDING");
  });
});

describe("a stored event envelope (events.body)", () => {
  async function concludedEvent() {
    const m = await newMerchant();
    const created = await m.api("/v1/payments", { body: depositBody() });
    expect(created.status).toBe(201);
    const done = await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "SUCCEEDED" } });
    expect(done.status).toBe(200);
    const event = await db.event.findFirstOrThrow({ where: { paymentId: created.body.id } });
    return { m, event };
  }

  it("is answered by the Events API as the exact envelope that is signed and sent, members in the same order", async () => {
    const { m, event } = await concludedEvent();
    const res = await m.api(`/v1/events/${event.id}`);
    expect(res.status).toBe(200);
    const { id, type, createdAt, data } = res.body;
    expect(JSON.stringify({ id, type, createdAt, data })).toBe(event.body);
  });

  it("missing a member is refused where it is read: the Events API answers 500 without internals", async () => {
    const { m, event } = await concludedEvent();
    const broken = JSON.parse(event.body);
    delete broken.data.status;
    await db.event.update({ where: { id: event.id }, data: { body: JSON.stringify(broken) } });
    const one = await m.api(`/v1/events/${event.id}`);
    expect([one.status, one.body.error.code]).toEqual([500, "INTERNAL_ERROR"]);
    expect(one.text).not.toContain("events.body");
    const list = await m.api(`/v1/events`);
    expect([list.status, list.body.error.code]).toEqual([500, "INTERNAL_ERROR"]);
  });
});
