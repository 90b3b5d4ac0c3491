import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recreateDatabase } from "../support/global-setup";
import { TEST_DATABASE_URL } from "../support/env";
import { present } from "../../scripts/harness/present";

// The database guards are ordinary migrations (docs/architecture.md "Consistency"): `npm run db:migrate` on an empty
// database creates every trigger and function, and they act; each migration is recorded in `_prisma_migrations` as
// the Prisma CLI records it (docs/operating.md "Migrations").

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

/** `npm run db:migrate` (scripts/migrate.mjs) on the test's database; resolves with its stdout. */
async function migrateCommand(): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, "scripts", "migrate.mjs")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
  });
  return stdout;
}

beforeAll(async () => {
  await recreateDatabase(url);
  await migrateCommand();
  client = new pg.Client({ connectionString: url });
  await client.connect();
}, 120_000);

afterAll(async () => {
  await client?.end();
});

describe("npm run db:migrate on an empty database", () => {
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

  it("records every migration as Prisma does (name, SHA-256 of its file, finished, one step), and a second run applies nothing", async () => {
    const folders = fs
      .readdirSync(path.join(root, "prisma", "migrations"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    const expected = folders.map((name) => ({
      migration_name: name,
      checksum: createHash("sha256")
        .update(fs.readFileSync(path.join(root, "prisma", "migrations", name, "migration.sql")))
        .digest("hex"),
      finished: true,
      rolled_back_at: null,
      applied_steps_count: 1,
      logs: null,
    }));
    const recorded = async () =>
      (
        await client.query(
          "SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, rolled_back_at, applied_steps_count, logs FROM _prisma_migrations ORDER BY migration_name",
        )
      ).rows;
    expect(await recorded()).toEqual(expected);
    await migrateCommand();
    expect(await recorded()).toEqual(expected);
  });
});
