import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { migrate, sharedAuthSecret } from "../../scripts/db.mjs";
import { TEST_DATABASE_URL } from "../support/env";
import { recreateDatabase } from "../support/global-setup";

// docs/operating.md "Scaling": without NEXTAUTH_SECRET every instance of a database reads one secret the database
// keeps; the first start stores an earlier data folder's secret (its sessions survive the upgrade) or a new one.
// test/integration/scale.test.ts proves two instances use each other's sessions and forward tokens.

const url = (() => {
  const u = new URL(TEST_DATABASE_URL);
  u.pathname = `${u.pathname}_authsecret`;
  return u.toString();
})();

/** Deletes the stored secret, as a database that never had one. */
async function forget(): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("DELETE FROM settings WHERE key = 'nextauth-secret'");
  await client.end();
}

beforeAll(async () => {
  await recreateDatabase(url);
  await migrate(url);
}, 120_000);
afterAll(() => forget());

describe("the console secret kept in the database", () => {
  it("the first start stores the data folder's secret; every later one reads it, whatever its own file says", async () => {
    const earlier = "carried-over-secret-from-the-data-folder-0123";
    expect(await sharedAuthSecret(url, earlier)).toBe(earlier);
    expect(await sharedAuthSecret(url, null)).toBe(earlier);
    expect(await sharedAuthSecret(url, "another-instance-own-file-secret-0123456789")).toBe(earlier);
  });

  it("with no usable earlier secret (none, too short, with spaces) a new one of 32 random bytes, the same for all", async () => {
    for (const carried of [null, "short", "a secret with spaces in it that is long enough"]) {
      await forget();
      const made = await sharedAuthSecret(url, carried);
      expect(made).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await Promise.all([sharedAuthSecret(url, null), sharedAuthSecret(url, null)])).toEqual([made, made]);
    }
  });
});
