import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { OneQueryAtATimeClient, Prisma, query } from "@/lib/platform/db";
import { TEST_DATABASE_URL } from "../support/env";
import { present } from "../../scripts/harness/present";

// lib/platform/db.ts `query` (docs/architecture.md "Hot paths"): statements are prepared once per connection, a refused
// statement keeps its connection (and so its prepared statements), a lost one is replaced, and a schema change that
// alters a prepared statement's columns is answered by preparing it again. One connection, so every step meets the
// same session unless it was replaced.

let pool: pg.Pool;
const table = `prepared_${randomUUID().replaceAll("-", "")}`;
const pid = async () =>
  Number(present((await query(Prisma.sql`SELECT pg_backend_pid() AS pid`, pool))[0], "(await query(Prisma.sql`SELECT pg_backend_pid() AS pid`, ...").pid);

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
  await pool.query(`CREATE TABLE ${table} (a int PRIMARY KEY)`);
  await pool.query(`INSERT INTO ${table} VALUES (1)`);
});

afterAll(async () => {
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  await pool.end();
});

describe("query on the pool", () => {
  it("a statement the database refuses (a unique violation, a raised error) leaves the connection and its prepared statements in place", async () => {
    const before = await pid();
    const insert = Prisma.sql`INSERT INTO ${Prisma.raw(table)} VALUES (${1})`;
    await expect(query(insert, pool)).rejects.toMatchObject({ code: "23505" });
    await expect(query(insert, pool)).rejects.toMatchObject({ code: "23505" }); // the same prepared statement, again
    await expect(query(Prisma.sql`SELECT 1 / ${0}::int AS x`, pool)).rejects.toMatchObject({ code: "22012" });
    expect(await pid()).toBe(before);
    const [prepared] = await query(Prisma.sql`SELECT count(*) AS n FROM pg_prepared_statements WHERE name LIKE 'sp%'`, pool);
    expect(prepared?.n).toBeGreaterThanOrEqual(3n);
  });

  it("a lost connection is replaced, and the next statement is prepared on the new one", async () => {
    const before = await pid();
    await expect(query(Prisma.sql`SELECT pg_terminate_backend(pg_backend_pid())`, pool)).rejects.toBeTruthy();
    const after = await pid();
    expect(after).not.toBe(before);
    expect(await query(Prisma.sql`SELECT a FROM ${Prisma.raw(table)} WHERE a = ${1}`, pool)).toEqual([{ a: 1 }]);
  });

  it("a column added while a `SELECT *` is prepared: the statement is prepared again and answers with the new column", async () => {
    const all = Prisma.sql`SELECT * FROM ${Prisma.raw(table)} WHERE a = ${1}`;
    expect(await query(all, pool)).toEqual([{ a: 1 }]);
    await pool.query(`ALTER TABLE ${table} ADD COLUMN b int NOT NULL DEFAULT 7`);
    expect(await query(all, pool)).toEqual([{ a: 1, b: 7 }]);
    expect(await query(all, pool)).toEqual([{ a: 1, b: 7 }]);
  });
});

describe("OneQueryAtATimeClient (the pool's connections)", () => {
  it("queries issued at once on one connection run one after another, in order, each with its own answer or error, and pg warns of nothing", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    const one = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1, Client: OneQueryAtATimeClient });
    const client = await one.connect();
    try {
      // clock_timestamp() is read after the sleep of its own statement.
      const started = (delay: number) => client.query(`SELECT clock_timestamp() AS at FROM pg_sleep(${delay})`);
      const issued = [
        started(0.05),
        client.query("SELECT $1::int AS n", [2]),
        client.query("SELECT 1 / 0").catch((error: Error) => error),
        new Promise((resolve) => client.query("SELECT $1::text AS t", ["callback"], (error, result) => resolve(error ?? result.rows))),
        started(0),
      ] as const;
      // node-postgres' own (deprecated) queue stays empty: the client holds the later queries back itself.
      expect((client as unknown as { _queryQueue: unknown[] })._queryQueue).toHaveLength(0);
      const answers = await Promise.all(issued);
      expect(answers[1].rows).toEqual([{ n: 2 }]);
      expect(answers[2]).toMatchObject({ code: "22012" });
      expect(answers[3]).toEqual([{ t: "callback" }]);
      expect(answers[4].rows[0].at.getTime(), "the last query ran after the first one's sleep").toBeGreaterThan(answers[0].rows[0].at.getTime());
      expect((await client.query("SELECT 4 AS n")).rows, "the connection is usable after them").toEqual([{ n: 4 }]);
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => /already executing a query/.test(w.message))).toEqual([]);
    } finally {
      client.release();
      await one.end();
      process.off("warning", onWarning);
    }
  });
});
