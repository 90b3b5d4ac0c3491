import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recreateDatabase } from "../support/global-setup";
import { TEST_DATABASE_URL } from "../support/env";
import { present } from "../support/present";

// The database guards are ordinary migrations (docs/architecture.md "Consistency"): a plain
// `prisma migrate deploy` on an empty database, with no project script around it, creates every trigger and
// function, and they act.

const root = path.resolve(__dirname, "../..");
const url = (() => {
  const u = new URL(TEST_DATABASE_URL);
  u.pathname = `${u.pathname}_plain_migrate`;
  return u.toString();
})();

const TRIGGERS = [
  "audit_log_no_change",
  "catalog_items_version",
  "event_feed_seq",
  "event_redelivery_feed_seq",
  "ledger_lines_balanced",
  "ledger_lines_no_change",
  "payments_counts_delete",
  "payments_counts_insert",
  "payments_counts_update",
  "pricing_versions_no_change",
];
const FUNCTIONS = [
  "bump_catalog_version",
  "dubai_day",
  "event_feed_assign_seq",
  "ledger_entry_balanced",
  "payment_counts_changed",
  "refuse_change",
  "refuse_statement",
];

let client: pg.Client;

beforeAll(async () => {
  await recreateDatabase(url);
  await promisify(execFile)(path.join(root, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
  client = new pg.Client({ connectionString: url });
  await client.connect();
}, 120_000);

afterAll(async () => {
  await client?.end();
});

describe("prisma migrate deploy on an empty database", () => {
  it("creates every trigger and function of the guards", async () => {
    const triggers = await client.query<{ tgname: string }>("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname");
    expect(triggers.rows.map((r) => r.tgname)).toEqual(expect.arrayContaining(TRIGGERS));
    const functions = await client.query<{ proname: string }>(
      "SELECT proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE nspname = 'public' ORDER BY proname",
    );
    expect(functions.rows.map((r) => r.proname)).toEqual(expect.arrayContaining(FUNCTIONS));
  });

  it("the guards act: Dubai days, append-only audit log, the feed's sequence row", async () => {
    const day = await client.query<{ d: string }>("SELECT dubai_day('2026-01-01T20:00:00Z') AS d");
    expect(present(day?.rows[0], "day?.rows[0]").d).toBe("2026-01-02");
    await client.query("INSERT INTO audit_log (id, actor_name, action, entity) VALUES (gen_random_uuid(), 'test', 'test.action', 'test')");
    await expect(client.query("UPDATE audit_log SET action = 'changed'")).rejects.toThrow(/audit log is append-only/);
    await expect(client.query("DELETE FROM audit_log")).rejects.toThrow(/audit log is append-only/);
    const seq = await client.query<{ last: string }>("SELECT last FROM event_sequence WHERE id = 1");
    expect(seq.rows).toEqual([{ last: "0" }]);
  });
});
