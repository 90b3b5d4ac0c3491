import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, expect, it } from "vitest";
import { transaction } from "@/lib/platform/db";
import { recordEvent } from "@/lib/domain/events/outbox";
import { PrismaClient } from "@/lib/platform/generated/prisma/client";
import { depositBody, newMerchant } from "../support/fixtures";
import { TEST_DATABASE_URL } from "../support/env";

// The `after` cursor follows commit order (docs/callbacks.md "Events API"): 8 writers commit events in
// transactions of random length (a transaction that started first often commits last), some roll back, while a
// reader pages with after=<last id read>. The reader must end with exactly the committed events, each once.
// Ordering by creation time or by an id taken before COMMIT would skip the late committers.

const writers = new PrismaClient({ adapter: new PrismaPg({ connectionString: TEST_DATABASE_URL, max: 10 }) });
afterAll(() => writers.$disconnect());

it("a reader paging with after ends with exactly the set of committed events under 8 concurrent writers", async () => {
  const m = await newMerchant();
  const created = await m.api("/v1/payments", { body: depositBody() });
  const done = await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "SUCCEEDED" } });
  const data = { ...done.body, customer: undefined };
  const start = (await m.api(`/v1/events?paymentId=${created.body.id}`)).body.items[0].id as string;

  const committed = new Set<string>();
  const rolledBack = new Set<string>();
  let writing = true;
  const writer = async (w: number) => {
    for (let t = 0; t < 12; t++) {
      const ids: string[] = [];
      const abort = Math.random() < 0.2;
      try {
        await transaction(
          async (tx) => {
            const count = 1 + Math.floor(Math.random() * 3);
            for (let i = 0; i < count; i++) {
              const { eventId } = await recordEvent(tx, { merchantId: m.merchant.id, paymentId: null, type: "payment.succeeded", data, now: new Date() });
              ids.push(eventId);
              await tx.$executeRawUnsafe(`SELECT pg_sleep(${(Math.random() * 0.08).toFixed(3)})`);
            }
            await tx.$executeRawUnsafe(`SELECT pg_sleep(${(Math.random() * 0.25).toFixed(3)})`);
            if (abort) throw new Error(`writer ${w} rolls back`);
          },
          { db: writers },
        );
        ids.forEach((id) => committed.add(id));
      } catch (error) {
        if (!abort) throw error;
        ids.forEach((id) => rolledBack.add(id));
      }
    }
  };

  const read: string[] = [];
  let cursor = start;
  const readPage = async () => {
    const res = await m.api(`/v1/events?after=${cursor}&limit=7`);
    expect(res.status, res.text).toBe(200);
    for (const item of res.body.items as { id: string }[]) read.push(item.id);
    if (res.body.items.length > 0) cursor = res.body.items[res.body.items.length - 1].id;
    return res.body.items.length;
  };
  const reader = (async () => {
    // waits on purpose (pacing, not a condition): an empty page waits 150 ms, so the reader stays well inside the
    // key's 300 reads a minute.
    while (writing) if ((await readPage()) === 0) await new Promise((r) => setTimeout(r, 150));
    while ((await readPage()) > 0);
  })();
  await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
  writing = false;
  await reader;

  expect(committed.size).toBeGreaterThan(50);
  expect(rolledBack.size).toBeGreaterThan(0);
  expect(new Set(read).size, "no event read twice").toBe(read.length);
  expect([...read].sort()).toEqual([...committed].sort());
  for (const id of rolledBack) expect(read).not.toContain(id);
  // The reader read them in the order the list gives for the same range (commit order).
  const all = await m.api(`/v1/events?after=${start}&limit=100`);
  const rest = [...all.body.items.map((i: { id: string }) => i.id)];
  expect(read.slice(0, rest.length)).toEqual(rest);
  // The merchant's own positions (the listeners' cursor) follow the same commit order: 1..n, each once, none lost to
  // a rollback.
  const rows = await writers.$queryRawUnsafe<{ position: bigint }[]>(`SELECT position FROM events WHERE merchant_id = $1::uuid ORDER BY seq`, m.merchant.id);
  expect(rows.map((r) => Number(r.position))).toEqual(rows.map((_, i) => i + 1));
}, 120_000);

it("listener cursors count each merchant's own events from 1, commit order kept, gaps never, other merchants never", async () => {
  const [a, b] = [await newMerchant(), await newMerchant()];
  const page = async (m: typeof a, cursor?: string) => {
    const res = await m.api(`/v1/events/stream${cursor === undefined ? "" : `?cursor=${cursor}`}`);
    expect(res.status, res.text).toBe(200);
    return res.body as { items: { cursor: string; eventId: string }[]; cursor: string };
  };
  const conclude = async (m: typeof a) => {
    const created = await m.api("/v1/payments", { body: depositBody() });
    expect((await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "SUCCEEDED" } })).status).toBe(200);
  };
  // b starts at 0 however many events the suite's other merchants made.
  expect((await page(b)).cursor).toBe("0");
  for (let i = 0; i < 3; i++) await conclude(a);
  await conclude(b);
  expect((await page(a, "0")).items.map((i) => i.cursor)).toEqual(["1", "2", "3"]);
  const first = await page(b, "0");
  expect(first.items.map((i) => i.cursor)).toEqual(["1"]);
  // A redelivery takes the merchant's next position; a's traffic in between moves none of b's.
  await conclude(a);
  const redelivered = await b.api(`/v1/events/${first.items[0]!.eventId}/redeliver`, { body: {} });
  expect(redelivered.status, redelivered.text).toBe(201);
  expect((await page(b, "1")).items.map((i) => [i.cursor, i.eventId])).toEqual([["2", first.items[0]!.eventId]]);
  // A cursor past the merchant's newest position starts at its newest (and says so).
  expect(await page(b, "999999")).toEqual({ items: [], cursor: "2" });
}, 60_000);

it("a transaction's events and redeliveries take their positions together at COMMIT, in the order they were inserted", async () => {
  const [a, b] = [await newMerchant(), await newMerchant()];
  // A real event of each merchant, whose envelope the rows below copy (under their own ids): every reader of the
  // feed can read them.
  for (const m of [a, b]) {
    const created = await m.api("/v1/payments", { body: depositBody() });
    expect((await m.api(`/v1/sandbox/payments/${created.body.id}/complete`, { body: { outcome: "SUCCEEDED" } })).status).toBe(200);
  }
  const ids = Array.from({ length: 7 }, () => crypto.randomUUID());
  // Interleaved merchants, a redelivery between events, and one row copied with another transaction's id (a row
  // made by hand): each must be numbered once, none skipped.
  const order: { table: "events" | "event_redeliveries"; id: string; merchantId: string; foreignTx?: boolean }[] = [
    { table: "events", id: ids[0]!, merchantId: a.merchant.id },
    { table: "events", id: ids[1]!, merchantId: b.merchant.id },
    { table: "events", id: ids[2]!, merchantId: a.merchant.id },
    { table: "event_redeliveries", id: ids[3]!, merchantId: b.merchant.id },
    { table: "events", id: ids[4]!, merchantId: a.merchant.id, foreignTx: true },
    { table: "events", id: ids[5]!, merchantId: b.merchant.id },
    { table: "event_redeliveries", id: ids[6]!, merchantId: a.merchant.id },
  ];
  await writers.$transaction(async (tx) => {
    for (const row of order) {
      if (row.table === "events") {
        await tx.$executeRaw`
          INSERT INTO events (id, merchant_id, type, body)
          SELECT ${row.id}::uuid, merchant_id, type, jsonb_set(body::jsonb, '{id}', to_jsonb(${row.id}::text))::text
          FROM events WHERE merchant_id = ${row.merchantId}::uuid AND payment_id IS NOT NULL LIMIT 1`;
        if (row.foreignTx) await tx.$executeRaw`UPDATE events SET feed_tx = 1 WHERE id = ${row.id}::uuid`;
      } else {
        const of = order.find((r) => r.table === "events" && r.merchantId === row.merchantId)!;
        await tx.$executeRaw`INSERT INTO event_redeliveries (id, event_id, merchant_id) VALUES (${row.id}::uuid, ${of.id}::uuid, ${row.merchantId}::uuid)`;
      }
    }
  });
  const numbered = await writers.$queryRaw<{ id: string; seq: bigint; position: bigint; merchant_id: string }[]>`
    SELECT id::text, seq, position, merchant_id::text FROM events WHERE id = ANY(${ids}::uuid[])
    UNION ALL SELECT id::text, seq, position, merchant_id::text FROM event_redeliveries WHERE id = ANY(${ids}::uuid[])`;
  const byId = new Map(numbered.map((r) => [r.id, r]));
  const rows = order.map((r) => byId.get(r.id)!);
  // The row copied with another transaction's id is numbered by its own firing, after the others; the rest in insertion order.
  const expected = [...order.filter((r) => !r.foreignTx), ...order.filter((r) => r.foreignTx)];
  // Contiguous: the global row stays locked from the first firing to the commit, whatever other tests commit meanwhile.
  const seqs = expected.map((r) => byId.get(r.id)!.seq);
  expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + BigInt(i)));
  for (const m of [a, b]) {
    const mine = expected.filter((r) => r.merchantId === m.merchant.id).map((r) => byId.get(r.id)!.position);
    // After the merchant's one real event: its next positions, in insertion order.
    expect(mine).toEqual(mine.map((_, i) => BigInt(i + 2)));
  }
  expect(rows.every((r) => r.seq !== null && r.position !== null)).toBe(true);
});
