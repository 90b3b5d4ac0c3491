// Run by scripts/pack-sandbox.mjs (`node --import tsx`) on the database it prepares for the package, after the seed:
// what every sandbox starts with beyond the seed (docs/guides/test-in-your-own-suite.md "Options"), done once at
// pack time rather than at each start. Argument: the seeded merchant's id.
import { SYSTEM_ACTOR } from "@/lib/domain/audit";
import { switchFastRetries } from "@/lib/domain/callbacks/fast-retries";
import { systemNow } from "@/lib/platform/clock";
import { getDb } from "@/lib/platform/db";

const merchantId = process.argv[2];
if (merchantId === undefined) throw new Error("usage: prepare.ts <merchant id>");
const db = getDb();
try {
  // Fast callback retries, on unless a start says `fastRetries: false`.
  await switchFastRetries(db, SYSTEM_ACTOR, { merchantId, enabled: true, reason: "@sandpiper/sandbox: fast retries by default" }, systemNow());
} finally {
  await db.$disconnect();
}
