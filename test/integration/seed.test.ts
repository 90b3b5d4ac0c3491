import { describe, expect, it } from "vitest";
import pg from "pg";
import { recreateDatabase } from "../support/global-setup";
import { TEST_DATABASE_URL } from "../support/env";

// docs/guides/operate-sandpiper.md "Seeded sandbox": SEED_CALLBACK_URL goes through the same address policy and secret generation as a
// console save; SEED_ALLOWED_IPS sets the allow-list; a second run is idempotent and issues new keys only.

const url = new URL(TEST_DATABASE_URL);
url.pathname = `${url.pathname}_seed`;
const SEED_DB_URL = url.toString();

async function merchantRow() {
  const client = new pg.Client({ connectionString: SEED_DB_URL });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT id, callback_url, callback_secret FROM merchants WHERE name = 'Sandbox Merchant'");
    const ips = await client.query("SELECT address FROM allowed_ips WHERE merchant_id = $1 ORDER BY address", [rows[0].id]);
    const counts = await client.query(
      "SELECT (SELECT count(*) FROM merchants)::int AS merchants, (SELECT count(*) FROM console_users)::int AS users, (SELECT count(*) FROM api_keys)::int AS keys",
    );
    return { ...rows[0], ips: ips.rows.map((r) => r.address), ...counts.rows[0] };
  } finally {
    await client.end();
  }
}

describe("npm run seed", () => {
  it("applies the callback address policy to SEED_CALLBACK_URL, sets SEED_ALLOWED_IPS, and is idempotent", async () => {
    const { migrate, seed } = await import("../../scripts/db.mjs");
    await recreateDatabase(SEED_DB_URL);
    await migrate(SEED_DB_URL);

    // A loopback receiver is refused without CALLBACK_ALLOW_LOOPBACK=1, like a console save, and nothing is left half-seeded.
    await expect(seed(SEED_DB_URL, ["--json"], { SEED_CALLBACK_URL: "http://127.0.0.1:4321/cb", CALLBACK_ALLOW_LOOPBACK: "" })).rejects.toThrow(/failed/);

    const out = JSON.parse(
      await seed(SEED_DB_URL, ["--json"], {
        SEED_CALLBACK_URL: "http://127.0.0.1:4321/cb",
        CALLBACK_ALLOW_LOOPBACK: "1",
        NODE_ENV: "test",
        SEED_ALLOWED_IPS: "203.0.113.7, ::ffff:198.51.100.9",
      }),
    );
    expect(out.callbackSecret).toMatch(/^whsec_[A-Za-z0-9]{44}$/);
    const row = await merchantRow();
    expect(row.callback_url).toBe("http://127.0.0.1:4321/cb");
    expect(row.callback_secret).toBe(out.callbackSecret);
    expect([row.merchants, row.users], "the refused run left nothing behind").toEqual([3, 5]);
    expect(row.ips).toEqual(["198.51.100.9", "203.0.113.7"]); // normalised: the IPv4-mapped form is its IPv4
    expect(Object.keys(out.keys)).toEqual(["full", "readOnly", "secondMerchant", "amountEntry"]);
    expect(Object.keys(out.users).sort()).toEqual(["amountEntry", "approver", "merchant", "operator", "second"]);
    // The amount-entry merchant has the flow switched on and a USD profile charged in AED (its customers can pick USD).
    const client = new pg.Client({ connectionString: SEED_DB_URL });
    await client.connect();
    const ae = await client.query(
      "SELECT m.amount_entry_enabled, count(p.id)::int AS profiles FROM merchants m LEFT JOIN pricing_profiles p ON p.merchant_id = m.id WHERE m.id = $1 GROUP BY m.id",
      [out.amountEntryMerchantId],
    );
    await client.end();
    expect(ae.rows).toEqual([{ amount_entry_enabled: true, profiles: 1 }]);

    const again = JSON.parse(await seed(SEED_DB_URL, ["--json"]));
    expect(again.users).toBeNull(); // passwords are shown only when the users are created
    expect(again.callbackSecret).toBeUndefined();
    expect(again.keys.full).not.toBe(out.keys.full);
    const after = await merchantRow();
    expect([after.merchants, after.users, after.keys]).toEqual([row.merchants, row.users, row.keys + 4]);
    expect(after.callback_secret).toBe(out.callbackSecret);
  }, 120_000);
});
