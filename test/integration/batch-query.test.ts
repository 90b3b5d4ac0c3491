import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { batchQuery, BULK_ROWS, Prisma, transaction, type Tx } from "@/lib/platform/db";
import { db, depositBody, newMerchant } from "../support/fixtures";
import { recordEvents } from "@/lib/domain/events/outbox";
import type { Payment } from "@/lib/contract/schemas/api/payment-resource";

// lib/platform/db.ts `batchQuery` (docs/architecture.md "Jobs"): a batch's statement sent straight on the connection of
// the transaction opened by `transaction`, without Prisma. It must run inside that transaction: see its writes, be
// rolled back with it, and never reach another connection; below BULK_ROWS rows, or outside `transaction`, Prisma runs
// it as before.

const table = `bulk_probe_${randomUUID().replaceAll("-", "")}`;
const values = Array.from({ length: 2 * BULK_ROWS }, (_, i) => `v${i}`);
const insertAll = () => Prisma.sql`INSERT INTO ${Prisma.raw(table)} (v) SELECT unnest(${values}::text[]) RETURNING v`;
const count = async (tx: Tx | typeof db = db) => Number((await tx.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM ${Prisma.raw(table)}`)[0]?.n);
/** The node-postgres prepared statements of this connection whose text names `name` (Prisma's adapter prepares none by name). */
const preparedHere = async (tx: Tx, name: string) =>
  (await tx.$queryRaw<{ name: string }[]>`SELECT name FROM pg_prepared_statements WHERE statement LIKE ${`%${name}%`}`).map((r) => r.name);

beforeAll(async () => {
  await db.$executeRawUnsafe(`CREATE TABLE ${table} (v text NOT NULL)`);
});

afterAll(async () => {
  await db.$executeRawUnsafe(`DROP TABLE IF EXISTS ${table}`);
});

/** batchQuery for a batch of many rows. */
const bulk = (tx: Tx, statement: Prisma.Sql) => batchQuery(tx, values.length, statement);

describe("batchQuery in a transaction", () => {
  it("runs on the transaction's own connection, prepared by node-postgres: it sees a temporary table and rows the transaction wrote, and they see its rows", async () => {
    await transaction(async (tx) => {
      // A temporary table exists on one connection only: a statement sent anywhere else could not read it.
      await tx.$executeRawUnsafe(`CREATE TEMP TABLE ${table}_own (v text) ON COMMIT DROP`);
      await tx.$executeRawUnsafe(`INSERT INTO ${table}_own VALUES ('written by Prisma')`);
      const own = await bulk(tx, Prisma.sql`SELECT v FROM ${Prisma.raw(`${table}_own`)}`);
      expect(own).toEqual([{ v: "written by Prisma" }]);
      const inserted = await bulk(tx, insertAll());
      expect(inserted.map((r: Record<string, unknown>) => r.v)).toEqual(values);
      expect(await count(tx)).toBe(values.length);
      const [viaPrisma] = await tx.$queryRaw<{ txid: bigint }[]>`SELECT txid_current() AS txid`;
      const [direct] = await bulk(tx, Prisma.sql`SELECT txid_current() AS txid`);
      expect(direct?.txid).toBe(viaPrisma?.txid);
      expect((await preparedHere(tx, `${table}_own`)).some((name) => name.startsWith("sp"))).toBe(true);
      // Not yet visible outside the transaction.
      expect(await count()).toBe(0);
    });
    expect(await count()).toBe(values.length);
    await db.$executeRawUnsafe(`DELETE FROM ${table}`);
  });

  it("is rolled back with its transaction", async () => {
    await expect(
      transaction(async (tx) => {
        await bulk(tx, insertAll());
        throw new Error("the caller fails after the batch");
      }),
    ).rejects.toThrow("the caller fails after the batch");
    expect(await count()).toBe(0);
  });

  it("a statement the database refuses fails the transaction, which is rolled back as a whole", async () => {
    await expect(
      transaction(async (tx) => {
        await tx.$executeRawUnsafe(`INSERT INTO ${table} VALUES ('before')`);
        await bulk(tx, Prisma.sql`INSERT INTO ${Prisma.raw(table)} (v) VALUES (NULL)`);
      }),
    ).rejects.toThrow(/null value/);
    expect(await count()).toBe(0);
  });

  it("a transaction that has ended is refused (Prisma's answer), never run on the connection it had", async () => {
    let ended: Tx | undefined;
    await transaction(async (tx) => {
      ended = tx;
      await bulk(tx, Prisma.sql`SELECT 1 AS one`);
    });
    if (!ended) throw new Error("the transaction did not run");
    await expect(bulk(ended, insertAll())).rejects.toThrow(/transaction/i);
    expect(await count()).toBe(0);
  });

  it("a statement of fewer than BULK_ROWS rows goes through Prisma, inside the transaction", async () => {
    await transaction(async (tx) => {
      await tx.$executeRawUnsafe(`CREATE TEMP TABLE ${table}_few (v text) ON COMMIT DROP`);
      expect(await batchQuery(tx, BULK_ROWS - 1, Prisma.sql`INSERT INTO ${Prisma.raw(`${table}_few`)} VALUES ('y') RETURNING v`)).toEqual([{ v: "y" }]);
      expect(await preparedHere(tx, `${table}_few`)).toEqual([]);
    });
  });

  it("in a transaction not opened by `transaction` (a plain $transaction), Prisma runs it, still inside that transaction", async () => {
    await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`CREATE TEMP TABLE ${table}_plain (v text) ON COMMIT DROP`);
      await tx.$executeRawUnsafe(`INSERT INTO ${table}_plain VALUES ('x')`);
      expect(await bulk(tx, Prisma.sql`SELECT v FROM ${Prisma.raw(`${table}_plain`)}`)).toEqual([{ v: "x" }]);
      expect(await preparedHere(tx, `${table}_plain`)).toEqual([]);
    });
  });
});

describe("a batch of events recorded through batchQuery", () => {
  it("stores every event's body as exactly the text built for it (quotes, backslashes, line separators, emoji), numbered in order", async () => {
    const m = await newMerchant();
    const created = await m.api<Payment>("/v1/payments", { body: depositBody() });
    expect(created.status).toBe(201);
    const tricky = ['"quoted"', "back\\slash", "line\u2028separator", "emoji 🦩", "tab\tand\nnewline", "\u0000-free"];
    const now = new Date();
    const inputs = Array.from({ length: BULK_ROWS + 20 }, (_, i) => ({
      merchantId: m.merchant.id,
      paymentId: null, // one event per payment and type: these are console-test-like events
      type: "payment.expired" as const,
      data: { ...created.body, reference: `${tricky[i % tricky.length]}-${i}` },
      now,
    }));
    const recorded = await transaction((tx) => recordEvents(tx, inputs));
    const rows = await db.event.findMany({ where: { id: { in: recorded.map((r) => r.eventId) } }, orderBy: { position: "asc" } });
    expect(rows.map((r) => r.id)).toEqual(recorded.map((r) => r.eventId));
    rows.forEach((row, i) => {
      expect(row.body).toBe(JSON.stringify({ id: row.id, type: "payment.expired", createdAt: now.toISOString(), data: inputs[i]?.data }));
    });
    expect(await db.delivery.count({ where: { eventId: { in: recorded.map((r) => r.eventId) } } })).toBe(inputs.length);
  });
});
